#include "backend/linux/atspi/atspi_toolkit.h"

#include "backend/linux/atspi/atspi_locator.h"
#include "backend/linux/atspi/atspi_message.h"
#include "backend/linux/atspi/atspi_names.h"

namespace nd_linux {

std::string toolkit_name(AtspiBus& bus, const std::string& app_bus)
{
    std::string name;
    auto reply = bus.call({app_bus, ROOT_PATH, IFACE_PROPERTIES, "Get"}, get_property(IFACE_APPLICATION, "ToolkitName"),
                          deadline_in(std::chrono::milliseconds(500)));
    if (!reply || read_string_variant(reply->get(), name) < 0)
        name.clear();
    return name;
}

std::string toolkit_of_pid(AtspiBus& bus, std::int64_t pid)
{
    auto apps = apps_of_pid(bus, pid, deadline_in(std::chrono::milliseconds(1000)));
    if (!apps || apps->empty())
        return {};
    return toolkit_name(bus, apps->front().bus);
}

} // namespace nd_linux

#include "backend/linux/atspi/atspi_toolkit.h"

#include "backend/linux/atspi/atspi_locator.h"
#include "backend/linux/atspi/atspi_message.h"
#include "backend/linux/atspi/atspi_names.h"

namespace nd_linux {

nd_core::Result<std::string> toolkit_name(AtspiBus& bus, const std::string& app_bus, Deadline deadline)
{
    std::string name;
    auto reply = bus.call({app_bus, ROOT_PATH, IFACE_PROPERTIES, "Get"}, get_property(IFACE_APPLICATION, "ToolkitName"),
                          deadline);
    if (!reply && (reply.error().code == nd_core::ErrorCode::app_not_responding ||
                   reply.error().code == nd_core::ErrorCode::timed_out))
        return reply.error();
    if (!reply || read_string_variant(reply->get(), name) < 0)
        name.clear();
    return name;
}

nd_core::Result<std::string> toolkit_of_pid(AtspiBus& bus, std::int64_t pid)
{
    const Deadline deadline = deadline_in(std::chrono::milliseconds(1000));
    auto apps = apps_of_pid(bus, pid, deadline);
    if (!apps || apps->empty())
        return std::string{};
    return toolkit_name(bus, apps->front().bus, deadline);
}

} // namespace nd_linux

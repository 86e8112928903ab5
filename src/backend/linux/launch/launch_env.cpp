#include "backend/linux/launch/launch_env.h"

#include <algorithm>

namespace nd_linux {

namespace {

// GTK_MODULES is a list separated by ':' (GTK also accepts ','); empty entries are dropped.
std::vector<std::string> split_modules(std::string_view list)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= list.size()) {
        const auto end = std::min(list.find_first_of(":,", start), list.size());
        if (end > start)
            out.emplace_back(list.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

} // namespace

std::vector<std::string> accessibility_launch_env(std::string_view gtk_modules)
{
    auto modules = split_modules(gtk_modules);
    for (const char* wanted : {"gail", "atk-bridge"})
        if (std::find(modules.begin(), modules.end(), wanted) == modules.end())
            modules.emplace_back(wanted);
    std::string joined;
    for (const auto& m : modules)
        joined += (joined.empty() ? "" : ":") + m;
    return {"GTK_MODULES=" + joined, "GNOME_ACCESSIBILITY=1", "QT_ACCESSIBILITY=1", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1",
        "ACCESSIBILITY_ENABLED=1"};
}

} // namespace nd_linux

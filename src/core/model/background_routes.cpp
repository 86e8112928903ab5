#include "core/model/background_routes.h"

#include <algorithm>
#include <cctype>

namespace nd_core {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

const std::vector<std::string> ATSPI_ROUTES = {"actions", "text", "value"};

} // namespace

bool BackgroundRoutes::takes(std::string_view route) const
{
    return std::find(routes.begin(), routes.end(), route) != routes.end();
}

BackgroundRoutes background_routes(std::string_view atspi_toolkit, std::string_view wm_class)
{
    const auto toolkit = lower(atspi_toolkit);
    const auto cls = lower(wm_class);
    if (toolkit.empty() && (cls == "xterm" || cls == "uxterm"))
        return {"Xt", {}, "xterm refuses key and button events another program sends (allowSendEvents) and has no "
                          "accessibility interface"};
    if (toolkit == "qt")
        return {"Qt", {"actions", "text", "value", "keys", "buttons"}, ""};
    // The two GTK bridges differ only in case: GTK3's ATK bridge says "gtk", GTK4's own "GTK".
    if (atspi_toolkit == "gtk")
        return {"GTK3", ATSPI_ROUTES,
            "GTK3 reads keys through XInput 2 and drops key events another program sends, and takes sent button "
            "events only while its window is the active one"};
    if (toolkit == "gtk")
        return {"GTK4", ATSPI_ROUTES, "GTK4 drops the key and button events another program sends"};
    if (toolkit == "chromium" || toolkit == "chrome")
        return {"Chromium", {"actions", "value"},
            "Chromium reads keys and the pointer through XInput 2 and drops key and button events another program "
            "sends, and its web text fields offer no EditableText"};
    if (toolkit.empty())
        return {"", {}, "the app has no accessibility interface, and its handling of events another program sends is unknown"};
    return {std::string(atspi_toolkit), ATSPI_ROUTES,
        "not measured: key and button events another program sends may be dropped, so none are sent"};
}

std::vector<BackgroundRoutes> measured_background_routes()
{
    return {background_routes("gtk", ""), background_routes("GTK", ""), background_routes("Qt", ""),
        background_routes("Chromium", ""), background_routes("", "XTerm")};
}

} // namespace nd_core

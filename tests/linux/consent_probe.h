#pragma once

// Finding nish-driver's consent dialog (or, by its WM_CLASS, the confirm dialog) on a display as another client sees it, for the tests that
// click it: by its WM_CLASS among the root's children and their children (a reparenting window
// manager's frame holds the client window), viewable, with its rectangle on the root.

#include "backend/linux/x11/x11_consent_dialog.h"
#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_properties.h"
#include "core/backend/synthetic_input.h"
#include "core/model/element.h"
#include "linux/app_process.h"

#include <optional>
#include <thread>
#include <vector>

namespace nd_test {

struct ShownDialog {
    xcb_window_t window = 0;
    nd_core::Frame frame; // the client window on the root
};

inline std::optional<ShownDialog> find_consent_dialog(nd_linux::X11Display& display,
    std::string_view wm_class = nd_linux::X11ConsentDialog::WM_CLASS_NAME)
{
    auto* c = display.connection();
    const auto deadline = nd_linux::deadline_after(std::chrono::seconds(1));
    std::vector<xcb_window_t> candidates;
    auto top = display.wait<xcb_query_tree_reply_t>(xcb_query_tree(c, display.root()), deadline);
    if (!top.ok() || !*top)
        return std::nullopt;
    auto* kids = xcb_query_tree_children(top->value.get());
    for (int i = 0; i < xcb_query_tree_children_length(top->value.get()); ++i) {
        candidates.push_back(kids[i]);
        auto sub = display.wait<xcb_query_tree_reply_t>(xcb_query_tree(c, kids[i]), deadline);
        if (sub.ok() && *sub) {
            auto* grand = xcb_query_tree_children(sub->value.get());
            candidates.insert(candidates.end(), grand, grand + xcb_query_tree_children_length(sub->value.get()));
        }
    }
    for (auto w : candidates) {
        auto cls = display.wait<xcb_get_property_reply_t>(
            xcb_get_property(c, 0, w, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 0, 64), deadline);
        if (!cls.ok() || !*cls
            || nd_linux::property_wm_class(cls->value.get()).class_name != wm_class)
            continue;
        auto attributes = display.wait<xcb_get_window_attributes_reply_t>(xcb_get_window_attributes(c, w), deadline);
        auto origin = display.wait<xcb_translate_coordinates_reply_t>(xcb_translate_coordinates(c, w, display.root(), 0, 0), deadline);
        auto geometry = display.wait<xcb_get_geometry_reply_t>(xcb_get_geometry(c, w), deadline);
        if (!attributes.ok() || !*attributes || (*attributes)->map_state != XCB_MAP_STATE_VIEWABLE || !origin.ok() || !*origin
            || !geometry.ok() || !*geometry)
            continue;
        return ShownDialog{w, {(*origin)->dst_x, (*origin)->dst_y, (*geometry)->width, (*geometry)->height}};
    }
    return std::nullopt;
}

// The dialog once shown and placed: found at the same place twice, 100 ms apart. Nullopt when it did
// not settle within `timeout`.
inline std::optional<ShownDialog> wait_for_consent_dialog(nd_linux::X11Display& display,
                                                          std::chrono::milliseconds timeout = std::chrono::seconds(10),
                                                          std::string_view wm_class = nd_linux::X11ConsentDialog::WM_CLASS_NAME)
{
    std::optional<ShownDialog> last;
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
        auto now = find_consent_dialog(display, wm_class);
        if (now && last && now->window == last->window && now->frame.x == last->frame.x && now->frame.y == last->frame.y)
            return now;
        last = now;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return std::nullopt;
}

// The centre of a control of the dialog's layout on the root.
inline nd_core::Point control_centre(const ShownDialog& dialog, const nd_linux::ConsentRect& r)
{
    return {dialog.frame.x + r.center_x(), dialog.frame.y + r.center_y()};
}

} // namespace nd_test

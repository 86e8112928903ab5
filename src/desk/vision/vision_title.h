#pragma once

// title_at (docs/vision.md): whether a screen point shows a window title, in a window manager's
// title bar (the decoration above a window, _NET_FRAME_EXTENTS' top on X11) or a desktop panel
// (a task bar's button named after a window). Pure functions of values, so the desk tests check
// them without a desktop; the verb reads the panel's element at the point.

#include "core/backend/screen.h"
#include "core/backend/synthetic_input.h"
#include "core/model/element.h"

#include <string>
#include <vector>

namespace nd_desk {

struct TitleAt {
    bool title = false;
    // "title_bar", "frame" (another part of a decoration), "window" (its contents), "panel",
    // "desktop" or "off_screen".
    std::string where;
    const nd_core::WindowInfo* window = nullptr; // the window whose decoration or contents it is
    const nd_core::WindowInfo* panel = nullptr;  // the panel there
};

// `windows` topmost first; `panels` are the desktop panels, which stay above windows. A point in a
// panel answers where "panel" with title false: the caller reads the panel to tell.
TitleAt title_at(const std::vector<nd_core::WindowInfo>& windows, const std::vector<nd_core::WindowInfo>& panels,
    nd_core::Point, nd_core::ScreenSize);

// The window whose title a panel's element shows: the element at the point (`row`) or one of its
// two nearest ancestors is named with a listed window's title (a task bar button, or its label).
// Null when none is.
const nd_core::WindowInfo* titled_window(const std::vector<nd_core::Element>& panel_elements, std::int32_t row,
    const std::vector<nd_core::WindowInfo>& windows);

} // namespace nd_desk

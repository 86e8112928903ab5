#pragma once

// title_at (docs/vision.md): whether a screen point shows a window title, in a window manager's
// title bar (the decoration above a window, _NET_FRAME_EXTENTS' top on X11) or a desktop panel.
// Pure geometry over the window list, so the desk tests check it without a desktop.

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
};

// `windows` topmost first; `panels` are the desktop panels' rectangles, which stay above windows.
TitleAt title_at(const std::vector<nd_core::WindowInfo>& windows, const std::vector<nd_core::Frame>& panels,
    nd_core::Point, nd_core::ScreenSize);

} // namespace nd_desk

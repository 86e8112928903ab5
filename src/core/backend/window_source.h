#pragma once

// Lists the desktop's top-level windows. Owner: the backend. Topmost first (stacking order), every
// window of every app: scope filtering is the engine's job, not the backend's.

#include "core/model/element.h"
#include "core/result.h"

#include <vector>

namespace nd_core {

class WindowSource {
public:
    virtual ~WindowSource() = default;
    virtual Result<std::vector<WindowInfo>> list_windows() = 0;
    // The desktop's panels (docks: a task bar, a menu bar of the desktop), topmost first, which
    // list_windows leaves out; none where a backend has no such windows.
    virtual Result<std::vector<WindowInfo>> list_panels() { return std::vector<WindowInfo>{}; }
    // The surfaces no window manager places, which list_windows leaves out and which lie above
    // every window it lists: menus, popovers, tooltips, a select's list (they may reach past their
    // window's frame), and some desktops' notifications. Topmost first, each with its window_id,
    // frame, and the pid, app and executable of the program that shows it where known; none where a
    // backend has no such surfaces.
    virtual Result<std::vector<WindowInfo>> list_unmanaged() { return std::vector<WindowInfo>{}; }
};

} // namespace nd_core

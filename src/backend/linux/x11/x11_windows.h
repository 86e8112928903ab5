#pragma once

// The desktop's top-level windows on X11, read from the window manager's EWMH lists.
//
// Order: _NET_CLIENT_LIST_STACKING (else _NET_CLIENT_LIST, else the root's children when no EWMH
// window manager runs), reversed so the topmost window comes first. Listed: viewable windows only,
// without docks and desktops. Per window: the title from _NET_WM_NAME (else WM_NAME), the app from
// WM_CLASS, the pid from X-Resource (else _NET_WM_PID), the frame of the client window in root
// coordinates, and active from _NET_ACTIVE_WINDOW. docs/linux-x11.md has the details and why.
// For the desk (docs/desk-verbs-read.md) also: dialog from _NET_WM_WINDOW_TYPE, modal and hidden from
// _NET_WM_STATE, transient_for from WM_TRANSIENT_FOR, and shell when the window's pid also owns a
// (viewable) dock or desktop window, which is itself not listed; on a local display, executable
// from /proc/PID/exe.
//
// Each list is two batches of requests (root properties, then everything about every window at
// once), each with its own deadline; a window that vanishes in between is left out, not an error.

#include "backend/linux/x11/x11_display.h"
#include "core/backend/window_source.h"

namespace nd_linux {

class X11WindowSource final : public nd_core::WindowSource {
public:
    explicit X11WindowSource(X11Display& display);

    // Errors: backend_unavailable (the display connection broke), timed_out (the server did not
    // answer a batch within X11_BATCH_TIMEOUT).
    nd_core::Result<std::vector<nd_core::WindowInfo>> list_windows() override;
    nd_core::Result<std::vector<nd_core::WindowInfo>> list_panels() override;
    // The viewable override-redirect windows larger than 1x1 among the root's children that take
    // input (an empty input shape leaves out a compositor's overlay window and our indicator; our
    // other surfaces are listed, found apart by their mark), each with its client's pid (XRes, else
    // _NET_WM_PID), WM_CLASS and executable.
    nd_core::Result<std::vector<nd_core::WindowInfo>> list_unmanaged() override;

private:
    struct RootState {
        std::vector<xcb_window_t> bottom_to_top;
        xcb_window_t active = XCB_WINDOW_NONE;
    };
    nd_core::Result<RootState> read_root();
    // The listed windows; with `panels`, the dock windows go there (pid, title, frame, app).
    nd_core::Result<std::vector<nd_core::WindowInfo>> collect(std::vector<nd_core::WindowInfo>* panels);

    X11Display& m_display;
};

// The executable name of a local process (/proc/<pid>/comm), empty when unknown.
std::string process_name(std::int64_t pid);

// The file name of a local process's executable (/proc/<pid>/exe, which comm cuts at 15
// characters), else process_name(); empty when unknown.
std::string executable_name(std::int64_t pid);

} // namespace nd_linux

#pragma once

// Background drag on X11 (core/backend/window_pointer.h): each event a ButtonPress, MotionNotify or
// ButtonRelease of button 1 sent to the window with SendEvent to the client that made it (an empty
// event mask: a toolkit that reads the pointer through XInput 2 selects no core button events, yet
// its own client still gets these). Nothing moves the person's pointer. A window that is not the
// active one gets a FocusIn sent before the press (and 50 ms to take it) and a FocusOut after the release: Qt asks the
// window manager to activate a window pressed while it thinks itself unfocused, and would take
// the person's focus; so told, it does not. The server's focus never changes. Apps see the events'
// send_event flag; GTK4 and Chromium drop them, GTK3 takes them only while its window is active,
// which is why the desk sends them only to the toolkits measured to take them (Qt 5).

#include "backend/linux/x11/x11_display.h"
#include "core/backend/window_pointer.h"

namespace nd_linux {

class X11WindowPointer final : public nd_core::WindowPointer {
public:
    explicit X11WindowPointer(X11Display& display) : m_display(display) {}
    nd_core::Result<void> send_pointer(const nd_core::WindowInfo&, nd_core::WindowPointerEvent, nd_core::Point at) override;

private:
    X11Display& m_display;
};

} // namespace nd_linux

#pragma once

// Background keys on X11 (core/backend/window_keys.h): each key a KeyPress and a KeyRelease sent to
// the window with SendEvent (KeyPressMask, KeyReleaseMask; not propagated), the modifiers in their
// state field, keycodes from the server's keyboard mapping. Nothing is pressed on the keyboard,
// so the person's typing and focus are untouched. Apps see the events' send_event flag; those that
// read keys through XInput 2 (GTK, Chromium) or refuse sent events (xterm) drop them, which is why
// the desk sends them only to the toolkits measured to take them.

#include "backend/linux/x11/x11_display.h"
#include "core/backend/window_keys.h"

namespace nd_linux {

class X11WindowKeys final : public nd_core::WindowKeys {
public:
    explicit X11WindowKeys(X11Display& display) : m_display(display) {}
    nd_core::Result<void> send_keys(const nd_core::WindowInfo&, const std::vector<std::string>& keysyms) override;

private:
    X11Display& m_display;
};

} // namespace nd_linux

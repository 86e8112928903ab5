#pragma once

// Button clicks on an approval surface, read through XInput 2 rather than as core events: an XI2
// event names the physical (slave) device it came from as its sourceid, which a core event does
// not, and a GenericEvent cannot be forged with SendEvent (it does not fit SendEvent's 32 bytes).

#include "backend/linux/x11/x11_display.h"

#include <cstdint>
#include <optional>

namespace nd_linux {

struct XiButton {
    bool press = false;
    std::uint32_t button = 0;
    std::uint16_t device = 0; // the master
    std::uint16_t source = 0; // the device that made it
    xcb_window_t window = XCB_WINDOW_NONE;
    std::int32_t x = 0, y = 0; // in the window's coordinates
    bool sent = false;         // the SendEvent bit (never set on a GenericEvent; checked anyway)
};

// Selects XI2 button presses and releases of every master device on `window` (no round trip; the
// connection must have announced XI 2.x, which X11Display::open does). Core button events are not
// selected on it then: a click is read once, with its device.
void select_xi_buttons(X11Display&, xcb_window_t window);

// The XI2 button event in `event`, if it is one (XI2 extension opcode `xi_opcode`).
std::optional<XiButton> xi_button(const xcb_generic_event_t& event, std::uint8_t xi_opcode);

// The XInput extension's major opcode on this connection; 0 when the server has none.
std::uint8_t xi_opcode(X11Display&);

} // namespace nd_linux

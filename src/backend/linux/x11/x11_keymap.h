#pragma once

// The server's core keyboard mapping (GetKeyboardMapping), for finding the key that produces a
// keysym. Only the first group is used: column 0 is the key alone, column 1 the key with Shift
// (X11 Protocol §12, "Keyboards"). A keycode without any keysym is a spare one: the synthetic input
// borrows it for a character no key produces, and gives it back afterwards.

#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_keysyms.h"

#include <optional>
#include <vector>

namespace nd_linux {

struct KeyStroke {
    xcb_keycode_t keycode = 0;
    bool shift = false;
};

class X11Keymap {
public:
    // Reads the whole mapping in one round trip. Errors: timed_out, backend_unavailable.
    static nd_core::Result<X11Keymap> load(X11Display&, Deadline);

    // The key (and whether it needs Shift) that produces `keysym`; an unshifted match wins.
    std::optional<KeyStroke> find(Keysym) const;
    // The highest keycode with no keysym at all, if any.
    std::optional<xcb_keycode_t> spare_keycode() const;
    // The keysyms of one keycode (keysyms_per_keycode of them), for restoring a borrowed key.
    std::vector<Keysym> keysyms_of(xcb_keycode_t) const;
    std::uint8_t keysyms_per_keycode() const { return m_per_keycode; }

private:
    xcb_keycode_t m_min = 0;
    std::uint8_t m_per_keycode = 0;
    std::vector<Keysym> m_keysyms; // (keycode - m_min) * m_per_keycode + column
};

} // namespace nd_linux

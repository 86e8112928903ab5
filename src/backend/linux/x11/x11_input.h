#pragma once

// Takeover input on X11 through XTEST (§4.2). The pointer moves by fake motion in root coordinates,
// never by WarpPointer, so the move looks like a device's to the XInput 2 watcher and to apps;
// buttons and wheel notches are fake button events (4/5 vertical, 6/7 horizontal); keys are found
// by keysym in the server's keyboard mapping, with Shift when the keysym sits in the shifted
// column. A character no key produces is typed on a spare keycode that is mapped to it for that
// character only and then given back its old (empty) mapping.
//
// Every key and button this object presses is remembered until it is released, and release_all()
// lets go of all of them: the path the kill switch and the hand-back take (§4.3), so it keeps
// going after an error and waits on the server for at most RELEASE_TIMEOUT. The middle button is
// refused: the contract allows no middle-click paste.
//
// Uses the shared X11Display, which is not thread-safe: an internal mutex serialises this object's
// calls (release_all may come from the kill switch's thread), and the lead's backend must not use
// the display from another thread at the same time.

#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_keymap.h"
#include "backend/linux/x11/x11_press_clock.h"
#include "core/backend/synthetic_input.h"

#include <map>
#include <mutex>
#include <optional>
#include <set>

namespace nd_linux {

class X11Input final : public nd_core::SyntheticInput {
public:
    static constexpr std::chrono::milliseconds RELEASE_TIMEOUT{300};
    // How long a borrowed keycode keeps its temporary keysym after the character was typed. Clients
    // that read ahead (Xlib, GDK) apply a mapping change as soon as it arrives, before handling the
    // key events queued ahead of it; giving the key back at once could make them read the press
    // with the old (empty) mapping.
    static constexpr std::chrono::milliseconds REMAP_SETTLE{100};
    // How long raise_window waits for the window manager to make the window active.
    static constexpr std::chrono::milliseconds RAISE_TIMEOUT{1000};
    static constexpr std::chrono::milliseconds RAISE_RESEND{100};

    // Needs XTEST (X11Extensions::xtest); the caller checks that before offering takeover.
    X11Input(X11Display&, PressClock&);
    ~X11Input() override;
    X11Input(const X11Input&) = delete;
    X11Input& operator=(const X11Input&) = delete;

    nd_core::Result<void> move_pointer(nd_core::Point) override;
    nd_core::Result<void> button(nd_core::MouseButton, bool press) override;
    nd_core::Result<void> key(std::string_view keysym, bool press) override;
    nd_core::Result<void> type_char(char32_t) override;
    nd_core::Result<void> scroll(std::int32_t dx, std::int32_t dy) override;
    nd_core::Result<void> raise_window(const nd_core::WindowInfo&) override;
    nd_core::Result<nd_core::Point> pointer_position() override;

    // Releases every key and button still held and gives back a borrowed keycode. Sends everything
    // it can even when a step fails; the first error is returned for the log.
    nd_core::Result<void> release_all();

    // Tests: keys and buttons held now, and the settle time of a borrowed keycode.
    std::size_t held_count() const;
    void set_remap_settle(std::chrono::milliseconds settle) { m_remap_settle = settle; }

private:
    using Point = nd_core::Point;
    struct HeldKey {
        xcb_keycode_t shift = 0; // the Shift this object pressed for it, if any
    };

    xcb_void_cookie_t fake(std::uint8_t type, std::uint8_t detail, Point at = {});
    nd_core::Result<void> confirm(std::initializer_list<xcb_void_cookie_t>, Deadline);
    nd_core::Result<void> send_button(std::uint8_t button, bool press, Deadline);
    nd_core::Result<const X11Keymap*> keymap(Deadline);
    nd_core::Result<void> tap(KeyStroke, Deadline);
    nd_core::Result<void> type_borrowed(Keysym, Deadline);
    nd_core::Result<void> give_back(Deadline);
    nd_core::Result<void> release_locked();

    X11Display& m_display;
    PressClock& m_clock;
    mutable std::mutex m_mutex;
    std::optional<X11Keymap> m_keymap;
    Clock::time_point m_keymap_read{};
    std::map<xcb_keycode_t, HeldKey> m_held_keys;
    std::set<std::uint8_t> m_held_buttons;
    std::optional<xcb_keycode_t> m_borrowed; // a spare keycode mapped to a typed character
    std::chrono::milliseconds m_remap_settle = REMAP_SETTLE;
};

} // namespace nd_linux

#pragma once

// The windows of the takeover indicator (§4.2, §4.3) on one X connection: four thin override-redirect
// windows forming a red frame round the screen, a label under the top edge and, while paused, a
// Continue button under the label.
//
// Every window but the button has an empty input shape (SHAPE, ShapeInput with no rectangles), so
// clicks fall through to the app below. Every window carries the own-surface mark (x11_own_marker.h)
// so that no input of ours lands on it; the button's clicks are read through XInput 2. Override-redirect keeps them out of the window manager's
// client lists, so the driver never lists them as app windows nor hit-tests against them. Text is
// drawn with a core X font ("fixed" is built into every server): two short fixed strings do not need
// pango, whose fontconfig caches live as long as the process and are reported by LeakSanitizer.
//
// Not thread-safe: X11Overlay calls it under its own mutex only.

#include "backend/linux/x11/x11_display.h"

#include <array>
#include <string_view>
#include <vector>

namespace nd_linux {

class OverlayWindows {
public:
    static constexpr std::uint16_t FRAME_WIDTH = 6;

    explicit OverlayWindows(X11Display& display) : m_display(display) {}
    OverlayWindows(const OverlayWindows&) = delete;
    OverlayWindows& operator=(const OverlayWindows&) = delete;

    // Creates, shapes and maps every window and checks that the server shows them before `deadline`.
    // Errors: backend_unavailable (no SHAPE, a window refused or not mapped) and timed_out; nothing
    // is left on screen after an error.
    nd_core::Result<void> create(bool paused, Deadline deadline);
    // Destroys every window (without waiting: the caller makes the round trip).
    void destroy();
    // Relabels the indicator, dims or brightens the frame and adds or removes the button. The
    // button's errors come back asynchronously; a button that the server refused is simply absent.
    void set_paused(bool paused);
    // Puts every window back on top of the stack.
    void raise();
    // Repaints a window's text after an Expose (the windows keep no backing store).
    void redraw(xcb_window_t window);

    bool shown() const { return m_frame[0] != XCB_WINDOW_NONE; }
    bool owns(xcb_window_t window) const;
    xcb_window_t button() const { return m_button; }
    std::uint16_t button_width() const { return m_button_w; }
    std::uint16_t button_height() const { return m_button_h; }
    // Frame, label and (while paused) button, for tests and for the lost-window check.
    std::vector<xcb_window_t> windows() const;

private:
    struct Colours {
        std::uint32_t frame = 0, frame_dim = 0, label = 0, label_dim = 0, text = 0, button = 0, button_text = 0;
    };
    nd_core::Result<void> prepare(Deadline deadline);
    xcb_window_t make_window(std::int16_t x, std::int16_t y, std::uint16_t w, std::uint16_t h, std::uint32_t back,
        bool takes_input, std::string_view name, std::vector<xcb_void_cookie_t>& cookies);
    void place_label();
    void make_button(std::vector<xcb_void_cookie_t>& cookies);
    void draw_text(xcb_window_t window, std::string_view latin1, std::uint32_t fg, std::uint32_t bg);
    std::uint16_t text_width(std::string_view latin1) const;

    X11Display& m_display;
    bool m_prepared = false;
    Colours m_colours;
    xcb_font_t m_font = 0;
    xcb_atom_t m_own_atom = XCB_ATOM_NONE; // _NISH_SURFACE (x11_own_marker.h)
    xcb_gcontext_t m_gc = 0;
    std::uint16_t m_char_width = 6, m_ascent = 10, m_descent = 3;

    bool m_paused = false;
    std::array<xcb_window_t, 4> m_frame{};
    xcb_window_t m_label = XCB_WINDOW_NONE;
    xcb_window_t m_button = XCB_WINDOW_NONE;
    std::uint16_t m_label_h = 0, m_button_w = 0, m_button_h = 0;
};

} // namespace nd_linux

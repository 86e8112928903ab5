#pragma once

// A window's own pixels on X11, never those of windows stacked on top of it (the takeover indicator,
// the consent dialog, another app).
//
// With Composite, construction asks the server to redirect every top-level window automatically
// (RedirectSubwindows of the root, Automatic mode: the server still paints the screen itself, nothing
// changes for the person). Each top-level window then has an offscreen pixmap holding all of its
// contents; a capture names the pixmap of the window's top-level ancestor (the window manager's frame)
// and reads the client window's rectangle out of it. Without Composite it reads the client window
// itself, which shows whatever covers it. Pixels come over MIT-SHM when the display is local and the
// server can attach our memory, else over the socket (GetImage). docs/linux-x11.md explains the rest.
//
// Owns: the redirect (held by the display connection, so it ends with it) and one shared memory
// segment. Borrows the display, which must outlive it.

#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_shm.h"
#include "core/backend/capture.h"

#include <optional>

namespace nd_linux {

// The largest window capture_window reads, per side.
inline constexpr std::uint32_t MAX_CAPTURE_SIDE = 8192;

class X11Capture final : public nd_core::Capture {
public:
    // `redirect`: whether to redirect the top-level windows (for capture_window); a capture of the
    // screen alone needs none.
    explicit X11Capture(X11Display& display, bool redirect = true);

    // Errors: window_target_not_found (no such window, or it is not mapped), unsupported (larger
    // than 8192x8192, or a pixel format other than 32-bit), timed_out, backend_unavailable.
    nd_core::Result<nd_core::Image> capture_window(const nd_core::WindowInfo& window) override;

    // The screen as the person sees it (the root window, every window on it), in the rectangle
    // clipped to the screen; over MIT-SHM where it can. Errors: invalid_arguments (an empty
    // rectangle after clipping), timed_out, backend_unavailable.
    nd_core::Result<nd_core::Image> capture_screen(std::int32_t x, std::int32_t y, std::int32_t w, std::int32_t h);

    // Whether the last capture came through Composite and MIT-SHM (for the doctor and tests).
    bool used_composite() const { return m_used_composite; }
    bool used_shm() const { return m_used_shm; }

private:
    // A rectangle of pixels; parts of two are Frame::shared, in 64 bits (a rectangle asked far off
    // the screen does not overflow).
    using Rect = nd_core::Frame;
    // What to read: the window's rectangle inside a drawable (the top-level's pixmap, or the window).
    struct Region {
        xcb_window_t window = XCB_WINDOW_NONE; // for messages
        xcb_drawable_t drawable = XCB_NONE;
        std::int32_t x = 0, y = 0; // of the window's first pixel inside the drawable
        std::uint32_t width = 0, height = 0;
        std::uint8_t depth = 0;
        xcb_visualid_t visual = 0;
    };
    struct Located;

    // Learns (once) whether the redirect sent by the constructor took.
    void check_redirect();
    nd_core::Result<Located> locate(xcb_window_t window);
    // nullopt when the top-level turns out not to be redirected (then the window is read directly).
    nd_core::Result<std::optional<nd_core::Image>> read_composited(const Located& located);
    // Reads the part of `region` inside `bounds` (the drawable's readable area); the rest stays black.
    nd_core::Result<nd_core::Image> read_region(const Region& region, Rect bounds);
    nd_core::Result<nd_core::Image> read_pixels(const Region& region, Rect part);
    nd_core::Result<void> settle_after_redirect(const Region& region, Rect bounds, nd_core::Image& image);

    X11Display& m_display;
    ShmSegment m_shm;
    bool m_shm_usable = true;
    xcb_void_cookie_t m_redirect_cookie{};
    bool m_redirect_checked = false;
    bool m_redirected = false;
    Clock::time_point m_redirected_at{};
    bool m_used_composite = false;
    bool m_used_shm = false;
};

} // namespace nd_linux

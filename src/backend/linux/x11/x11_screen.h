#pragma once

// The whole screen on X11, for the desk (core/backend/screen.h): the root's size, captures of it
// through X11Capture (MIT-SHM where it can), and a fingerprint of the managed windows that costs two
// pipelined rounds: the stacking list and the active window, then each window's geometry and name.
// Borrows the display and the capture; not thread-safe (the desk serialises backend calls). When
// the capture has a display connection of its own (linux_backend.cpp opens one), captures may run
// beside the other parts' calls.

#include "backend/linux/x11/x11_capture.h"
#include "backend/linux/x11/x11_display.h"
#include "core/backend/screen.h"

namespace nd_linux {

class X11Screen final : public nd_core::Screen {
public:
    X11Screen(X11Display& display, X11Capture& capture, bool capture_apart = false)
        : m_display(display), m_capture(capture), m_capture_apart(capture_apart)
    {
    }

    nd_core::Result<nd_core::ScreenSize> size() override;
    nd_core::Result<nd_core::Image> capture(std::int32_t x, std::int32_t y, std::int32_t w, std::int32_t h) override;
    nd_core::Result<std::uint64_t> window_fingerprint() override;
    bool captures_apart() const override { return m_capture_apart; }

private:
    X11Display& m_display;
    X11Capture& m_capture;
    bool m_capture_apart = false;
};

} // namespace nd_linux

#pragma once

// What the window system tells a warm read of a window's pixels (atspi_warm.h, "Frames kept"):
// the last moment anything was drawn in the window, it moved, or it could not be watched whole.
// A window in which nothing was announced and nothing was drawn since its frames were read, a
// while after its last drawing, has the frames it had: Chromium announces no scroll and no layout
// move, and every such move redraws what shows. Linux: X11's DAMAGE extension (x11_paint_watch.h).

#include <chrono>
#include <cstdint>
#include <optional>

namespace nd_linux {

class PaintWatch {
public:
    using Clock = std::chrono::steady_clock;
    virtual ~PaintWatch() = default;
    // The last time `window_id` was drawn into or moved, as of now; now itself when it cannot be
    // watched whole (not mapped, partly covered by another window or off the screen, holding
    // windows of its own) or was not watched before this call. Nothing when the window system
    // cannot tell (no such window, no DAMAGE, a dead connection, past the deadline).
    virtual std::optional<Clock::time_point> last_change(std::int64_t window_id, Clock::time_point deadline) = 0;
    // Stops watching `window_id`.
    virtual void forget(std::int64_t window_id) = 0;
};

} // namespace nd_linux

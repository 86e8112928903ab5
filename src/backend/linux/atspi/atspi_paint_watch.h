#pragma once

// What the window system tells a warm read of a window's pixels (atspi_warm.h, "Frames kept"):
// where the window was drawn in since a moment, where it cannot be watched now, or that anything
// may have changed. A row whose place was not drawn over since its frame was read, a while after
// the last drawing there, has the frame it had: Chromium announces no scroll and no layout move,
// and every such move redraws what shows. Linux: X11's DAMAGE extension (x11_paint_watch.h).

#include "core/model/element.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace nd_linux {

// What a window's pixels did since a moment.
struct PaintNews {
    // Anything may have changed: the window was not watched then, moved, changed size, was not
    // mapped, holds windows of its own, or the windows above it changed.
    bool anything = false;
    // Otherwise, in screen coordinates: the parts drawn in since then, and the parts that cannot
    // be watched now (covered by a window above it, or off the screen). A row elsewhere did not
    // move.
    std::vector<nd_core::Frame> parts;
};

class PaintWatch {
public:
    using Clock = std::chrono::steady_clock;
    virtual ~PaintWatch() = default;
    // What `window_id`'s pixels did since `since`, as of now; a window not watched before is
    // watched from this call (anything changed). Nothing when the window system cannot tell (no
    // such window, no DAMAGE, a dead connection, past the deadline).
    virtual std::optional<PaintNews> news(std::int64_t window_id, Clock::time_point since,
                                          Clock::time_point deadline) = 0;
    // Stops watching `window_id`.
    virtual void forget(std::int64_t window_id) = 0;
};

} // namespace nd_linux

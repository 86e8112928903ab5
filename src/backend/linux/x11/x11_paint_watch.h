#pragma once

// PaintWatch (atspi_paint_watch.h) over X11's DAMAGE extension, on a connection of its own (its
// events are its alone). A window is watched from its first ask: a damage object that reports when
// anything is drawn in it, so that a warm read of a window that drew nothing keeps its frames.
//
// Drawing is reported only where the window shows: a part covered by another window or off the
// screen is not drawn into, and a part that comes back into view is drawn then. So a window counts
// as changed now whenever, at the ask, it is not mapped, lies partly off the screen, is overlapped
// by any window mapped above it (its window manager's frame aside), holds mapped windows of its own
// (an app drawing in a child window: Chromium with a GPU), or moved or changed size since the last
// ask. Each ask costs one round trip to the server while the windows above and inside it stay the
// same (two or three when they change), and no call to the app.

#include "backend/linux/atspi/atspi_paint_watch.h"
#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_window_place.h"
#include "core/model/element.h"

#include <xcb/damage.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace nd_linux {

class X11PaintWatch final : public PaintWatch {
public:
    // Null when the display cannot be opened or has no DAMAGE 1.1.
    static std::unique_ptr<X11PaintWatch> open(const std::string& display_name);
    ~X11PaintWatch() override;

    std::optional<Clock::time_point> last_change(std::int64_t window_id, Clock::time_point deadline) override;
    void forget(std::int64_t window_id) override;

    static constexpr std::size_t MAX_WATCHED = 64;

private:
    explicit X11PaintWatch(std::unique_ptr<X11Display>, std::uint8_t first_event);
    struct Watched {
        xcb_damage_damage_t damage = 0;
        Clock::time_point last;    // the last drawing, move or ask it could not be watched whole
        Clock::time_point used;
        nd_core::Frame frame;      // where it was at the last ask, in root coordinates
        xcb_window_t top = 0;      // its ancestor that is a child of the root (its window manager's frame)
        std::vector<xcb_window_t> others; // at the last ask: the windows above `top`, then its own children
        std::size_t above = 0;            // how many of `others` are above it
    };
    // Takes the damage reports queued so far: each marks its window changed now and is subtracted
    // (the next drawing reports again).
    void drain();
    // Whether the window shows whole and alone, as asked now; false when it cannot be told.
    bool shows_whole(xcb_window_t, Watched&, Deadline);
    // Takes the places of `w.others` (asked in `batch`): whether any is mapped and draws over the
    // window (above it and overlapping, or inside it). False when the batch failed.
    bool others_overlap(const Watched& w, ReplyBatch& batch, const std::vector<PlaceCookies>& cookies, bool& overlapped);
    void stop(std::unordered_map<xcb_window_t, Watched>::iterator);

    std::unique_ptr<X11Display> m_x;
    std::uint8_t m_first_event = 0;
    std::unordered_map<xcb_window_t, Watched> m_watched;
};

} // namespace nd_linux

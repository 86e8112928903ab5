#pragma once

// PaintWatch (atspi_paint_watch.h) over X11's DAMAGE extension, on a connection of its own (its
// events are its alone). A window is watched from its first ask: a damage object that reports when
// anything is drawn in it; at each ask the parts drawn since the last one are fetched (one XFixes
// region a window) and kept, each stamped with that ask's time, so that a warm read asks again only
// the frames of rows drawn over.
//
// Drawing is reported only where the window shows: a part covered by another window or off the
// screen is not drawn into, and a part that comes back into view is drawn then. So such parts are
// reported at every ask as parts that cannot be watched, and anything counts as changed whenever,
// at the ask, the window is not mapped, holds mapped windows of its own (an app drawing in a child
// window: Chromium with a GPU), moved or changed size, or the parts covered by the windows above it
// (its window manager's frame aside) are not those of the last ask. Each ask costs one round trip
// to the server (the parts drawn fetched in it) while the windows above and inside it stay the
// same (two or three when they change), and no call to the app.

#include "backend/linux/atspi/atspi_paint_watch.h"
#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_window_place.h"
#include "core/model/element.h"

#include <xcb/damage.h>
#include <xcb/xfixes.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace nd_linux {

class X11PaintWatch final : public PaintWatch {
public:
    // Null when the display cannot be opened or has no DAMAGE 1.1 (with XFixes 2.0 regions).
    static std::unique_ptr<X11PaintWatch> open(const std::string& display_name);
    ~X11PaintWatch() override;

    std::optional<PaintNews> news(std::int64_t window_id, Clock::time_point since, Clock::time_point deadline) override;
    void forget(std::int64_t window_id) override;

    static constexpr std::size_t MAX_WATCHED = 64;
    // Parts drawn kept a window: more are merged into the one that holds them all (Chromium draws
    // in tiles; an app that animates draws the same parts again, which count once).
    static constexpr std::size_t MAX_PARTS = 64;
    // Parts drawn longer ago than this are forgotten: anything counts as changed before then.
    static constexpr auto MAX_PART_AGE = std::chrono::seconds(60);

private:
    explicit X11PaintWatch(std::unique_ptr<X11Display>);
    struct Drawn {
        nd_core::Frame part;       // in the window's coordinates
        Clock::time_point at;      // the last ask that found it drawn
    };
    struct Watched {
        xcb_damage_damage_t damage = 0;
        xcb_xfixes_region_t parts = 0;  // the damage so far is moved here at each ask, and fetched
        bool lost = false;              // the damage object is gone: its window was destroyed
        Clock::time_point anything;     // the last ask at which anything may have changed
        Clock::time_point used;
        nd_core::Frame frame;           // where it was at the last ask, in root coordinates
        xcb_window_t top = 0;           // its ancestor that is a child of the root (its window manager's frame)
        std::vector<xcb_window_t> others; // at the last ask: the windows above `top`, then its own children
        std::size_t above = 0;            // how many of `others` are above it
        std::vector<nd_core::Frame> hidden; // at the last ask: its parts covered or off the screen (root coordinates)
        std::vector<Drawn> drawn;
    };
    // Drops the damage reports queued so far: they say only that something was drawn.
    void drain();
    void keep_drawn(Watched&, const xcb_rectangle_t*, int count, Clock::time_point now);
    // Asks where the window is and what lies above and inside it, and takes what was drawn so far.
    // False when anything may have changed (see above) or it cannot be told; `w.lost` when the
    // damage object went with its window (whose id a new window may take: it is watched anew).
    bool look(xcb_window_t, Watched&, Deadline);
    // Takes the places of `w.others` (asked in `batch`) into the parts they cover; `inside` is set
    // when one of its own windows is mapped. False when the batch failed.
    bool covered_parts(const Watched& w, ReplyBatch& batch, const std::vector<PlaceCookies>& cookies,
                       std::vector<nd_core::Frame>& hidden, bool& inside);
    void stop(std::unordered_map<xcb_window_t, Watched>::iterator);

    std::unique_ptr<X11Display> m_x;
    std::unordered_map<xcb_window_t, Watched> m_watched;
};

} // namespace nd_linux

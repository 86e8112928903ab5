#include "desk/desk_settle.h"

#include "desk/desk.h"
#include "desk/desk_shot.h"
#include "desk/still_detector.h"

#include <algorithm>

namespace nd_desk {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

// Between two captures: short enough that hold_ms is met closely, long enough to leave the X server
// and the apps room to draw.
std::chrono::milliseconds poll_interval(std::int64_t hold_ms)
{
    return std::chrono::milliseconds(std::clamp<std::int64_t>(hold_ms / 4, 5, 25));
}

nd_core::Result<nd_core::Image> small_capture(Desk& desk, nd_core::Screen& screen)
{
    nd_core::ScreenSize size;
    {
        auto lock = desk.lock_backend();
        size = TRY(screen.size());
    }
    // Scaling needs no backend, so it runs outside the lock.
    return scale_to_long_edge(TRY(capture_screen(desk, {0, 0, size.width, size.height})));
}

} // namespace

void reach_app(Desk& desk, const nd_core::WindowInfo& window)
{
    auto lock = desk.lock_backend();
    if (auto* trees = desk.backend().trees())
        (void)trees->sync_app(window, std::chrono::milliseconds(REACH_APP_MS));
}

nd_core::Result<Settled> wait_still(Desk& desk, const CallScope& scope, std::int64_t hold_ms, std::int64_t timeout_ms,
    std::string_view what)
{
    auto* screen = desk.backend().screen();
    if (!screen)
        return make_error(ErrorCode::unsupported, "this desk has no screen to watch");
    const auto stopped = [&] { return make_error(ErrorCode::stopped_by_kill_switch, std::string(what) + " was stopped"); };
    const auto start = desk.now_ms();
    StillDetector detector;
    (void)detector.feed(TRY(small_capture(desk, *screen)));
    auto last_counted = desk.now_ms();
    Settled out;
    for (;;) {
        const auto now = desk.now_ms();
        if (now - last_counted >= hold_ms && now > start) {
            out.still = true;
            break;
        }
        if (now - start >= timeout_ms)
            break;
        if (!scope.stop.sleep_for(poll_interval(hold_ms)))
            return stopped();
        auto step = detector.feed(TRY(small_capture(desk, *screen)));
        if (scope.stop.stopped())
            return stopped();
        if (step.changed_blocks > 0)
            last_counted = desk.now_ms();
    }
    out.changed = detector.changed();
    out.ms = desk.now_ms() - start;
    out.volatile_blocks = detector.volatile_blocks();
    return out;
}

} // namespace nd_desk

#include "desk/desk.h"
#include "desk/still_detector.h"
#include "desk/verbs/act_verb_list.h"

#include <algorithm>

namespace nd_desk::verbs {

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
    nd_core::Image full;
    {
        auto lock = desk.lock_backend();
        const auto size = TRY(screen.size());
        full = TRY(screen.capture(0, 0, size.width, size.height));
    }
    // Scaling needs no backend, so it runs outside the lock.
    return scale_to_long_edge(full);
}

} // namespace

VerbDef still()
{
    return {
        .decl = {
            .name = "desk_still",
            .description = "Waits until the screen holds still for hold_ms (still: true), or timeout_ms passes (still: "
                           "false). Clocks, spinners and blinking carets do not count as change.",
            .args = {{"timeout_ms", ArgType::integer, "the polling deadline, default 600, at most 5000", false, {}, 0, 5000},
                {"hold_ms", ArgType::integer, "how long no counted change must last, default 40", false, {}, 0, 5000}},
            .details = "It answers once no 8-pixel block of a 320-pixel capture has changed in a way that counts for "
                       "hold_ms. A block that goes through three or more contents (a clock, a spinner) is volatile and "
                       "stops counting; one that goes back to a content it showed (a caret) counts only with new "
                       "contents.",
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto timeout_ms = arg_int(args, "timeout_ms").value_or(600);
            const auto hold_ms = arg_int(args, "hold_ms").value_or(40);
            auto* screen = desk.backend().screen();
            if (!screen)
                return make_error(ErrorCode::unsupported, "this desk has no screen to watch");
            const auto stopped = [] { return make_error(ErrorCode::stopped_by_kill_switch, "desk_still was stopped"); };
            const auto start = desk.now_ms();
            StillDetector detector;
            (void)detector.feed(TRY(small_capture(desk, *screen)));
            auto last_counted = desk.now_ms();
            bool still = false;
            for (;;) {
                const auto now = desk.now_ms();
                if (now - last_counted >= hold_ms && now > start) {
                    still = true;
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
            return VerbReply{{{"still", still}, {"changed", detector.changed()}, {"ms", desk.now_ms() - start},
                                 {"volatile", detector.volatile_blocks()}},
                std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs

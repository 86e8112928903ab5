#include "desk/desk.h"
#include "desk/desk_read_json.h"
#include "desk/desk_read_parts.h"
#include "desk/verbs/read_verb_list.h"

namespace nd_desk::verbs {

namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// How long the answer waits to see the window go; an app that asks first (unsaved changes) keeps
// it, and the answer says so with closed: false.
constexpr milliseconds CLOSE_WATCH{1500};
constexpr milliseconds POLL_EVERY{50};

} // namespace

VerbDef close()
{
    return {
        .decl = {
            .name = "desk_close",
            .description = "Asks a window to close, as its close button does. closed says whether it went within 1.5 s; "
                           "false means it is still open, often asking to save or confirm: read it with desk_snapshot.",
            .args = {{"window", ArgType::string, "the window's title, or a part of it only one window has", true},
                {"pid", ArgType::integer, "the window's process, when titles repeat"}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            auto window = TRY(desk.pick_window(args));
            {
                auto lock = desk.lock_backend();
                auto* control = window_control(desk);
                if (!control)
                    return nd_core::make_error(nd_core::ErrorCode::unsupported, "this desk cannot ask a window manager to close");
                TRY_VOID(control->request_close(window));
            }
            const auto deadline = Clock::now() + CLOSE_WATCH;
            bool gone = false;
            while (!gone) {
                auto all = TRY(desk.all_windows());
                gone = std::none_of(all.begin(), all.end(), [&](const auto& w) { return w.window_id == window.window_id; });
                if (gone || Clock::now() >= deadline)
                    break;
                if (!scope.stop.sleep_for(POLL_EVERY))
                    return nd_core::make_error(nd_core::ErrorCode::stopped_by_kill_switch, "close was stopped");
            }
            if (gone) {
                auto lock = desk.lock_backend();
                desk.snapshots().forget_window(window.window_id);
            }
            return VerbReply{{{"closed", gone}, {"window", window_brief(window)}}, std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs

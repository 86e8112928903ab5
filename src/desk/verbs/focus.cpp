#include "desk/desk.h"
#include "desk/desk_read_json.h"
#include "desk/desk_read_parts.h"
#include "desk/verbs/read_verb_list.h"

namespace nd_desk::verbs {

namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

constexpr milliseconds FOCUS_TIMEOUT{2000};
constexpr milliseconds POLL_EVERY{10};
// A window manager drops the request for a window it has not finished managing (just mapped).
constexpr milliseconds RESEND_EVERY{250};

} // namespace

VerbDef focus()
{
    return {
        .decl = {
            .name = "desk_focus",
            .description = "Brings a window to the front and gives it the keyboard focus (through the window manager, "
                           "as a taskbar does), and answers once the window manager names it active.",
            .args = {{"window", ArgType::string, "the window's title, or a part of it only one window has", true},
                {"pid", ArgType::integer, "the window's process, when titles repeat"}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            auto window = TRY(desk.pick_window(args));
            nd_core::WindowControl* control = nullptr;
            {
                auto lock = desk.lock_backend();
                control = window_control(desk);
                if (!control)
                    return nd_core::make_error(nd_core::ErrorCode::unsupported, "this desk cannot ask a window manager to focus");
                TRY_VOID(control->request_activate(window));
            }
            const auto deadline = Clock::now() + FOCUS_TIMEOUT;
            auto next_send = Clock::now() + RESEND_EVERY;
            for (;;) {
                {
                    auto lock = desk.lock_backend();
                    if (TRY(control->active_window()) == window.window_id)
                        return VerbReply{{{"focused", true}, {"window", window_brief(window)}}, std::nullopt};
                    if (Clock::now() >= next_send) {
                        TRY_VOID(control->request_activate(window));
                        next_send = Clock::now() + RESEND_EVERY;
                    }
                }
                if (Clock::now() >= deadline)
                    return nd_core::make_error(nd_core::ErrorCode::focus_changed,
                        "the window manager did not make \"" + window.title +
                            "\" active within 2 s: check with desk_windows whether it is still open, or whether a modal dialog blocks it");
                if (!scope.stop.sleep_for(POLL_EVERY))
                    return nd_core::make_error(nd_core::ErrorCode::stopped_by_kill_switch, "focus was stopped");
            }
        },
    };
}

} // namespace nd_desk::verbs

#include "desk/desk.h"
#include "desk/desk_settle.h"
#include "desk/verbs/act_verb_list.h"

namespace nd_desk::verbs {

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
            const auto settled = TRY(wait_still(desk, scope, hold_ms, timeout_ms, "desk_still"));
            return VerbReply{{{"still", settled.still}, {"changed", settled.changed}, {"ms", settled.ms},
                                 {"volatile", settled.volatile_blocks}},
                std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs

#include "desk/desk.h"
#include "desk/verbs/vision_verb_list.h"
#include "desk/vision/vision_state.h"

namespace nd_desk::verbs {

VerbDef computer_state()
{
    return {
        .decl = {
            .name = "desk_computer_state",
            .description = "For a vision agent: the windows frontmost first (geometry in screenshot pixels), modal dialogs "
                           "the screen does not show, the elements [index, role, name, x, y, states?] of the frontmost app "
                           "window "
                           "(or of pid / window_id) with centres in screenshot pixels (at most 300; query filters them by "
                           "name or role), and a JPEG screenshot of the whole screen scaled to max_edge. Password fields "
                           "are blacked out. Refused with an app allowlist.",
            .args = {session_arg(), {"pid", ArgType::integer, "list the elements of this process's frontmost window"},
                {"window_id", ArgType::integer, "list the elements of this window (an id of the windows list)"},
                {"query", ArgType::string, "keep the elements whose name or role contains this, without case", false, {},
                    std::nullopt, std::nullopt, false, 256},
                max_edge_arg(), workspace_only_arg()},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            TRY_VOID(vision_allowed(desk, "computer_state"));
            const auto session = TRY(vision_session_name(desk, scope, args));
            StateRequest req;
            req.pid = arg_int(args, "pid");
            req.window_id = arg_int(args, "window_id");
            req.query = arg_string(args, "query");
            req.max_edge = max_edge_of(args);
            return nd_desk::computer_state(desk, session, req);
        },
    };
}

} // namespace nd_desk::verbs

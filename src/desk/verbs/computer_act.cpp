#include "desk/desk.h"
#include "desk/verbs/vision_verb_list.h"
#include "desk/vision/vision_act.h"
#include "desk/vision/vision_state.h"

namespace nd_desk::verbs {

VerbDef computer_act()
{
    std::vector<std::string> actions = act_action_names();
    return {
        .decl = {
            .name = "desk_computer_act",
            .description = "For a vision agent: one action, or actions (a list of action objects) run in order up to the "
                           "first failure, each waited out until the screen is still. Points are an element [index] of "
                           "computer_state or x, y in screenshot pixels. Answers what each step did, the windows it "
                           "opened, closed or brought to the front, typed N of M for type, and a new JPEG screenshot. "
                           "Refused with an app allowlist.",
            .args = {session_arg(), {"action", ArgType::string, "what to do", false, actions},
                {"element", ArgType::integer, "an [index] of the session's latest computer_state"},
                {"x", ArgType::number, "x in screenshot pixels"}, {"y", ArgType::number, "y in screenshot pixels"},
                {"to_x", ArgType::number, "drag: end x in screenshot pixels"},
                {"to_y", ArgType::number, "drag: end y in screenshot pixels"},
                {"text", ArgType::string, "type: the text"}, {"key", ArgType::string, "key: a key or combination, e.g. ctrl+s"},
                {"keys", ArgType::string_array, "hotkey: the keys held together, e.g. [\"ctrl\", \"s\"]"},
                {"direction", ArgType::string, "scroll: which way (default down)", false, {"up", "down", "left", "right"}},
                {"amount", ArgType::integer, "scroll: notches, default 3", false, {}, 1, 50},
                {"app", ArgType::string, "launch_app: the executable's name"},
                {"button", ArgType::string, "click: left (default) or right", false, {"left", "right"}},
                {"seconds", ArgType::number, "wait: seconds, default 1", false, {}, 0, 30},
                {"foreground", ArgType::boolean, "send the input in the foreground (on X11 it always is)"},
                max_edge_arg(),
                {"scale", ArgType::number, "screen pixels per pixel of the screenshot your x, y are in (default: the session's latest)",
                    false, {}, 0.01, 100},
                {"actions", ArgType::json, "a list of action objects ({action, element or x, y, ...}) instead of action"}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            TRY_VOID(vision_allowed(desk, "computer_act"));
            ActRequest req;
            req.steps = TRY(parse_act_steps(args));
            req.session = TRY(vision_session_name(desk, scope, args));
            req.max_edge = max_edge_of(args);
            req.scale = arg_number(args, "scale");
            return nd_desk::computer_act(desk, scope, req);
        },
    };
}

} // namespace nd_desk::verbs

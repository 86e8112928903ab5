#include "desk/desk.h"
#include "desk/verbs/vision_verb_list.h"
#include "desk/vision/vision_state.h"

namespace nd_desk::verbs {

VerbDef computer_end()
{
    return {
        .decl = {
            .name = "desk_computer_end",
            .description = "Ends a vision session: forgets its elements and screenshot scale, and refuses its name from now "
                           "on. A caller whose default session ended gets a new default on its next call.",
            .args = {{"session", ArgType::string, "the session to end", true, {}, std::nullopt, std::nullopt, false, 128}},
        },
        .handler = [](Desk& desk, const CallScope&, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            TRY_VOID(vision_allowed(desk, "computer_end"));
            const auto name = *arg_string(args, "session");
            if (name.empty())
                return nd_core::make_error(nd_core::ErrorCode::invalid_arguments, "session: name the session to end");
            const bool had = desk.vision_sessions().end(name);
            return VerbReply{{{"ended", name}, {"had_state", had}}, std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs

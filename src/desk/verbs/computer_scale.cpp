#include "desk/desk.h"
#include "desk/verbs/vision_verb_list.h"
#include "desk/vision/vision_shot.h"
#include "desk/vision/vision_state.h"

namespace nd_desk::verbs {

VerbDef computer_scale()
{
    return {
        .decl = {
            .name = "desk_computer_scale",
            .description = "scale: screen pixels per pixel of the session's latest screenshot, else of any session's latest "
                           "(from says which).",
            .args = {session_arg()},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            TRY_VOID(vision_allowed(desk, "computer_scale"));
            const auto name = TRY(vision_session_name(desk, scope, args));
            auto shot = desk.vision_sessions().get(name).shot;
            std::string from = "session";
            if (!shot) {
                shot = desk.vision_sessions().any_shot();
                from = "another session";
            }
            if (!shot)
                return nd_core::make_error(nd_core::ErrorCode::element_not_found,
                    "no screenshot was taken yet, so no scale is known: call computer_state first");
            return VerbReply{{{"scale", round4(shot->scale())}, {"session", name}, {"from", from},
                                 {"screenshot", {shot->width, shot->height}}, {"screen", {shot->screen_width, shot->screen_height}}},
                std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs

#include "desk/desk.h"
#include "desk/desk_background.h"
#include "desk/desk_input.h"
#include "desk/desk_targets.h"
#include "desk/verbs/act_verb_list.h"

namespace nd_desk::verbs {

VerbDef type()
{
    return {
        .decl = {
            .name = "desk_type",
            .description = "Types text into the focused element of the focused window (with window or pid, that window is "
                           "brought to the front first). Refused when the focused element is a password field.",
            .args = {{"text", ArgType::string, "the text, UTF-8", true},
                {"window", ArgType::string, "the window's title, or a part of it only one window has"},
                {"pid", ArgType::integer, "the window's process"},
                {"id", ArgType::string, "the text field's node id"}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto text = *arg_string(args, "text");
            TRY_VOID(check_text_to_type(text));
            auto input = TRY(DeskInput::begin(desk, scope));
            return by_input_mode(
                desk, [&] { return background_type(desk, *input, args, text); },
                [&]() -> nd_core::Result<VerbReply> {
                    const auto target =
                        args.contains("id") ? TRY(focus_field(desk, *input, args)) : TRY(key_target(desk, *input, args));
                    TRY_VOID(refuse_secure_focus(desk, target));
                    std::int64_t typed = 0;
                    TRY_VOID(type_text(desk, *input, target, text, typed));
                    return VerbReply{{{"typed", typed}, {"window", target.title}, {"pid", target.pid}}, std::nullopt};
                });
        },
    };
}

} // namespace nd_desk::verbs

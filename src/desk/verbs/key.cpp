#include "desk/desk.h"
#include "desk/desk_background.h"
#include "desk/desk_input.h"
#include "desk/desk_targets.h"
#include "desk/verbs/act_verb_list.h"

namespace nd_desk::verbs {

VerbDef key()
{
    return {
        .decl = {
            .name = "desk_key",
            .description = "Sends a key combination (\"ctrl+s\", \"ctrl+shift+t\", \"Return\") to the focused window: keys "
                           "pressed in order and released in reverse. With window or pid, that window is brought to the "
                           "front first. A printable key or a paste is refused while a password field has the focus.",
            .args = {{"keys", ArgType::string, "key names joined with '+', e.g. ctrl+s", true},
                {"window", ArgType::string, "the window's title, or a part of it only one window has"},
                {"pid", ArgType::integer, "the window's process"}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto keys = *arg_string(args, "keys");
            const auto keysyms = TRY(parse_key_combination(keys));
            return by_input_mode(
                desk, [&] { return background_key(desk, args, keys, keysyms); },
                [&]() -> nd_core::Result<VerbReply> {
                    auto input = TRY(DeskInput::begin(desk, scope));
                    const auto target = TRY(key_target(desk, *input, args));
                    // A printable key or a paste would put text into a password field as type would.
                    if (keys_make_text(keysyms))
                        TRY_VOID(refuse_secure_focus(desk, target));
                    TRY_VOID(input->press_keys(keysyms));
                    return VerbReply{{{"keys", keys}, {"sent", keysyms}, {"window", target.title}, {"pid", target.pid}}, std::nullopt};
                });
        },
    };
}

} // namespace nd_desk::verbs

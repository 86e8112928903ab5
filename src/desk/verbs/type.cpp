#include "core/encode/utf8.h"
#include "desk/desk.h"
#include "desk/desk_input.h"
#include "desk/desk_targets.h"
#include "desk/verbs/act_verb_list.h"

namespace nd_desk::verbs {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

constexpr std::size_t MAX_TEXT_BYTES = 16384;
// After a Tab or a newline the focus may have moved (to a password field, say): the toolkit moves
// it on its own loop, so the check waits this long before reading it again.
constexpr std::chrono::milliseconds FOCUS_SETTLE{80};

} // namespace

VerbDef type()
{
    return {
        .decl = {
            .name = "desk_type",
            .description = "Types text into the focused element of the focused window (with window or pid, that window is "
                           "brought to the front first). Refused when the focused element is a password field.",
            .args = {{"text", ArgType::string, "the text, UTF-8", true},
                {"window", ArgType::string, "the window's title, or a part of it only one window has"},
                {"pid", ArgType::integer, "the window's process"}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto text = *arg_string(args, "text");
            // Checked whole before the first key: a retry after a half-typed refusal would type twice.
            if (!nd_core::valid_utf8(text))
                return make_error(ErrorCode::invalid_arguments, "text: not valid UTF-8");
            if (text.size() > MAX_TEXT_BYTES)
                return make_error(ErrorCode::invalid_arguments,
                    "text: at most " + std::to_string(MAX_TEXT_BYTES) + " bytes at a time; type the rest in another call");
            auto input = TRY(DeskInput::begin(desk, scope));
            const auto target = TRY(key_target(desk, *input, args));
            TRY_VOID(refuse_secure_focus(desk, target));
            std::int64_t typed = 0;
            auto stopped = [&](nd_core::Error e) {
                e.typed_characters = typed;
                e.message += " (" + std::to_string(typed) + " characters typed)";
                return e;
            };
            bool recheck = false;
            for (std::size_t i = 0; i < text.size();) {
                char32_t cp = 0;
                const auto len = nd_core::utf8_sequence_length(text, i, &cp);
                if (recheck) {
                    if (!input->pause(FOCUS_SETTLE))
                        return stopped(input->check().error());
                    if (auto secure = refuse_secure_focus(desk, target); !secure)
                        return stopped(secure.error());
                    recheck = false;
                }
                if (auto sent = input->type_char(cp); !sent)
                    return stopped(sent.error());
                ++typed;
                recheck = cp == U'\t' || cp == U'\n' || cp == U'\r';
                i += len;
            }
            return VerbReply{{{"typed", typed}, {"window", target.title}, {"pid", target.pid}}, std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs

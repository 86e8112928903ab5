#include "core/model/policy.h"
#include "driver/tools/capability_gate.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args& args)
{
    TRY_VOID(require_capability(env, "clipboard_write"));
    auto* clipboard = env.engine.backend().clipboard();
    if (!clipboard)
        return make_error(ErrorCode::backend_unavailable, "the backend has no clipboard");
    const auto text = args.string("text").value_or("");
    if (nd_core::looks_like_credential(text, true).credential)
        return make_error(ErrorCode::secure_field_refused, "the text looks like a credential");
    TRY_VOID(clipboard->write_text(text));
    const auto length = static_cast<std::int64_t>(text.size());
    env.engine.audit().record({.event = "clipboard.write",
        .session = env.session->id,
        .outcome = nd_core::AuditOutcome::ok(),
        .clipboard_length = length});
    return json_output({{"ok", true}, {"length", length}},
        "clipboard holds " + std::to_string(length) + " bytes of text\n");
}

} // namespace

ToolDef clipboard_write()
{
    return {
        .decl = {
            .name = "clipboard_write",
            .title = "Write the clipboard",
            .description = "Puts text on the clipboard. Credential-looking text is refused.",
            .args = {{.name = "text", .type = ArgType::string, .description = "The text.", .required = true, .strict = true,
                .max_length = 100000}},
            .output_schema =
                [] {
                    return nlohmann::json{{"type", "object"},
                        {"properties", {{"ok", {{"const", true}}}, {"length", {{"type", "integer"}}}}},
                        {"required", {"ok", "length"}}};
                },
        },
        .cls = ToolClass::act,
        .handler = run,
    };
}

} // namespace nd_driver::tools

#include "core/model/policy.h"
#include "driver/tools/capability_gate.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args&)
{
    if (!env.session->clipboard_read)
        return make_error(ErrorCode::capability_not_consented, "clipboard_read was not allowed for this session");
    TRY_VOID(require_capability(env, "clipboard_read"));
    auto* clipboard = env.engine.backend().clipboard();
    if (!clipboard)
        return make_error(ErrorCode::backend_unavailable, "the backend has no clipboard");
    auto text = TRY(clipboard->read_text());
    env.engine.audit().record({.event = "clipboard.read",
        .session = env.session->id,
        .outcome = nd_core::AuditOutcome::ok(),
        .clipboard_length = static_cast<std::int64_t>(text.size())});
    if (nd_core::looks_like_credential(text, true).credential)
        return make_error(ErrorCode::secure_field_refused, "the clipboard holds text that looks like a credential");
    const auto length = static_cast<std::int64_t>(text.size());
    return json_output({{"ok", true}, {"text", text}, {"length", length}}, text);
}

} // namespace

ToolDef clipboard_read()
{
    return {
        .decl = {
            .name = "clipboard_read",
            .title = "Read the clipboard",
            .description = "Reads the clipboard as text. Needs start_session {clipboard_read: true} and the host's "
                           "approval of each read; credential-looking text is refused.",
            .args = {},
            .output_schema =
                [] {
                    return nlohmann::json{{"type", "object"},
                        {"properties",
                            {{"ok", {{"const", true}}}, {"text", {{"type", "string"}}}, {"length", {{"type", "integer"}}}}},
                        {"required", {"ok", "text", "length"}}};
                },
        },
        .cls = ToolClass::read,
        .handler = run,
    };
}

} // namespace nd_driver::tools

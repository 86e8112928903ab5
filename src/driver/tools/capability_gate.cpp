#include "driver/tools/capability_gate.h"

#include "core/backend/registry.h"

namespace nd_driver::tools {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<void> require_capability(ToolEnv& env, std::string_view capability)
{
    auto report = env.engine.backend().registry();
    const auto* cap = report.capability(capability);
    if (!cap)
        return make_error(ErrorCode::unsupported,
            std::string(capability) + " is not offered by the " + env.engine.backend().name() + " backend");
    const std::string reason = cap->reason_code ? " (" + *cap->reason_code + ")" : "";
    switch (cap->status) {
    case nd_core::Status::available: return nd_core::Ok{};
    case nd_core::Status::unsupported:
    case nd_core::Status::planned:
        return make_error(ErrorCode::unsupported, std::string(capability) + " is "
                + std::string(nd_core::status_name(cap->status)) + " on this platform" + reason);
    case nd_core::Status::unavailable:
        return make_error(ErrorCode::backend_unavailable, std::string(capability) + " is unavailable" + reason);
    }
    return nd_core::Ok{};
}

ToolDef unsupported_tool(std::string_view name, std::string_view title, std::string_view description,
    std::string_view capability, std::vector<ArgSpec> args)
{
    return {
        .decl = {
            .name = std::string(name),
            .title = std::string(title),
            .description = std::string(description),
            .args = std::move(args),
            .output_schema =
                [] {
                    // No success shape exists on this platform; a success would be {ok: true, ...}.
                    return nlohmann::json{{"type", "object"}, {"properties", {{"ok", {{"const", true}}}}},
                        {"required", {"ok"}}};
                },
        },
        .cls = ToolClass::read,
        .needs_session = false,
        .handler = [capability](ToolEnv& env, const Args&) -> nd_core::Result<ToolOutput> {
            TRY_VOID(require_capability(env, capability));
            // The registry says available, but this build has no implementation of it.
            return make_error(ErrorCode::unsupported, std::string(capability) + " has no implementation in this build");
        },
    };
}

} // namespace nd_driver::tools

#include "core/backend/registry.h"
#include "core/version.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

namespace {

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args&)
{
    auto& backend = env.engine.backend();
    auto report = backend.registry();
    nlohmann::json j = {{"ok", true}, {"contract_version", nd_core::CONTRACT_VERSION},
        {"driver_version", nd_core::DRIVER_VERSION}, {"backend", backend.name()},
        {"session_type", report.session_type}, {"ready", report.ready()},
        {"backends", nd_core::backends_json(report)}, {"capabilities", nd_core::capabilities_json(report)}};
    std::string text = std::string("nish-driver ") + nd_core::DRIVER_VERSION + " (contract " + nd_core::CONTRACT_VERSION
        + "), backend " + backend.name() + ": " + (report.ready() ? "ready" : "not ready") + "\n";
    for (const auto& c : report.capabilities)
        text += "  " + c.name + ": " + std::string(nd_core::status_name(c.status))
            + (c.reason_code ? " (" + *c.reason_code + ")" : "") + "\n";
    return json_output(j, std::move(text));
}

} // namespace

ToolDef health_report()
{
    return {
        .decl = {
            .name = "health_report",
            .title = "Health report",
            .description = "Reports the driver's versions, backend, readiness, backends and capabilities with their "
                           "status and reason codes.",
            .args = {},
            .output_schema =
                [] {
                    return nlohmann::json{{"type", "object"},
                        {"properties",
                            {{"ok", {{"const", true}}}, {"contract_version", {{"const", nd_core::CONTRACT_VERSION}}},
                                {"driver_version", {{"type", "string"}}}, {"backend", {{"type", "string"}}},
                                {"session_type", {{"type", "string"}}}, {"ready", {{"type", "boolean"}}},
                                {"backends", {{"type", "array"}, {"items", {{"type", "object"}}}}},
                                {"capabilities", {{"type", "array"}, {"items", {{"type", "object"}}}}}}},
                        {"required", {"ok", "contract_version", "driver_version", "backend", "session_type", "ready",
                                         "backends", "capabilities"}}};
                },
        },
        .cls = ToolClass::info,
        .needs_session = false,
        .handler = run,
    };
}

} // namespace nd_driver::tools

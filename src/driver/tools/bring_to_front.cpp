#include "core/engine/guarded_input.h"
#include "core/model/schemas.h"
#include "driver/act_flow.h"
#include "driver/common.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

namespace {

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args& args)
{
    TRY_VOID(require_takeover(env, "bring_to_front"));
    auto window = TRY(env.engine.resolve_window(*env.session, target_from(args)));
    nd_core::GuardedInput input(env.engine, *env.session);
    TRY_VOID(input.raise(window));
    return json_output({{"ok", true}, {"window_id", window.window_id}, {"path", "synthetic"}},
        "window " + std::to_string(window.window_id) + " raised and focused\n");
}

} // namespace

ToolDef bring_to_front()
{
    return {
        .decl = {
            .name = "bring_to_front",
            .title = "Bring a window to the front",
            .description = "Raises and focuses an approved window. Takeover sessions only.",
            .args = arg::window_target(),
            .output_schema =
                [] {
                    return nlohmann::json{{"type", "object"},
                        {"properties",
                            {{"ok", {{"const", true}}}, {"window_id", {{"type", "integer"}}},
                                {"path", {{"const", "synthetic"}}}}},
                        {"required", {"ok", "window_id", "path"}}};
                },
        },
        .cls = ToolClass::act,
        .handler = run,
    };
}

} // namespace nd_driver::tools

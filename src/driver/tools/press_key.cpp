#include "core/model/schemas.h"
#include "driver/common.h"
#include "driver/tools/key_act.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

ToolDef press_key()
{
    return {
        .decl = {
            .name = "press_key",
            .title = "Press a key",
            .description = "Presses and releases one key (Return, Escape, Tab, a, F5, ...) in the active window (a "
                           "named window must be the active one). Takeover sessions only.",
            .args = concat({{.name = "key", .type = ArgType::string, .description = "The key's name.", .required = true,
                               .strict = true, .max_length = 32}},
                concat(arg::window_target(), {arg::observe()})),
            .annotations = {.destructive = true},
            .output_schema = [] { return nd_core::schemas::act_result_schema(); },
        },
        .cls = ToolClass::act,
        .handler = [](ToolEnv& env, const Args& args) {
            return send_keys(env, args, "press_key", {args.string("key").value_or("")});
        },
    };
}

} // namespace nd_driver::tools

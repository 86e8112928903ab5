#include "core/model/schemas.h"
#include "driver/common.h"
#include "driver/tools/key_act.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

ToolDef hotkey()
{
    return {
        .decl = {
            .name = "hotkey",
            .title = "Press a key combination",
            .description = "Presses keys together, e.g. [\"ctrl\", \"s\"], and releases them in reverse, in the active "
                           "window (a named window must be the active one). Takeover sessions only.",
            .args = concat({{.name = "keys", .type = ArgType::string_array, .description = "Key names, modifiers first.",
                               .required = true, .strict = true, .max_length = 6}},
                concat(arg::window_target(), {arg::observe()})),
            .annotations = {.destructive = true},
            .output_schema = [] { return nd_core::schemas::act_result_schema(); },
        },
        .cls = ToolClass::act,
        .handler = [](ToolEnv& env, const Args& args) -> nd_core::Result<ToolOutput> {
            auto keys = args.strings("keys").value_or(std::vector<std::string>{});
            if (keys.empty())
                return nd_core::make_error(nd_core::ErrorCode::invalid_arguments, "keys must name at least one key");
            return send_keys(env, args, "hotkey", keys);
        },
    };
}

} // namespace nd_driver::tools

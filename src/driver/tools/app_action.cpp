#include "driver/common.h"
#include "driver/tools/capability_gate.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

ToolDef app_action()
{
    return unsupported_tool("app_action", "Run an app action",
        "Reserved (§9.2): runs one declared app action with typed params. Unsupported on this platform.",
        "app_actions",
        {arg::pid(), arg::window_id(),
            {.name = "action", .type = ArgType::string, .description = "A declared action name.", .required = true,
                .strict = true, .max_length = 128},
            {.name = "params", .type = ArgType::object, .description = "The action's parameters."}});
}

} // namespace nd_driver::tools

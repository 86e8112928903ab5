#include "driver/tools/capability_gate.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

ToolDef invoke_notification_action()
{
    return unsupported_tool("invoke_notification_action", "Invoke a notification action",
        "Runs one action of a notification. Unsupported on Linux/X11.", "invoke_notification_action",
        {{.name = "id", .type = ArgType::string, .description = "The notification id.", .required = true, .strict = true, .max_length = 256},
            {.name = "action", .type = ArgType::string, .description = "The action key.", .required = true, .strict = true, .max_length = 256}});
}

} // namespace nd_driver::tools

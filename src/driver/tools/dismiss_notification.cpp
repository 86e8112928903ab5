#include "driver/tools/capability_gate.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

ToolDef dismiss_notification()
{
    return unsupported_tool("dismiss_notification", "Dismiss a notification",
        "Dismisses a notification by id. Unsupported on Linux/X11.", "dismiss_notification",
        {{.name = "id", .type = ArgType::string, .description = "The notification id.", .required = true, .strict = true, .max_length = 256}});
}

} // namespace nd_driver::tools

#include "driver/common.h"
#include "driver/tools/capability_gate.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

ToolDef list_app_actions()
{
    return unsupported_tool("list_app_actions", "List app actions",
        "Reserved (§9.2): lists an app's declared automation actions. Unsupported on this platform.",
        "app_actions", {arg::pid(), arg::window_id()});
}

} // namespace nd_driver::tools

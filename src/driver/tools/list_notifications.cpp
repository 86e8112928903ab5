#include "driver/tools/capability_gate.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

ToolDef list_notifications()
{
    return unsupported_tool("list_notifications", "List notifications",
        "Lists other apps' notifications. Unsupported on Linux/X11: freedesktop offers no such list.", "list_notifications",
        {});
}

} // namespace nd_driver::tools

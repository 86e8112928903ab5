#include "driver/tools/pointer_act.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

ToolDef right_click()
{
    return pointer_act_tool({
        .name = "right_click",
        .title = "Right-click an element",
        .description = "Opens an element's context menu. Headless (default): its context-menu action (showContextMenu, "
                       "ShowMenu, menu). Foreground: a real right click.",
        .act = nd_core::ActKind::right_click,
        .button = nd_core::MouseButton::right,
    });
}

} // namespace nd_driver::tools

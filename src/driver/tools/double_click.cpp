#include "driver/tools/pointer_act.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

ToolDef double_click()
{
    return pointer_act_tool({
        .name = "double_click",
        .title = "Double-click an element",
        .description = "Double-clicks an element by token. Headless (default): its activate action, else its click "
                       "action twice. Foreground: a real double click.",
        .act = nd_core::ActKind::double_click,
        .count = 2,
    });
}

} // namespace nd_driver::tools

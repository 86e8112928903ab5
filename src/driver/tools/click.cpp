#include "driver/tools/pointer_act.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

ToolDef click()
{
    return pointer_act_tool({
        .name = "click",
        .title = "Click an element",
        .description = "Clicks an element by token. Headless (default): its own click action (click, press, check, "
                       "jump, Toggle, ... as its toolkit names it), or selects a tab or row; a label or icon passes it to "
                       "the row or button holding it. Foreground: a real left click at its centre.",
        .act = nd_core::ActKind::click,
        .select_fallback = true,
    });
}

} // namespace nd_driver::tools

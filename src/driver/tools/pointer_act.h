#pragma once

// click, double_click and right_click differ only in which element action they run headless (their
// row of core/model/act_actions.h) and which button and count they send in a takeover; this builds all three.

#include "core/model/act_actions.h"
#include "driver/tool.h"

namespace nd_driver::tools {

struct PointerActKind {
    std::string_view name;
    std::string_view title;
    std::string_view description;
    nd_core::ActKind act = nd_core::ActKind::click; // which of the element's own actions runs headless
    bool select_fallback = false;                     // select a tab or row when no action fits
    nd_core::MouseButton button = nd_core::MouseButton::left;
    std::int32_t count = 1;
};

ToolDef pointer_act_tool(PointerActKind);

} // namespace nd_driver::tools

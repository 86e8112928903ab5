#pragma once

// click, double_click and right_click differ only in which element action they prefer headless and
// which button and count they send in a takeover; this builds all three.

#include "driver/tool.h"

namespace nd_driver::tools {

struct PointerActKind {
    std::string_view name;
    std::string_view title;
    std::string_view description;
    std::vector<std::string_view> actions; // the element's own actions, in order of preference
    bool select_fallback = false;          // select a tab or row when no action fits
    std::int32_t repeat_fallback = 0;      // run the first available of `fallback_actions` this often
    std::vector<std::string_view> fallback_actions;
    nd_core::MouseButton button = nd_core::MouseButton::left;
    std::int32_t count = 1;
};

ToolDef pointer_act_tool(PointerActKind);

} // namespace nd_driver::tools

#pragma once

// The one registry of contract tools. Adding a tool costs one file in src/driver/tools/, one line
// in tools/registry.cpp and one test. The registry makes each declaration a contract tool: the
// contract's argument policy (nd_mcp::ArgPolicy::drop) and the hints its class implies.

#include "driver/tool.h"

#include <vector>

namespace nd_driver {

const std::vector<ToolDef>& all_tools();
const ToolDef* find_tool(std::string_view name);
// The output schema (structuredContent of a success) of a tool; null JSON for an unknown name.
nlohmann::json output_schema(std::string_view tool);

} // namespace nd_driver

#pragma once

// Tools backed by one capability (§6.2) answer from the backend's registry: a capability that is
// unsupported, planned or unavailable gives its error before anything else happens.

#include "driver/tool.h"

namespace nd_driver::tools {

nd_core::Result<void> require_capability(ToolEnv&, std::string_view capability);

// A tool that answers unsupported on every platform this build knows (notifications on Linux,
// app actions without the com-office backend), from the registry's own words.
ToolDef unsupported_tool(std::string_view name, std::string_view title, std::string_view description,
    std::string_view capability, std::vector<ArgSpec> args);

} // namespace nd_driver::tools

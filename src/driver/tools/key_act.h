#pragma once

// press_key and hotkey: keys go to the active window, which must be an approved one and, when the
// call names a window, that window (the focus re-check).

#include "driver/tool.h"

namespace nd_driver::tools {

nd_core::Result<ToolOutput> send_keys(ToolEnv&, const Args&, std::string_view tool, const std::vector<std::string>& keys);

} // namespace nd_driver::tools

#pragma once

// Documentation generated from the one error table and the one tool registry (STYLE.md habit 10).
// docs/errors.md and docs/tools.md are these functions' output; a test fails when the committed
// copies drift, and `nish-docgen --write docs` rewrites them.

#include <string>

namespace nd_driver {

std::string errors_markdown();
std::string tools_markdown();

} // namespace nd_driver

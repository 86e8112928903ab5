#pragma once

// Documentation generated from the one error table, the one tool registry and the one act table
// (STYLE.md habit 10). docs/errors.md, docs/tools.md and docs/act-actions.md are these functions' output; a test fails when the committed
// copies drift, and `nish-docgen --write docs` rewrites them.

#include <string>

namespace nd_driver {

std::string errors_markdown();
std::string tools_markdown();
std::string act_actions_markdown();

} // namespace nd_driver

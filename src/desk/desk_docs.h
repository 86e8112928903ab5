#pragma once

// docs/desk-verbs.md, generated from the verb declarations (`nish-docgen --write docs`), so the
// reference cannot drift from what the daemon checks and what `shuttle mcp` lists.

#include <string>

namespace nd_desk {

std::string desk_verbs_markdown();
// docs/model-tools.md, from the model tools' declarations.
std::string model_tools_markdown();

} // namespace nd_desk

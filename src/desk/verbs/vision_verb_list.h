#pragma once

// The factories of the vision verbs, one file each (verbs/<name>.cpp); vision_verbs.cpp lists them.
// docs/vision.md describes what each does where the spec leaves it open.

#include "desk/verb.h"

namespace nd_desk::verbs {

VerbDef computer_state();
VerbDef computer_act();
VerbDef computer_end();
VerbDef computer_scale();
VerbDef look();
VerbDef title_at();

// The arguments several of them share.
ArgSpec session_arg();
ArgSpec max_edge_arg();
ArgSpec workspace_only_arg();
// max_edge, default 1024.
std::int32_t max_edge_of(const nlohmann::json& args);

} // namespace nd_desk::verbs

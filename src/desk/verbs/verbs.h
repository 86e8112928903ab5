#pragma once

// The desk verbs, one per file, gathered by verb_registry.cpp. Each group's header lists the
// factories its files define.

#include "desk/verb.h"

#include <vector>

namespace nd_desk::verbs {

// verbs/screen.cpp
VerbDef screen();

// The read verbs (verbs/read_verbs.cpp lists them): windows, unanswered, wait, snapshot, find,
// read, at, focus, close, launch.
std::vector<VerbDef> read_verbs();
// The acting and picture verbs (verbs/act_verbs.cpp lists them): press, act, key, type, click,
// scroll, drag, shot, still.
std::vector<VerbDef> act_verbs();
// The vision verbs (verbs/vision_verbs.cpp lists them): computer_state, computer_act, computer_end,
// computer_scale, look, title_at.
std::vector<VerbDef> vision_verbs();

} // namespace nd_desk::verbs

namespace nd_desk {

// Every desk verb, in the order tools/list shows them.
const std::vector<VerbDef>& desk_verbs();
// The verb a wire tool name ("desk_windows") names, or null.
const VerbDef* find_verb(std::string_view tool);

} // namespace nd_desk

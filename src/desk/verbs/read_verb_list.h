#pragma once

// The factories of the read verbs, one file each (verbs/<name>.cpp); read_verbs.cpp lists them.

#include "desk/verb.h"

namespace nd_desk::verbs {

VerbDef windows();
VerbDef unanswered();
VerbDef wait();
VerbDef snapshot();
VerbDef find();
VerbDef read();
VerbDef at();
VerbDef focus();
VerbDef close();
VerbDef launch();

} // namespace nd_desk::verbs

#pragma once

// The factories of the acting and picture verbs, one file each (verbs/<name>.cpp); act_verbs.cpp
// lists them. docs/desk-verbs-act.md describes what each does where the spec leaves it open.

#include "desk/verb.h"

namespace nd_desk::verbs {

VerbDef press();
VerbDef act();
VerbDef key();
VerbDef type();
VerbDef click();
VerbDef scroll();
VerbDef drag();
VerbDef shot();
VerbDef still();

} // namespace nd_desk::verbs

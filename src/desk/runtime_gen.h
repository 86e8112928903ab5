#pragma once

// The script runtime's generated files (runtime/, docs/runtime.md), written from the verb
// declarations by `nish-docgen --write-runtime runtime`, so the `desk` functions a script calls and
// the types editors show cannot drift from what the daemon serves; a test fails when the committed
// copies differ.

#include <string>

namespace nd_desk {

// runtime/verbs.generated.mjs: `export const VERBS = [...]`, one entry per verb in registry order:
// {verb, tool, description, args: [{name, type, required, description, enum?}]}, where type is the
// ArgType's name (string, integer, number, boolean, object, string_array).
std::string runtime_verbs_module();

// runtime/desk.d.ts: TypeScript declarations of the global `desk`, one typed function per verb
// (the object form and the positional form), with the descriptions as JSDoc.
std::string runtime_types();

} // namespace nd_desk

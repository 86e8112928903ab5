#pragma once

// The built-in tools of the desk beside its verbs, declared once (nd_mcp::ToolDecl): script_run
// now, gui_plan and the plugins' tools later. The daemon checks calls against these declarations
// and `shuttle mcp` lists them after the desk verbs.

#include "mcp/tool_decl.h"

namespace nd_desk {

const nd_mcp::ToolDecl& script_run_decl();
const nd_mcp::ToolDecl& gui_plan_decl();

} // namespace nd_desk

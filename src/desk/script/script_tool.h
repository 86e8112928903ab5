#pragma once

// The built-in tools of the desk beside its verbs, declared once (nd_mcp::ToolDecl): script_run and
// gui_plan; and the declaration of a plugin's tool, which is script_run's under the
// plugin's name and description. The daemon checks calls against script_run's declaration and
// `shuttle mcp` lists these after the desk verbs.

#include "mcp/tool_decl.h"

namespace nd_desk {

const nd_mcp::ToolDecl& script_run_decl();
const nd_mcp::ToolDecl& gui_plan_decl();
// script_run's declaration (its arguments, so its input schema) under another name and description.
nd_mcp::ToolDecl plugin_decl(std::string name, std::string description);

} // namespace nd_desk

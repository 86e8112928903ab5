#pragma once

// The generated docs' view of a tool declaration (tool_decl.h): one section per tool, the same in
// docs/tools.md and docs/desk-verbs.md. Each front writes its own page around the sections (its
// summary table, its intro), from its own registry.

#include "mcp/tool_decl.h"

#include <string>
#include <string_view>

namespace nd_mcp {

// Text for a Markdown table cell: pipes escaped, newlines as spaces.
std::string markdown_cell(std::string_view text);

// "\n## <heading>\n\n<description>\n\n[<details>\n\n]" and then the argument table, "| argument |
// type | required | description |", or "No arguments.". The type column says what the schema
// advertises: "string: a, b" for an enum, "integer (>= 0, <= 5000)" for bounds, "list of strings".
std::string tool_section_markdown(const ToolDecl&, std::string_view heading);

} // namespace nd_mcp

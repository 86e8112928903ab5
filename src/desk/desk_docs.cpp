#include "desk/desk_docs.h"

#include "desk/verbs/verbs.h"
#include "mcp/tool_docs.h"

#include <sstream>

namespace nd_desk {

std::string desk_verbs_markdown()
{
    std::ostringstream md;
    md << "# Desk verbs\n\n"
          "Generated from the verb declarations in `src/desk/verbs/` by `nish-docgen --write docs`; a test fails\n"
          "when this file differs. On the wire and in `shuttle mcp` each verb is the tool `desk_<verb>`; the CLI\n"
          "calls it as `shuttle desk <verb>` (docs/desk.md). Unknown arguments are refused.\n\n";
    md << "| verb | what it does |\n|---|---|\n";
    for (const auto& v : desk_verbs()) {
        const std::string verb(v.verb());
        md << "| [" << verb << "](#" << verb << ") | " << nd_mcp::markdown_cell(v.decl.description) << " |\n";
    }
    for (const auto& v : desk_verbs())
        md << nd_mcp::tool_section_markdown(v.decl, v.verb());
    return md.str();
}

} // namespace nd_desk

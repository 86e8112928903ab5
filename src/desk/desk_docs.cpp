#include "desk/desk_docs.h"

#include "desk/models/model_tool.h"
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

std::string model_tools_markdown()
{
    std::ostringstream md;
    md << "# Model tools\n\n"
          "Generated from the declarations in `src/desk/models/` by `nish-docgen --write docs`; a test fails when\n"
          "this file differs. The same names serve the wire, `shuttle mcp` and the runtime (`desk.model.decide`,\n"
          "`.ask`, `.ground`). How they call the models, and how model_decide's probabilities are had:\n"
          "docs/models.md. Unknown arguments are refused.\n\n";
    md << "| tool | what it does |\n|---|---|\n";
    for (const auto& m : model_tools())
        md << "| [" << m.decl.name << "](#" << m.decl.name << ") | " << nd_mcp::markdown_cell(m.decl.description) << " |\n";
    for (const auto& m : model_tools())
        md << nd_mcp::tool_section_markdown(m.decl, m.decl.name);
    return md.str();
}

} // namespace nd_desk

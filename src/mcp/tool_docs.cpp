#include "mcp/tool_docs.h"

namespace nd_mcp {

namespace {

// The type column: the type, an enum's values and the advertised bounds (guard bounds are not).
std::string type_column(const ArgSpec& a)
{
    std::string type(a.type == ArgType::string_array ? "list of strings" : schema_type(a.type));
    if (!a.enum_values.empty()) {
        type += ": ";
        for (std::size_t i = 0; i < a.enum_values.size(); ++i)
            type += (i ? ", " : "") + a.enum_values[i];
    }
    const bool numeric = a.type == ArgType::integer || a.type == ArgType::number;
    if (numeric && !a.guard_bounds && (a.min || a.max)) {
        type += " (";
        if (a.min)
            type += ">= " + number_text(*a.min);
        if (a.min && a.max)
            type += ", ";
        if (a.max)
            type += "<= " + number_text(*a.max);
        type += ")";
    }
    return type;
}

} // namespace

std::string markdown_cell(std::string_view text)
{
    std::string out;
    for (char c : text) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n')
            out += ' ';
        else
            out += c;
    }
    return out;
}

std::string tool_section_markdown(const ToolDecl& decl, std::string_view heading)
{
    std::string md = "\n## " + std::string(heading) + "\n\n" + decl.description + "\n\n";
    if (!decl.details.empty())
        md += decl.details + "\n\n";
    if (decl.args.empty())
        return md + "No arguments.\n";
    md += "| argument | type | required | description |\n|---|---|---|---|\n";
    for (const auto& a : decl.args)
        md += "| `" + a.name + "` | " + markdown_cell(type_column(a)) + " | " + (a.required ? "yes" : "no") + " | "
            + markdown_cell(a.description) + " |\n";
    return md;
}

} // namespace nd_mcp

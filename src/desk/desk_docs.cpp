#include "desk/desk_docs.h"

#include "desk/verbs/verbs.h"

#include <sstream>

namespace nd_desk {

namespace {

const char* type_word(ArgType t)
{
    switch (t) {
    case ArgType::string: return "string";
    case ArgType::integer: return "integer";
    case ArgType::number: return "number";
    case ArgType::boolean: return "boolean";
    case ArgType::object: return "object";
    case ArgType::string_array: return "list of strings";
    }
    return "string";
}

// Table cells hold no pipes or newlines.
std::string cell(std::string text)
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

} // namespace

std::string desk_verbs_markdown()
{
    std::ostringstream md;
    md << "# Desk verbs\n\n"
          "Generated from the verb declarations in `src/desk/verbs/` by `nish-docgen --write docs`; a test fails\n"
          "when this file differs. On the wire and in `shuttle mcp` each verb is the tool `desk_<verb>`; the CLI\n"
          "calls it as `shuttle desk <verb>` (docs/desk.md). Unknown arguments are refused.\n\n";
    md << "| verb | what it does |\n|---|---|\n";
    for (const auto& v : desk_verbs())
        md << "| [" << v.name << "](#" << v.name << ") | " << cell(v.description) << " |\n";
    for (const auto& v : desk_verbs()) {
        md << "\n## " << v.name << "\n\n" << v.description << "\n\n";
        if (!v.details.empty())
            md << v.details << "\n\n";
        if (v.args.empty()) {
            md << "No arguments.\n";
            continue;
        }
        md << "| argument | type | required | description |\n|---|---|---|---|\n";
        for (const auto& a : v.args) {
            std::string type = type_word(a.type);
            if (!a.enum_values.empty()) {
                type += ": ";
                for (std::size_t i = 0; i < a.enum_values.size(); ++i)
                    type += (i ? ", " : "") + a.enum_values[i];
            }
            if (a.min || a.max) {
                type += " (";
                if (a.min)
                    type += ">= " + std::to_string(static_cast<long long>(*a.min));
                if (a.min && a.max)
                    type += ", ";
                if (a.max)
                    type += "<= " + std::to_string(static_cast<long long>(*a.max));
                type += ")";
            }
            md << "| `" << a.name << "` | " << cell(type) << " | " << (a.required ? "yes" : "no") << " | "
               << cell(a.description) << " |\n";
        }
    }
    return md.str();
}

} // namespace nd_desk

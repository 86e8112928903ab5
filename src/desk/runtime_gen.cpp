#include "desk/runtime_gen.h"

#include "desk/models/model_tool.h"
#include "desk/verbs/verbs.h"

#include <nlohmann/json.hpp>

#include <string_view>
#include <vector>

namespace nd_desk {

namespace {

constexpr std::string_view GENERATED_BY =
    "// Generated from the verb declarations in src/desk/verbs/ by `nish-docgen --write-runtime runtime`;\n"
    "// a test fails when this file differs. Do not edit: change the declarations and regenerate.\n";

std::string_view type_name(ArgType type)
{
    switch (type) {
    case ArgType::string: return "string";
    case ArgType::integer: return "integer";
    case ArgType::number: return "number";
    case ArgType::boolean: return "boolean";
    case ArgType::object: return "object";
    case ArgType::string_array: return "string_array";
    case ArgType::json: return "json";
    }
    return "string";
}

// The TypeScript type of an argument: an enum as a union of its string literals.
std::string ts_type(const ArgSpec& a)
{
    if (!a.enum_values.empty()) {
        std::string type;
        for (std::size_t i = 0; i < a.enum_values.size(); ++i)
            type += (i ? " | " : "") + nlohmann::json(a.enum_values[i]).dump();
        return type;
    }
    switch (a.type) {
    case ArgType::string: return "string";
    case ArgType::integer:
    case ArgType::number: return "number";
    case ArgType::boolean: return "boolean";
    case ArgType::object: return "Record<string, unknown>";
    case ArgType::string_array: return "string[]";
    case ArgType::json: return "string | Record<string, unknown> | unknown[]";
    }
    return "unknown";
}

// Text inside a JSDoc comment: one line, and never the comment's end.
std::string jsdoc_text(std::string_view text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n')
            out += ' ';
        else if (text[i] == '*' && i + 1 < text.size() && text[i + 1] == '/')
            out += "*\\";
        else
            out += text[i];
    }
    return out;
}

// An argument's JSDoc: its description, and for numbers the advertised bounds.
std::string arg_doc(const ArgSpec& a)
{
    std::string doc = jsdoc_text(a.description);
    if (a.type == ArgType::integer || a.type == ArgType::number) {
        doc += a.type == ArgType::integer ? " (an integer" : " (a number";
        if (!a.guard_bounds && a.min)
            doc += ", >= " + nd_mcp::number_text(*a.min);
        if (!a.guard_bounds && a.max)
            doc += ", <= " + nd_mcp::number_text(*a.max);
        doc += ")";
    }
    return doc;
}

// "Find" for "find", "Snapshot" for "snapshot": the verb in a type name (DeskFindArgs).
std::string type_stem(std::string_view verb)
{
    std::string stem;
    bool upper = true;
    for (char c : verb) {
        if (c == '_') {
            upper = true;
            continue;
        }
        stem += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
        upper = false;
    }
    return stem;
}

// How a tool appears on the desk object: desk.<verb> (a desk verb) or desk.model.<verb> (a model
// tool), and the stem of its types (DeskFindArgs, DeskModelAskArgs).
struct RuntimeName {
    const nd_mcp::ToolDecl& decl;
    std::string verb;   // "find", "ask"
    std::string path;   // "desk.find", "desk.model.ask"
    std::string prefix; // "Desk", "DeskModel"
};

RuntimeName verb_name(const VerbDef& v) { return {v.decl, std::string(v.verb()), "desk." + std::string(v.verb()), "Desk"}; }
RuntimeName model_name(const ModelToolDef& m)
{
    return {m.decl, std::string(m.short_name()), "desk.model." + std::string(m.short_name()), "DeskModel"};
}

// The interface of a tool's arguments object; none for a tool without arguments.
void write_verb_types(std::string& ts, const RuntimeName& v)
{
    if (v.decl.args.empty())
        return;
    const std::string& verb = v.verb;
    const std::string args_type = v.prefix + type_stem(verb) + "Args";
    ts += "/** The arguments of " + v.path + " (" + v.decl.name + "). */\nexport interface " + args_type + " {\n";
    for (const auto& a : v.decl.args)
        ts += "    /** " + arg_doc(a) + " */\n    " + a.name + (a.required ? "" : "?") + ": " + ts_type(a) + ";\n";
    // runtime/desk.mjs's own addition to the verb (lookWithQuestion): not the daemon's argument.
    if (v.decl.name == "desk_look")
        ts += "    /** A yes/no question about the picture: the verify model answers it (answer: its probability), "
              "within 5000 ms. */\n    question?: string;\n";
    ts += "}\n\n";
}

// A verb's methods in the Desk interface: the object form, and with required arguments the
// positional form.
void write_verb_methods(std::string& ts, const RuntimeName& v)
{
    const std::string& verb = v.verb;
    const std::string args_type = v.prefix + type_stem(verb) + "Args";
    const std::string doc = "    /** " + jsdoc_text(v.decl.description) + " */\n";
    std::vector<const ArgSpec*> required;
    for (const auto& a : v.decl.args)
        if (a.required)
            required.push_back(&a);
    const bool has_optional = required.size() < v.decl.args.size();

    if (v.decl.args.empty()) {
        ts += doc + "    " + verb + "(): Promise<DeskResult>;\n";
        return;
    }
    ts += doc + "    " + verb + "(args" + (required.empty() ? "?" : "") + ": " + args_type + "): Promise<DeskResult>;\n";
    if (required.empty())
        return;
    ts += doc + "    " + verb + "(";
    std::string omitted;
    for (std::size_t i = 0; i < required.size(); ++i) {
        ts += (i ? ", " : "") + required[i]->name + ": " + ts_type(*required[i]);
        omitted += (i ? " | " : "") + nlohmann::json(required[i]->name).dump();
    }
    if (has_optional)
        ts += ", more?: Omit<" + args_type + ", " + omitted + ">";
    ts += "): Promise<DeskResult>;\n";
}

nlohmann::ordered_json module_entry(const RuntimeName& v)
{
    auto args = nlohmann::ordered_json::array();
    for (const auto& a : v.decl.args) {
        nlohmann::ordered_json arg = {{"name", a.name}, {"type", type_name(a.type)}, {"required", a.required},
            {"description", a.description}};
        if (!a.enum_values.empty())
            arg["enum"] = a.enum_values;
        args.push_back(std::move(arg));
    }
    return {{"verb", v.verb}, {"tool", v.decl.name}, {"description", v.decl.description}, {"args", std::move(args)}};
}

} // namespace

std::string runtime_verbs_module()
{
    auto verbs = nlohmann::ordered_json::array();
    for (const auto& v : desk_verbs())
        verbs.push_back(module_entry(verb_name(v)));
    auto models = nlohmann::ordered_json::array();
    for (const auto& m : model_tools())
        models.push_back(module_entry(model_name(m)));
    const std::string type = "/** @type {readonly {verb: string, tool: string, description: string, "
                             "args: {name: string, type: string, required: boolean, description: string, enum?: string[]}[]}[]} */\n";
    return "// The desk verbs the script runtime's `desk` object offers, and the model tools of desk.model:\n"
           "// runtime/desk.mjs builds one function per entry.\n"
        + std::string(GENERATED_BY) + "\n" + type + "export const VERBS = " + verbs.dump(4) + ";\n\n" + type +
        "export const MODELS = " + models.dump(4) + ";\n";
}

std::string runtime_types()
{
    std::string ts = "// The global `desk` of a script run (docs/runtime.md), for editors and type checkers.\n"
        + std::string(GENERATED_BY)
        + "\n/** What a desk verb answers: its result as parsed JSON; a picture as image_b64 (a PNG, or a JPEG when image_mime says\n"
          " * image/jpeg, as the vision verbs answer). */\n"
          "export type DeskResult = any;\n\n";
    for (const auto& v : desk_verbs())
        write_verb_types(ts, verb_name(v));
    for (const auto& m : model_tools())
        write_verb_types(ts, model_name(m));
    ts += "/** The model tools (docs/models.md): the daemon asks its models and holds the key. */\n"
          "export interface DeskModels {\n";
    for (const auto& m : model_tools())
        write_verb_methods(ts, model_name(m));
    ts += "}\n\n";
    ts += "/** The desk: one function per desk verb. A verb takes one object of arguments, or its required\n"
          " * arguments in order and then an object of further ones. A refusal rejects with an Error\n"
          " * carrying the daemon's text (deskText) and the tool. */\nexport interface Desk {\n";
    for (const auto& v : desk_verbs())
        write_verb_methods(ts, verb_name(v));
    ts += "    /** model_decide, model_ask and model_ground as desk.model.decide, .ask and .ground. */\n"
          "    model: DeskModels;\n";
    ts += "    /** Any wire tool by its raw name (\"desk_windows\"): the parsed JSON, or the text when it is not JSON. */\n"
          "    call(tool: string, args?: Record<string, unknown>): Promise<any>;\n}\n\n"
          "declare global {\n    /** The desk of the run, set before the script is imported. */\n    var desk: Desk;\n}\n";
    return ts;
}

} // namespace nd_desk

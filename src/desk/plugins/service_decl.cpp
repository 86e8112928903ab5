// A service file against the seed's schema (service_decl.h): every field checked, every refusal
// naming the field.

#include "desk/plugins/service_decl.h"

#include "desk/plugins/plugin_fields.h"

#include <algorithm>
#include <array>

namespace nd_desk {

namespace {

using nlohmann::json;
using namespace plugin_fields;

constexpr std::array<std::string_view, 3> RESERVED_PREFIXES = {"desk_", "model_", "safety_"};

nd_core::Result<void> check_tool_name(const std::string& name, std::string_view where, const std::vector<ServiceTool>& own,
    const std::vector<Service>& earlier)
{
    const std::string field = std::string(where) + "name: ";
    if (name.size() > SERVICE_TOOL_NAME_MAX || !lower_identifier(name))
        return refuse(field + "\"" + name.substr(0, SERVICE_TOOL_NAME_MAX) + "\" must match ^[a-z][a-z0-9_]*$ (at most " +
                      std::to_string(SERVICE_TOOL_NAME_MAX) + " characters)");
    if (is_built_in_tool(name))
        return refuse(field + name + " is a built-in tool");
    for (auto prefix : RESERVED_PREFIXES)
        if (name.starts_with(prefix))
            return refuse(field + name + " starts with " + std::string(prefix) + ", which the desk keeps for its own tools");
    if (name.ends_with("_run"))
        return refuse(field + name + " ends in _run, which the plugins' tools take");
    for (const auto& tool : own)
        if (tool.name == name)
            return refuse(field + name + " is listed twice in this file");
    for (const auto& service : earlier)
        for (const auto& tool : service.tools)
            if (tool.name == name)
                return refuse(field + name + " is already a tool of service " + service.name + " (" + service.file + ")");
    return {};
}

nd_core::Result<ServiceTool> parse_tool(const json& entry, std::size_t index, const std::vector<ServiceTool>& own,
    const std::vector<Service>& earlier)
{
    const std::string at = "tools[" + std::to_string(index) + "]";
    const std::string where = at + ".";
    if (!entry.is_object())
        return refuse(at + ": must be an object, not " + type_name(entry));
    TRY_VOID(check_keys(entry, where, {"name", "description", "input_schema", "mcp"}, {"name", "description", "input_schema"},
        "a tool has name, description, input_schema and optionally mcp"));
    ServiceTool tool;
    tool.name = TRY(string_field(entry, where, "name"));
    TRY_VOID(check_tool_name(tool.name, where, own, earlier));
    tool.description = TRY(description_field(entry, where, "description", SERVICE_DESCRIPTION_MAX_CHARS));
    const auto& schema = entry.at("input_schema");
    if (!schema.is_object())
        return refuse(where + "input_schema: must be a JSON Schema object, not " + type_name(schema));
    const auto type = schema.find("type");
    if (type == schema.end() || *type != "object")
        return refuse(where + "input_schema: its type must be \"object\" (a tool takes an object of arguments)");
    tool.input_schema = schema;
    if (const auto mcp = entry.find("mcp"); mcp != entry.end()) {
        if (!mcp->is_boolean())
            return refuse(where + "mcp: must be a boolean, not " + type_name(*mcp));
        tool.mcp = mcp->get<bool>();
    }
    return tool;
}

} // namespace

nd_core::Result<Service> parse_service(const json& object, const std::string& file, const std::vector<Service>& earlier)
{
    TRY_VOID(check_keys(object, "", {"service", "bin", "args", "tools"}, {"service", "bin", "tools"},
        "a service has service, bin, tools and optionally args"));
    Service service;
    service.file = file;
    service.name = TRY(string_field(object, "", "service"));
    if (service.name.size() > SERVICE_NAME_MAX || !lower_identifier(service.name))
        return refuse("service: \"" + service.name.substr(0, SERVICE_NAME_MAX) + "\" must match ^[a-z][a-z0-9_]*$ (at most " +
                      std::to_string(SERVICE_NAME_MAX) + " characters)");
    for (const auto& other : earlier)
        if (other.name == service.name)
            return refuse("service: " + service.name + " is already the service of " + other.file);
    service.bin = TRY(program_field(object, "", "bin"));
    if (const auto args = object.find("args"); args != object.end()) {
        if (!args->is_array())
            return refuse("args: must be an array of strings, not " + type_name(*args));
        for (std::size_t i = 0; i < args->size(); ++i) {
            if (!(*args)[i].is_string())
                return refuse("args[" + std::to_string(i) + "]: must be a string, not " + type_name((*args)[i]));
            auto arg = (*args)[i].get<std::string>();
            if (arg.find('\0') != std::string::npos)
                return refuse("args[" + std::to_string(i) + "]: holds a NUL character, which no program argument can");
            service.args.push_back(std::move(arg));
        }
    }
    const auto& tools = object.at("tools");
    if (!tools.is_array())
        return refuse("tools: must be an array of tools, not " + type_name(tools));
    if (tools.empty())
        return refuse("tools: is empty; a service serves at least one tool");
    for (std::size_t i = 0; i < tools.size(); ++i)
        service.tools.push_back(TRY(parse_tool(tools[i], i, service.tools, earlier)));
    return service;
}

} // namespace nd_desk

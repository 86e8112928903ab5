#include "mcp/tool_decl.h"

#include <cmath>

namespace nd_mcp {

std::string_view schema_type(ArgType t)
{
    switch (t) {
    case ArgType::string: return "string";
    case ArgType::integer: return "integer";
    case ArgType::number: return "number";
    case ArgType::boolean: return "boolean";
    case ArgType::object: return "object";
    case ArgType::string_array: return "array";
    case ArgType::json: return "text or JSON";
    }
    return "string";
}

namespace {

nlohmann::json bound(ArgType t, double value)
{
    if (t == ArgType::integer)
        return static_cast<std::int64_t>(value);
    return value;
}

nlohmann::json property(const ArgSpec& spec, ArgPolicy policy)
{
    nlohmann::json p{{"type", schema_type(spec.type)}, {"description", spec.description}};
    if (spec.type == ArgType::json)
        p["type"] = {"string", "object", "array"};
    if (!spec.enum_values.empty())
        p["enum"] = spec.enum_values;
    const bool numeric = spec.type == ArgType::integer || spec.type == ArgType::number;
    if (numeric && !spec.guard_bounds) {
        if (spec.min)
            p["minimum"] = bound(spec.type, *spec.min);
        if (spec.max)
            p["maximum"] = bound(spec.type, *spec.max);
    }
    const bool capped = spec.max_length || policy == ArgPolicy::drop;
    // An enum bounds its strings already.
    if (spec.type == ArgType::string && capped && spec.enum_values.empty() && !spec.guard_bounds)
        p["maxLength"] = spec.max_length ? spec.max_length : DEFAULT_MAX_STRING_BYTES;
    if (spec.type == ArgType::string_array) {
        p["items"] = {{"type", "string"}};
        if (capped)
            p["maxItems"] = spec.max_length ? spec.max_length : DEFAULT_MAX_ARRAY_ITEMS;
    }
    if (spec.type == ArgType::object && !spec.bool_properties.empty()) {
        nlohmann::json sub = nlohmann::json::object();
        for (const auto& prop : spec.bool_properties)
            sub[prop] = {{"type", "boolean"}};
        p["properties"] = std::move(sub);
    }
    return p;
}

} // namespace

std::string number_text(double d)
{
    // Casting a number an int64 cannot hold would be undefined.
    if (d >= -9.2e18 && d <= 9.2e18 && d == std::trunc(d))
        return std::to_string(static_cast<std::int64_t>(d));
    return nlohmann::json(d).dump();
}

nlohmann::json input_schema(const ToolDecl& decl)
{
    nlohmann::json props = nlohmann::json::object();
    nlohmann::json required = nlohmann::json::array();
    for (const auto& spec : decl.args) {
        props[spec.name] = property(spec, decl.policy);
        if (spec.required)
            required.push_back(spec.name);
    }
    nlohmann::json schema{{"type", "object"}, {"properties", std::move(props)}};
    if (decl.policy == ArgPolicy::refuse)
        schema["additionalProperties"] = false;
    if (!required.empty())
        schema["required"] = std::move(required);
    return schema;
}

nlohmann::json list_entry(const ToolDecl& decl)
{
    nlohmann::json entry{{"name", decl.name}, {"description", decl.description}, {"inputSchema", input_schema(decl)}};
    if (!decl.title.empty())
        entry["title"] = decl.title;
    nlohmann::json hints = nlohmann::json::object();
    const auto hint = [&](const char* key, const std::optional<bool>& value) {
        if (value)
            hints[key] = *value;
    };
    hint("readOnlyHint", decl.annotations.read_only);
    hint("destructiveHint", decl.annotations.destructive);
    hint("idempotentHint", decl.annotations.idempotent);
    hint("openWorldHint", decl.annotations.open_world);
    if (!hints.empty())
        entry["annotations"] = std::move(hints);
    return entry;
}

} // namespace nd_mcp

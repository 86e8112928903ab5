#include "driver/arg_schema.h"

#include <algorithm>

namespace nd_driver {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

std::string_view type_name(ArgType t)
{
    switch (t) {
    case ArgType::string: return "string";
    case ArgType::integer: return "integer";
    case ArgType::boolean: return "boolean";
    case ArgType::string_array: return "array";
    case ArgType::object: return "object";
    }
    return "string";
}

std::string_view type_phrase(ArgType t)
{
    switch (t) {
    case ArgType::string: return "a string";
    case ArgType::integer: return "an integer";
    case ArgType::boolean: return "a boolean";
    case ArgType::string_array: return "an array of strings";
    case ArgType::object: return "an object";
    }
    return "a string";
}

bool type_matches(ArgType t, const nlohmann::json& v)
{
    switch (t) {
    case ArgType::string: return v.is_string();
    case ArgType::integer:
        if (v.is_number_integer())
            return true;
        // 3.0 is an integer; 3.5 is not.
        return v.is_number_float() && v.get<double>() == static_cast<double>(static_cast<std::int64_t>(v.get<double>()));
    case ArgType::boolean: return v.is_boolean();
    case ArgType::string_array:
        return v.is_array() && std::all_of(v.begin(), v.end(), [](const auto& item) { return item.is_string(); });
    case ArgType::object: return v.is_object();
    }
    return false;
}

std::size_t max_length(const ArgSpec& spec)
{
    if (spec.max_length)
        return spec.max_length;
    return spec.type == ArgType::string_array ? DEFAULT_MAX_ARRAY_ITEMS : DEFAULT_MAX_STRING_BYTES;
}

nd_core::Result<nlohmann::json> check_value(const ArgSpec& spec, const nlohmann::json& v)
{
    const std::string name(spec.name);
    switch (spec.type) {
    case ArgType::string: {
        const auto& s = v.get_ref<const std::string&>();
        if (s.size() > max_length(spec))
            return make_error(ErrorCode::invalid_arguments,
                name + " is " + std::to_string(s.size()) + " bytes; at most " + std::to_string(max_length(spec)));
        if (!spec.enum_values.empty()
            && std::find(spec.enum_values.begin(), spec.enum_values.end(), s) == spec.enum_values.end()) {
            std::string allowed;
            for (auto e : spec.enum_values)
                allowed += (allowed.empty() ? "" : ", ") + std::string(e);
            return make_error(ErrorCode::invalid_arguments, name + " must be one of: " + allowed);
        }
        return v;
    }
    case ArgType::integer: {
        auto n = v.is_number_integer() ? v.get<std::int64_t>() : static_cast<std::int64_t>(v.get<double>());
        if (n < spec.min || n > spec.max)
            return make_error(ErrorCode::invalid_arguments,
                name + " must be between " + std::to_string(spec.min) + " and " + std::to_string(spec.max));
        return nlohmann::json(n);
    }
    case ArgType::string_array: {
        if (v.size() > max_length(spec))
            return make_error(ErrorCode::invalid_arguments,
                name + " holds " + std::to_string(v.size()) + " items; at most " + std::to_string(max_length(spec)));
        for (const auto& item : v)
            if (item.get_ref<const std::string&>().size() > DEFAULT_MAX_STRING_BYTES)
                return make_error(ErrorCode::invalid_arguments, "an item of " + name + " is too long");
        return v;
    }
    case ArgType::object: {
        nlohmann::json out = nlohmann::json::object();
        for (auto prop : spec.bool_properties) {
            auto it = v.find(std::string(prop));
            if (it == v.end() || it->is_null())
                continue;
            if (!it->is_boolean())
                return make_error(ErrorCode::invalid_arguments, name + "." + std::string(prop) + " must be a boolean");
            out[std::string(prop)] = *it;
        }
        return out;
    }
    case ArgType::boolean: return v;
    }
    return v;
}

} // namespace

nlohmann::json input_schema(const ToolDef& def)
{
    nlohmann::json props = nlohmann::json::object();
    nlohmann::json required = nlohmann::json::array();
    for (const auto& spec : def.args) {
        nlohmann::json p{{"type", type_name(spec.type)}, {"description", spec.description}};
        if (!spec.enum_values.empty())
            p["enum"] = spec.enum_values;
        if (spec.type == ArgType::integer && !spec.guard_bounds) {
            if (spec.min != INT64_MIN)
                p["minimum"] = spec.min;
            if (spec.max != INT64_MAX)
                p["maximum"] = spec.max;
        }
        // An enum bounds its strings already.
        if (spec.type == ArgType::string && spec.enum_values.empty() && !spec.guard_bounds)
            p["maxLength"] = max_length(spec);
        if (spec.type == ArgType::string_array) {
            p["items"] = {{"type", "string"}};
            p["maxItems"] = max_length(spec);
        }
        if (spec.type == ArgType::object) {
            nlohmann::json sub = nlohmann::json::object();
            for (auto prop : spec.bool_properties)
                sub[std::string(prop)] = {{"type", "boolean"}};
            p["properties"] = sub;
        }
        props[std::string(spec.name)] = std::move(p);
        if (spec.required)
            required.push_back(spec.name);
    }
    nlohmann::json schema{{"type", "object"}, {"properties", std::move(props)}};
    if (!required.empty())
        schema["required"] = std::move(required);
    return schema;
}

nd_core::Result<Args> validate_args(const ToolDef& def, const nlohmann::json& arguments)
{
    if (!arguments.is_object())
        return make_error(ErrorCode::invalid_arguments, "arguments must be an object");
    nlohmann::json out = nlohmann::json::object();
    for (const auto& spec : def.args) {
        const std::string name(spec.name);
        auto it = arguments.find(name);
        if (it == arguments.end() || it->is_null()) {
            if (spec.required)
                return make_error(ErrorCode::invalid_arguments, "missing required argument " + name);
            continue;
        }
        if (!type_matches(spec.type, *it)) {
            if (spec.required || spec.strict)
                return make_error(ErrorCode::invalid_arguments,
                    name + " must be " + std::string(type_phrase(spec.type)));
            continue; // treated as absent
        }
        out[name] = TRY(check_value(spec, *it));
    }
    return Args(std::move(out));
}

bool Args::has(std::string_view name) const { return m_values.contains(std::string(name)); }

std::optional<std::string> Args::string(std::string_view name) const
{
    auto it = m_values.find(std::string(name));
    if (it == m_values.end() || !it->is_string())
        return std::nullopt;
    return it->get<std::string>();
}

std::optional<std::int64_t> Args::integer(std::string_view name) const
{
    auto it = m_values.find(std::string(name));
    if (it == m_values.end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<std::int64_t>();
}

std::optional<bool> Args::boolean(std::string_view name) const
{
    auto it = m_values.find(std::string(name));
    if (it == m_values.end() || !it->is_boolean())
        return std::nullopt;
    return it->get<bool>();
}

std::optional<std::vector<std::string>> Args::strings(std::string_view name) const
{
    auto it = m_values.find(std::string(name));
    if (it == m_values.end() || !it->is_array())
        return std::nullopt;
    return it->get<std::vector<std::string>>();
}

const nlohmann::json* Args::object(std::string_view name) const
{
    auto it = m_values.find(std::string(name));
    if (it == m_values.end() || !it->is_object())
        return nullptr;
    return &*it;
}

ToolOutput json_output(const nlohmann::json& structured, std::string text)
{
    return ToolOutput{false, structured.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), std::move(text), {}};
}

} // namespace nd_driver

#include "desk/verb.h"

#include "desk/desk.h"

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

const char* type_name(ArgType t)
{
    switch (t) {
    case ArgType::string: return "string";
    case ArgType::integer: return "integer";
    case ArgType::number: return "number";
    case ArgType::boolean: return "boolean";
    case ArgType::object: return "object";
    case ArgType::string_array: return "array";
    }
    return "string";
}

bool has_type(const nlohmann::json& v, ArgType t)
{
    switch (t) {
    case ArgType::string: return v.is_string();
    case ArgType::integer: return v.is_number_integer() || (v.is_number_float() && v.get<double>() == static_cast<double>(static_cast<std::int64_t>(v.get<double>())));
    case ArgType::number: return v.is_number();
    case ArgType::boolean: return v.is_boolean();
    case ArgType::object: return v.is_object();
    case ArgType::string_array:
        if (!v.is_array())
            return false;
        for (const auto& item : v)
            if (!item.is_string())
                return false;
        return true;
    }
    return false;
}

std::string describe_type(ArgType t)
{
    return t == ArgType::string_array ? "a list of strings" : std::string(t == ArgType::integer ? "an " : "a ") + type_name(t);
}

} // namespace

nlohmann::json input_schema(const VerbDef& verb)
{
    nlohmann::json properties = nlohmann::json::object();
    nlohmann::json required = nlohmann::json::array();
    for (const auto& a : verb.args) {
        nlohmann::json p{{"type", type_name(a.type)}, {"description", a.description}};
        if (a.type == ArgType::string_array)
            p["items"] = {{"type", "string"}};
        if (!a.enum_values.empty())
            p["enum"] = a.enum_values;
        if (a.min)
            p["minimum"] = *a.min;
        if (a.max)
            p["maximum"] = *a.max;
        properties[a.name] = std::move(p);
        if (a.required)
            required.push_back(a.name);
    }
    nlohmann::json schema{{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
    if (!required.empty())
        schema["required"] = std::move(required);
    return schema;
}

nd_core::Result<void> check_args(const VerbDef& verb, const nlohmann::json& args)
{
    if (!args.is_null() && !args.is_object())
        return make_error(ErrorCode::invalid_arguments, "args must be a JSON object");
    if (args.is_object())
        for (auto it = args.begin(); it != args.end(); ++it) {
            bool known = false;
            for (const auto& a : verb.args)
                known = known || a.name == it.key();
            if (!known)
                return make_error(ErrorCode::invalid_arguments,
                    it.key() + ": desk_" + verb.name + " takes no such argument");
        }
    for (const auto& a : verb.args) {
        const bool present = args.is_object() && args.contains(a.name) && !args[a.name].is_null();
        if (!present) {
            if (a.required)
                return make_error(ErrorCode::invalid_arguments, a.name + ": required, " + describe_type(a.type));
            continue;
        }
        const auto& v = args[a.name];
        if (!has_type(v, a.type))
            return make_error(ErrorCode::invalid_arguments, a.name + ": must be " + describe_type(a.type));
        if (!a.enum_values.empty()) {
            bool ok = false;
            for (const auto& e : a.enum_values)
                ok = ok || v.get<std::string>() == e;
            if (!ok) {
                std::string list;
                for (const auto& e : a.enum_values)
                    list += (list.empty() ? "" : ", ") + e;
                return make_error(ErrorCode::invalid_arguments, a.name + ": must be one of " + list);
            }
        }
        if ((a.type == ArgType::integer || a.type == ArgType::number) && (a.min || a.max)) {
            const double d = v.get<double>();
            if ((a.min && d < *a.min) || (a.max && d > *a.max))
                return make_error(ErrorCode::invalid_arguments,
                    a.name + ": must be between " + (a.min ? std::to_string(static_cast<long long>(*a.min)) : "-inf") + " and " +
                        (a.max ? std::to_string(static_cast<long long>(*a.max)) : "inf"));
        }
    }
    return {};
}

nd_core::Result<VerbReply> call_verb(Desk& desk, const VerbDef& verb, const CallScope& scope, const nlohmann::json& args)
{
    if (auto checked = check_args(verb, args); !checked)
        return nd_core::make_error(checked.error().code, "desk_" + verb.name + ": " + checked.error().message);
    try {
        return verb.handler(desk, scope, args);
    } catch (const std::exception& e) {
        return nd_core::make_error(nd_core::ErrorCode::internal_error,
                                   "desk_" + verb.name + " failed inside: " + e.what());
    }
}

std::string verb_failure_text(const VerbDef& verb, const CallScope& scope, const nd_core::Error& error)
{
    std::string text = error_text(error);
    // A verb that a stop cut short says so in its own words; any other failure during a stop
    // gets the reason in front, so the caller knows not to simply retry.
    if (scope.stop.stopped() && text.find("stopped by the user") == std::string::npos)
        text = "stopped by the user (safety_stop) during desk_" + verb.name + ": " + text;
    if (error.typed_characters && text.find("typed") == std::string::npos)
        text += " (" + std::to_string(*error.typed_characters) + " characters were typed)";
    return text;
}

std::optional<std::string> arg_string(const nlohmann::json& args, std::string_view name)
{
    if (!args.is_object())
        return std::nullopt;
    auto it = args.find(name);
    if (it == args.end() || !it->is_string())
        return std::nullopt;
    return it->get<std::string>();
}

std::optional<std::int64_t> arg_int(const nlohmann::json& args, std::string_view name)
{
    if (!args.is_object())
        return std::nullopt;
    auto it = args.find(name);
    if (it == args.end() || !it->is_number())
        return std::nullopt;
    return static_cast<std::int64_t>(it->get<double>());
}

std::optional<double> arg_number(const nlohmann::json& args, std::string_view name)
{
    if (!args.is_object())
        return std::nullopt;
    auto it = args.find(name);
    if (it == args.end() || !it->is_number())
        return std::nullopt;
    return it->get<double>();
}

std::optional<bool> arg_bool(const nlohmann::json& args, std::string_view name)
{
    if (!args.is_object())
        return std::nullopt;
    auto it = args.find(name);
    if (it == args.end() || !it->is_boolean())
        return std::nullopt;
    return it->get<bool>();
}

} // namespace nd_desk

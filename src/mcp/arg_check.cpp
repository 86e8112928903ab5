// check_arguments (tool_decl.h): one check for every tool, whose refusals each policy words as its
// clients already know them: the contract's "x must be an integer", the desk's "x: must be an
// integer".

#include "mcp/tool_decl.h"

#include "core/encode/json_writer.h"
#include "mcp/ignored_args.h"

#include <algorithm>
#include <cmath>

namespace nd_mcp {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

std::string type_phrase(ArgType t, ArgPolicy policy)
{
    switch (t) {
    case ArgType::string: return "a string";
    case ArgType::integer: return "an integer";
    case ArgType::number: return "a number";
    case ArgType::boolean: return "a boolean";
    case ArgType::object: return "an object";
    case ArgType::string_array: return policy == ArgPolicy::drop ? "an array of strings" : "a list of strings";
    case ArgType::json: return "text, an object or a list";
    }
    return "a string";
}

// A whole number an int64 holds (casting a larger one would be undefined).
bool is_whole(double d) { return d >= -9.2e18 && d <= 9.2e18 && d == std::trunc(d); }

} // namespace

std::optional<std::int64_t> whole_int64(const nlohmann::json& v)
{
    if (v.is_number_unsigned())
        return v.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX) ? std::optional(static_cast<std::int64_t>(v.get<std::uint64_t>()))
                                                                               : std::nullopt;
    if (v.is_number_integer())
        return v.get<std::int64_t>();
    if (v.is_number_float() && is_whole(v.get<double>()))
        return static_cast<std::int64_t>(v.get<double>());
    return std::nullopt;
}

namespace {

bool type_matches(ArgType t, const nlohmann::json& v)
{
    switch (t) {
    case ArgType::string: return v.is_string();
    // 3.0 is an integer; 3.5 is not.
    case ArgType::integer: return v.is_number_integer() || (v.is_number_float() && is_whole(v.get<double>()));
    case ArgType::number: return v.is_number();
    case ArgType::boolean: return v.is_boolean();
    case ArgType::object: return v.is_object();
    case ArgType::string_array:
        return v.is_array() && std::all_of(v.begin(), v.end(), [](const auto& item) { return item.is_string(); });
    case ArgType::json: return v.is_string() || v.is_object() || v.is_array();
    }
    return false;
}

// One refusal, worded by the policy: "name must ..." (drop) or "name: must ..." (refuse).
nd_core::Error refusal(const ArgSpec& spec, ArgPolicy policy, const std::string& rest)
{
    return make_error(ErrorCode::invalid_arguments, spec.name + (policy == ArgPolicy::drop ? " " : ": ") + rest);
}

// A bound as the refusal shows it; an unset one is the integer range's end (drop) or infinity.
std::string bound_text(const std::optional<double>& b, bool low, ArgPolicy policy)
{
    if (!b) {
        if (policy == ArgPolicy::refuse)
            return low ? "-inf" : "inf";
        return std::to_string(low ? INT64_MIN : INT64_MAX);
    }
    return number_text(*b);
}

std::size_t cap(const ArgSpec& spec, ArgPolicy policy)
{
    if (spec.max_length || policy == ArgPolicy::refuse)
        return spec.max_length; // 0: none
    return spec.type == ArgType::string_array ? DEFAULT_MAX_ARRAY_ITEMS : DEFAULT_MAX_STRING_BYTES;
}

nd_core::Result<nlohmann::json> check_string(const ArgSpec& spec, ArgPolicy policy, const nlohmann::json& v)
{
    const auto& s = v.get_ref<const std::string&>();
    const auto limit = cap(spec, policy);
    if (limit && s.size() > limit)
        return refusal(spec, policy, "is " + std::to_string(s.size()) + " bytes; at most " + std::to_string(limit));
    const auto& allowed_values = spec.enum_values;
    if (!allowed_values.empty() && std::find(allowed_values.begin(), allowed_values.end(), s) == allowed_values.end()) {
        std::string allowed;
        for (const auto& e : allowed_values)
            allowed += (allowed.empty() ? "" : ", ") + e;
        return refusal(spec, policy, (policy == ArgPolicy::drop ? "must be one of: " : "must be one of ") + allowed);
    }
    return v;
}

nd_core::Result<nlohmann::json> check_number(const ArgSpec& spec, ArgPolicy policy, const nlohmann::json& v)
{
    const double d = v.get<double>();
    // An integer beyond int64 (JSON allows 2^64 - 1) is out of range whatever the bounds say.
    const auto whole = spec.type == ArgType::integer ? whole_int64(v) : std::nullopt;
    if ((spec.type == ArgType::integer && !whole) || (spec.min && d < *spec.min) || (spec.max && d > *spec.max))
        return refusal(spec, policy,
            "must be between " + bound_text(spec.min, true, policy) + " and " + bound_text(spec.max, false, policy));
    if (whole)
        return nlohmann::json(*whole);
    return v;
}

nd_core::Result<nlohmann::json> check_list(const ArgSpec& spec, ArgPolicy policy, const nlohmann::json& v)
{
    const auto limit = cap(spec, policy);
    if (limit && v.size() > limit)
        return refusal(spec, policy, "holds " + std::to_string(v.size()) + " items; at most " + std::to_string(limit));
    const auto item_limit = policy == ArgPolicy::drop ? DEFAULT_MAX_STRING_BYTES : 0;
    for (const auto& item : v)
        if (item_limit && item.get_ref<const std::string&>().size() > item_limit)
            return make_error(ErrorCode::invalid_arguments, "an item of " + spec.name + " is too long");
    return v;
}

// An object that declares boolean properties keeps only those (one of another type is refused);
// one that declares none is opaque and passes whole (a desk_wait's since, a script's params).
nd_core::Result<nlohmann::json> check_object(const ArgSpec& spec, ArgPolicy policy, const nlohmann::json& v)
{
    if (spec.bool_properties.empty())
        return v;
    nlohmann::json out = nlohmann::json::object();
    for (const auto& prop : spec.bool_properties) {
        auto it = v.find(prop);
        if (it == v.end() || it->is_null())
            continue;
        if (!it->is_boolean())
            return make_error(ErrorCode::invalid_arguments,
                spec.name + "." + prop + (policy == ArgPolicy::drop ? " " : ": ") + "must be a boolean");
        out[prop] = *it;
    }
    return out;
}

nd_core::Result<nlohmann::json> check_value(const ArgSpec& spec, ArgPolicy policy, const nlohmann::json& v)
{
    switch (spec.type) {
    case ArgType::string: return check_string(spec, policy, v);
    case ArgType::integer:
    case ArgType::number: return check_number(spec, policy, v);
    case ArgType::string_array: return check_list(spec, policy, v);
    case ArgType::object: return check_object(spec, policy, v);
    case ArgType::boolean:
    case ArgType::json: return v;
    }
    return v;
}

bool is_declared(const ToolDecl& decl, std::string_view name)
{
    return std::any_of(decl.args.begin(), decl.args.end(), [&](const ArgSpec& a) { return a.name == name; });
}

// A name as a message repeats it: the caller's text, bounded.
std::string shown_name(std::string_view name) { return std::string(name.substr(0, 64)); }

// Under refuse, the first argument the declaration does not know, by name, with the one it likely
// meant and the ones there are.
nd_core::Result<void> refuse_unknown(const ToolDecl& decl, const nlohmann::json& arguments)
{
    for (auto it = arguments.begin(); it != arguments.end(); ++it) {
        if (is_declared(decl, it.key()))
            continue;
        std::string message = shown_name(it.key()) + ": " + decl.name + " takes no such argument";
        if (auto near = nearest_argument(decl, it.key()))
            message += " (did you mean " + *near + "?)";
        std::string names;
        for (const auto& a : decl.args)
            names += (names.empty() ? "" : ", ") + a.name;
        message += names.empty() ? "; it takes none" : "; it takes " + names;
        return make_error(ErrorCode::invalid_arguments, message);
    }
    return {};
}

std::size_t edit_distance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::optional<std::string> nearest_argument(const ToolDecl& decl, std::string_view name)
{
    if (name.empty() || name.size() > 64)
        return std::nullopt;
    for (const auto& a : decl.args)
        if (name.size() >= 3 && (a.name.find(name) != std::string::npos || name.find(a.name) != std::string_view::npos))
            return a.name;
    std::optional<std::string> best;
    std::size_t best_distance = name.size() / 3 + 1;
    for (const auto& a : decl.args) {
        const auto d = edit_distance(name, a.name);
        if (d < best_distance) {
            best_distance = d;
            best = a.name;
        }
    }
    return best;
}

std::vector<IgnoredArgument> ignored_arguments(const ToolDecl& decl, const nlohmann::json& arguments)
{
    std::vector<IgnoredArgument> out;
    if (decl.policy != ArgPolicy::drop || !arguments.is_object())
        return out;
    for (auto it = arguments.begin(); it != arguments.end() && out.size() < MAX_IGNORED_NAMED; ++it) {
        const auto spec = std::find_if(decl.args.begin(), decl.args.end(), [&](const ArgSpec& a) { return a.name == it.key(); });
        if (spec == decl.args.end()) {
            out.push_back({shown_name(it.key()), "unknown", nearest_argument(decl, it.key())});
        } else if (!it->is_null() && !type_matches(spec->type, *it) && !spec->required && !spec->strict) {
            out.push_back({spec->name, "must be " + type_phrase(spec->type, decl.policy), std::nullopt});
        }
    }
    return out;
}

std::string ignored_text(const std::vector<IgnoredArgument>& ignored)
{
    std::string out;
    for (const auto& i : ignored) {
        out += (out.empty() ? "" : "; ") + i.name + ": " + i.reason;
        if (i.did_you_mean)
            out += ", did you mean " + *i.did_you_mean + "?";
    }
    return out;
}

std::string ignored_json(const std::vector<IgnoredArgument>& ignored)
{
    std::string out;
    nd_core::JsonWriter w(out);
    w.begin_array();
    for (const auto& i : ignored) {
        w.begin_object().field("name", i.name).field("reason", i.reason);
        if (i.did_you_mean)
            w.field("did_you_mean", *i.did_you_mean);
        w.end_object();
    }
    w.end_array();
    return out;
}

nd_core::Result<nlohmann::json> check_arguments(const ToolDecl& decl, const nlohmann::json& arguments)
{
    const ArgPolicy policy = decl.policy;
    if (policy == ArgPolicy::drop && !arguments.is_object())
        return make_error(ErrorCode::invalid_arguments, "arguments must be an object");
    if (policy == ArgPolicy::refuse && !arguments.is_null() && !arguments.is_object())
        return make_error(ErrorCode::invalid_arguments, "args must be a JSON object");
    static const nlohmann::json none = nlohmann::json::object();
    const nlohmann::json& given = arguments.is_object() ? arguments : none;
    if (policy == ArgPolicy::refuse)
        TRY_VOID(refuse_unknown(decl, given));
    nlohmann::json out = nlohmann::json::object();
    for (const auto& spec : decl.args) {
        auto it = given.find(spec.name);
        if (it == given.end() || it->is_null()) {
            if (!spec.required)
                continue;
            if (policy == ArgPolicy::drop)
                return make_error(ErrorCode::invalid_arguments, "missing required argument " + spec.name);
            return refusal(spec, policy, "required, " + type_phrase(spec.type, policy));
        }
        if (!type_matches(spec.type, *it)) {
            if (spec.required || spec.strict || policy == ArgPolicy::refuse)
                return refusal(spec, policy, "must be " + type_phrase(spec.type, policy));
            continue; // treated as absent
        }
        out[spec.name] = TRY(check_value(spec, policy, *it));
    }
    return out;
}

} // namespace nd_mcp

#include "desk/plugins/plugin_fields.h"

#include "desk/plugins/trusted_program.h"
#include "desk/verbs/verbs.h"

#include <algorithm>
#include <array>

namespace nd_desk::plugin_fields {

using nlohmann::json;

nd_core::Error refuse(const std::string& reason) { return nd_core::make_error(nd_core::ErrorCode::invalid_arguments, reason); }

std::string type_name(const json& value)
{
    switch (value.type()) {
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::null: return "null";
    default: return "a number";
    }
}

std::size_t characters(std::string_view text)
{
    // The JSON parser admits only valid UTF-8: every byte but a continuation byte starts a character.
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

bool lower_identifier(std::string_view name)
{
    if (name.empty() || name.front() < 'a' || name.front() > 'z')
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

bool is_built_in_tool(std::string_view name)
{
    constexpr std::array<std::string_view, 5> built_in = {"gui_plan", "script_run", "desk", "screenshot", "status"};
    return std::find(built_in.begin(), built_in.end(), name) != built_in.end() || find_verb(name) != nullptr;
}

nd_core::Result<void> check_keys(const json& object, std::string_view where, std::initializer_list<std::string_view> keys,
    std::initializer_list<std::string_view> required, std::string_view expected)
{
    for (const auto& [key, value] : object.items())
        if (std::find(keys.begin(), keys.end(), key) == keys.end())
            return refuse(std::string(where) + key + ": unknown field (" + std::string(expected) + ")");
    for (auto key : required)
        if (!object.contains(key))
            return refuse(std::string(where) + std::string(key) + ": missing (" + std::string(expected) + ")");
    return {};
}

nd_core::Result<std::string> string_field(const json& object, std::string_view where, const char* key)
{
    const auto& value = object.at(key);
    if (!value.is_string())
        return refuse(std::string(where) + key + ": must be a string, not " + type_name(value));
    return value.get<std::string>();
}

nd_core::Result<std::string> absolute_field(const json& object, std::string_view where, const char* key)
{
    auto value = TRY(string_field(object, where, key));
    if (value.empty() || value.front() != '/')
        return refuse(std::string(where) + key + ": must be an absolute path, not \"" + value + "\"");
    return value;
}

nd_core::Result<std::string> program_field(const json& object, std::string_view where, const char* key)
{
    auto value = TRY(absolute_field(object, where, key));
    if (auto why = untrusted_program(value))
        return refuse(std::string(where) + key + ": " + *why + "; only a program that this user or root alone can change "
                                                               "is run (docs/security.md)");
    return value;
}

nd_core::Result<std::string> description_field(const json& object, std::string_view where, const char* key,
    std::size_t max_chars)
{
    auto value = TRY(string_field(object, where, key));
    if (value.empty())
        return refuse(std::string(where) + key + ": is empty; say what the tool does for the model");
    if (const auto n = characters(value); n > max_chars)
        return refuse(std::string(where) + key + ": " + std::to_string(n) + " characters, more than " + std::to_string(max_chars));
    return value;
}

} // namespace nd_desk::plugin_fields

#pragma once

// The field checks every file of the plugin directory shares (plugins and services): each answers a
// refusal whose message starts with the field at fault, as the directory's loaders report it.

#include "core/result.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

namespace nd_desk::plugin_fields {

// An invalid_arguments error with this reason.
nd_core::Error refuse(const std::string& reason);

// "an object", "a string", ... for a refusal's text.
std::string type_name(const nlohmann::json& value);

// Characters (not bytes) of valid UTF-8.
std::size_t characters(std::string_view text);

// ^[a-z][a-z0-9_]*$
bool lower_identifier(std::string_view name);

// A tool the desk serves itself (gui_plan, script_run, desk, screenshot, status, a desk verb): no
// plugin or service may take its name.
bool is_built_in_tool(std::string_view name);

// Every key of `object` is one of `keys`, and each of `required` is there. `where` prefixes the
// field in the message (e.g. "tools[0]."); `expected` says what the object holds.
nd_core::Result<void> check_keys(const nlohmann::json& object, std::string_view where,
    std::initializer_list<std::string_view> keys, std::initializer_list<std::string_view> required,
    std::string_view expected);

// The string at object[key] (present), or a refusal naming the field.
nd_core::Result<std::string> string_field(const nlohmann::json& object, std::string_view where, const char* key);

// A string that is an absolute path.
nd_core::Result<std::string> absolute_field(const nlohmann::json& object, std::string_view where, const char* key);

// An absolute path to a program the daemon may run (plugins/trusted_program.h): one that exists
// must be safe from other users now; one not installed yet is judged again when it is run.
nd_core::Result<std::string> program_field(const nlohmann::json& object, std::string_view where, const char* key);

// A description: a non-empty string of at most `max_chars` characters.
nd_core::Result<std::string> description_field(const nlohmann::json& object, std::string_view where, const char* key,
    std::size_t max_chars);

} // namespace nd_desk::plugin_fields

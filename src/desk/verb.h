#pragma once

// A desk verb is a declaration, as a contract tool is in the driver: its name (the wire tool is
// desk_<name>), a description, its arguments (which give the MCP input schema and the checks made
// before the handler runs) and a handler. One verb per file under verbs/, one registry
// (verb_registry.cpp). Results are JSON; the daemon sends result.dump() as the response text.

#include "core/result.h"
#include "desk/safety_stop.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace nd_desk {

class Desk;

enum class ArgType : std::uint8_t { string, integer, number, boolean, object, string_array };

struct VerbArg {
    std::string name;
    ArgType type = ArgType::string;
    std::string description;
    bool required = false;
    std::vector<std::string> enum_values; // strings only
    std::optional<double> min, max;       // numbers only
};

struct VerbReply {
    nlohmann::json result;                // the response text is its dump()
    std::optional<std::string> png_b64;   // image_b64 of the response
};

// What a handler knows of its call besides the arguments.
struct CallScope {
    std::string agent_id;
    SafetyStopToken stop; // stopped by safety_stop or the client going away
};

using VerbHandler = std::function<nd_core::Result<VerbReply>(Desk&, const CallScope&, const nlohmann::json& args)>;

struct VerbDef {
    std::string name; // "windows"; the wire and MCP name is "desk_windows"
    std::string description;  // for the model: what the verb does and answers (tools/list)
    std::vector<VerbArg> args;
    std::string details = {}; // for people: how it does it (docs/desk-verbs.md only, not in tools/list)
    VerbHandler handler;
};

// The JSON Schema (draft 2020-12 subset) of a verb's arguments, for tools/list.
nlohmann::json input_schema(const VerbDef&);

// Checks `args` (an object or null) against the declaration: required arguments present, each
// known argument of its type, enums and bounds. Unknown arguments are refused, naming them.
// invalid_arguments whose message starts with the argument's name.
nd_core::Result<void> check_args(const VerbDef&, const nlohmann::json& args);

// One call of a verb, as the daemon runs it and the tests call it: the arguments checked against
// the declaration (refused with invalid_arguments, "desk_<verb>: <argument>: ..."), then the
// handler, an exception inside it turned into internal_error. The daemon's own refusals (a stopped
// desk, an unknown tool, a bad request) come before it.
nd_core::Result<VerbReply> call_verb(Desk&, const VerbDef&, const CallScope&, const nlohmann::json& args);
// The text the wire answers for a failed call_verb: the error's text, with the stop's reason in
// front when a stop cut the call short, and how many characters were typed before a failure.
std::string verb_failure_text(const VerbDef&, const CallScope&, const nd_core::Error&);

// Small readers for handlers (after check_args, types are right).
std::optional<std::string> arg_string(const nlohmann::json& args, std::string_view name);
std::optional<std::int64_t> arg_int(const nlohmann::json& args, std::string_view name);
std::optional<double> arg_number(const nlohmann::json& args, std::string_view name);
std::optional<bool> arg_bool(const nlohmann::json& args, std::string_view name);

} // namespace nd_desk

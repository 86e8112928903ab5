#pragma once

// A desk verb is a declaration, as a contract tool is in the driver: the MCP layer's ToolDecl
// (mcp/tool_decl.h; its name is the wire and MCP tool name, desk_<verb>; its arguments give the
// input schema and the check made before the handler runs, under ArgPolicy::refuse) and a handler.
// One verb per file under verbs/, one registry (verb_registry.cpp). Results are JSON; the daemon
// sends result.dump() as the response text.

#include "core/result.h"
#include "desk/safety_stop.h"
#include "mcp/tool_decl.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace nd_desk {

class Desk;

using nd_mcp::ArgSpec;
using nd_mcp::ArgType;

struct VerbReply {
    nlohmann::json result;                // the response text is its dump()
    std::optional<std::string> png_b64;   // image_b64 of the response: a PNG, unless image_mime names another type
    std::optional<std::string> image_mime; // the vision verbs' "image/jpeg"; absent for a PNG
};

// What a handler knows of its call besides the arguments.
struct CallScope {
    std::string agent_id;
    SafetyStopToken stop; // stopped by safety_stop or the client going away
};

using VerbHandler = std::function<nd_core::Result<VerbReply>(Desk&, const CallScope&, const nlohmann::json& args)>;

// The wire and MCP name of a verb, "desk_windows" for windows, is its declaration's name.
inline constexpr std::string_view VERB_PREFIX = "desk_";

struct VerbDef {
    // name "desk_windows"; details for people (docs/desk-verbs.md only, not in tools/list).
    nd_mcp::ToolDecl decl;
    VerbHandler handler;
    // Whether it changes the desktop (input, focus, launching or closing): such verbs wait while
    // another agent's script owns the desk; reads never do. Set by the registry.
    bool changes_desktop = false;

    // The verb as the CLI and the docs name it: "windows".
    std::string_view verb() const { return std::string_view(decl.name).substr(VERB_PREFIX.size()); }
};

// One call of a verb, as the daemon runs it and the tests call it: the arguments (an object or
// null) checked against the declaration (nd_mcp::check_arguments; refused with invalid_arguments,
// "desk_<verb>: <argument>: ..."), then the
// handler, an exception inside it turned into internal_error. The daemon's own refusals (a stopped
// desk, an unknown tool, a bad request) come before it.
nd_core::Result<VerbReply> call_verb(Desk&, const VerbDef&, const CallScope&, const nlohmann::json& args);
// The text the wire answers for a failed call_verb: the error's text, with the stop's reason in
// front when a stop cut the call short, and how many characters were typed before a failure.
std::string verb_failure_text(const VerbDef&, const CallScope&, const nd_core::Error&);

// Small readers for handlers (after the check, types are right).
std::optional<std::string> arg_string(const nlohmann::json& args, std::string_view name);
std::optional<std::int64_t> arg_int(const nlohmann::json& args, std::string_view name);
std::optional<double> arg_number(const nlohmann::json& args, std::string_view name);
std::optional<bool> arg_bool(const nlohmann::json& args, std::string_view name);

} // namespace nd_desk

#pragma once

// A tool is a declaration: name, title, description, arguments, output schema, class and a handler
// (STYLE.md habit 8). Arguments are declared once as ArgSpecs; the input schema is generated from
// them and the dispatch wrapper validates calls against them, so the two cannot drift.

#include "core/engine.h"
#include "core/result.h"
#include "mcp/tool_output.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nd_driver {

// The MCP layer's types a tool produces and receives (mcp/tool_output.h).
using nd_mcp::CallContext;
using nd_mcp::ImageBlock;
using nd_mcp::ToolOutput;

enum class ArgType : std::uint8_t { string, integer, boolean, string_array, object };

struct ArgSpec {
    std::string_view name;
    ArgType type = ArgType::string;
    std::string_view description;
    bool required = false;
    // Wrong-typed optional arguments are treated as absent (contract §1) unless strict: required
    // arguments, targets, tokens and text are always strict and refused with invalid_arguments.
    bool strict = false;
    std::vector<std::string_view> enum_values = {};
    std::int64_t min = INT64_MIN;
    std::int64_t max = INT64_MAX;
    std::size_t max_length = 0; // strings (bytes) and arrays (items); 0 = the global cap
    // The bounds above only guard against abuse (a pid's, a token's length): validated, but not
    // advertised in the input schema, whose every token the model pays for on every turn.
    bool guard_bounds = false;
    // For object arguments: the properties it may hold (booleans only, e.g. observe).
    std::vector<std::string_view> bool_properties = {};
};

// The validated arguments of one call. Only declared arguments of the right type are visible.
class Args {
public:
    explicit Args(nlohmann::json values) : m_values(std::move(values)) {}
    bool has(std::string_view name) const;
    std::optional<std::string> string(std::string_view name) const;
    std::optional<std::int64_t> integer(std::string_view name) const;
    std::optional<bool> boolean(std::string_view name) const;
    std::optional<std::vector<std::string>> strings(std::string_view name) const;
    const nlohmann::json* object(std::string_view name) const;
    const nlohmann::json& values() const { return m_values; }

private:
    nlohmann::json m_values;
};

enum class ToolClass : std::uint8_t {
    read,    // reads windows; works while paused
    act,     // changes something in an app; refused while paused; accepts observe
    session, // start_session, end_session, get_session_state
    info,    // health_report and other tools that need no session
};

struct ToolEnv {
    nd_core::Engine& engine;
    nd_core::Session* session = nullptr; // set for every tool that needs one
    const CallContext& call;
};

using ToolHandler = std::function<nd_core::Result<ToolOutput>(ToolEnv&, const Args&)>;

struct ToolDef {
    std::string_view name;
    std::string_view title;
    std::string_view description;
    ToolClass cls = ToolClass::read;
    bool destructive = false;
    bool needs_session = true;
    std::vector<ArgSpec> args;
    std::function<nlohmann::json()> output_schema;
    ToolHandler handler;
};

// Builds a success output from a JSON object (small results; trees use JsonWriter directly).
ToolOutput json_output(const nlohmann::json& structured, std::string text);

} // namespace nd_driver

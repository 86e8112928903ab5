#pragma once

// A contract tool is a declaration (STYLE.md habit 8): the MCP layer's ToolDecl (name, title,
// description, arguments, hints, output schema; mcp/tool_decl.h), from which the input schema, the
// argument check, the tools/list entry and the docs all come, and what is the driver's own: the
// tool's class, whether it needs a session, and its handler.

#include "core/engine/engine.h"
#include "core/result.h"
#include "mcp/tool_decl.h"
#include "mcp/tool_output.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nd_driver {

// The MCP layer's types a tool is declared with, produces and receives.
using nd_mcp::ArgSpec;
using nd_mcp::ArgType;
using nd_mcp::CallContext;
using nd_mcp::ImageBlock;
using nd_mcp::ToolDecl;
using nd_mcp::ToolOutput;

// The checked arguments of one call (nd_mcp::check_arguments). Only declared arguments of the
// right type are visible.
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
    // An act declares annotations.destructive when it is; the registry sets the other hints from
    // cls, and the contract's argument policy (tool_registry.h).
    ToolDecl decl;
    ToolClass cls = ToolClass::read;
    bool needs_session = true;
    ToolHandler handler;
};

// Builds a success output from a JSON object (small results; trees use JsonWriter directly).
ToolOutput json_output(const nlohmann::json& structured, std::string text);

} // namespace nd_driver

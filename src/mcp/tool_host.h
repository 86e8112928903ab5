#pragma once

// What the MCP server needs from the rest of the program: the tool list and a way to call a tool,
// and optionally resources to list and read. The MCP layer knows JSON-RPC and stdio; it knows
// nothing of tools, sessions or backends.

#include "mcp/tool_output.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace nd_mcp {

class ToolHost {
public:
    virtual ~ToolHost() = default;
    // The tools/list "tools" array: each {name, title, description, inputSchema, annotations}.
    virtual nlohmann::json list_tools() = 0;
    virtual bool has_tool(std::string_view name) = 0;
    // Runs one tool. Tool failures come back as ToolOutput{is_error: true}; never throws.
    virtual ToolOutput call_tool(std::string_view name, const nlohmann::json& arguments, const CallContext&) = 0;
    // The client's name from initialize (clientInfo.name), used in session ids.
    virtual void set_client_name(std::string_view) {}
    // The connection closed: end every session of this connection (hides the indicator).
    virtual void connection_closed() {}

    // Resources (resources/list, resources/read). A host without any keeps these defaults: the
    // server then names no resources capability and answers both methods -32601, as before.
    // Asked once, when the server is made.
    virtual bool has_resources() { return false; }
    // The resources/list "resources" array: each {uri, name, mimeType?, description?}.
    virtual nlohmann::json list_resources() { return nlohmann::json::array(); }
    // One resource's text, read now; never throws.
    virtual ResourceText read_resource(std::string_view /*uri*/) { return {}; }
};

} // namespace nd_mcp

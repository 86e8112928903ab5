#pragma once

// The MCP methods the server implements beyond ping: initialize, tools/list and tools/call. Each
// takes a parsed request and returns the complete response line (result or JSON-RPC error). They
// reach the rest of the driver only through ToolHost.

#include "mcp/json_rpc.h"
#include "mcp/tool_host.h"
#include "mcp/tool_output.h"

#include <array>
#include <string>
#include <string_view>

namespace nd_mcp {

// Newest first; initialize answers the first when the client asks for one not listed.
inline constexpr std::array<std::string_view, 3> MCP_PROTOCOL_VERSIONS = {"2025-11-25", "2025-06-18", "2025-03-26"};

struct McpServerInfo {
    std::string name;
    std::string version;
    std::string instructions; // omitted from the initialize result when empty
};

// The version the server answers for a requested one (any JSON value; not a string → newest).
std::string_view negotiate_protocol_version(const nlohmann::json& requested);

std::string handle_initialize(const RpcRequest&, const McpServerInfo&, ToolHost&);
std::string handle_tools_list(const RpcRequest&, ToolHost&);
std::string handle_tools_call(const RpcRequest&, ToolHost&, const CallContext&);

// Writes the CallToolResult object for output: content blocks, structuredContent (inserted as
// is, not re-parsed) and isError.
void write_call_tool_result(nd_core::JsonWriter&, const ToolOutput& output);

} // namespace nd_mcp

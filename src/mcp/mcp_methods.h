#pragma once

// The MCP methods the server implements beyond ping: initialize (legacy era), server/discover
// (modern era), tools/list, tools/call, resources/list and resources/read (both; the resources
// methods only for a host that has resources). Each takes a parsed request and returns the
// complete response line (result or JSON-RPC error). They reach the rest of the program only
// through ToolHost. Results of the modern era carry resultType (and list results their cache
// hints); otherwise the two eras answer the same.

#include "mcp/json_rpc.h"
#include "mcp/protocol_era.h"
#include "mcp/tool_host.h"
#include "mcp/tool_output.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace nd_mcp {

// Methods beyond MCP's that a server answers (the driver daemon's metadata): the result, or
// nothing when it has no method of that name.
using ExtraMethod = std::function<std::optional<nlohmann::json>(const RpcRequest&)>;
// The data of the -32601 answer to a method nobody has (the driver daemon's unknown_method error
// object, docs/daemon.md).
using NotFoundData = std::function<nlohmann::json(const RpcRequest&)>;

struct McpServerInfo {
    std::string name;
    std::string version;
    std::string instructions; // omitted from the initialize and discover results when empty
    bool resources = false;   // the host has resources: the capabilities name them
    ExtraMethod extra_method;  // none: MCP's methods only
    NotFoundData not_found_data; // none: -32601 carries no data
};

std::string handle_initialize(const RpcRequest&, const McpServerInfo&);
// initialize's clientInfo.name, when it is a string.
std::optional<std::string> initialize_client_name(const RpcRequest&);
std::string handle_discover(const RpcRequest&, const McpServerInfo&);
std::string handle_tools_list(const RpcRequest&, ToolHost&, Era);
std::string handle_tools_call(const RpcRequest&, ToolHost&, const CallContext&, Era);
// {resources: ToolHost::list_resources()}.
std::string handle_resources_list(const RpcRequest&, ToolHost&, Era);
// {contents: [{uri, mimeType, text}]}; an unknown uri is -32002 with the uri in the error's data.
std::string handle_resources_read(const RpcRequest&, ToolHost&, Era);

// Writes the CallToolResult object for output: content blocks, structuredContent (inserted as
// is, not re-parsed), isError, and for the modern era resultType.
void write_call_tool_result(nd_core::JsonWriter&, const ToolOutput& output, Era era = Era::legacy);

} // namespace nd_mcp

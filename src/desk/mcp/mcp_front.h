#pragma once

// `shuttle mcp` (docs/desk.md, "MCP front"; docs/mcp-front.md): an MCP stdio server that lists the
// desk_<verb> tools with their input schemas and relays each call over the wire to the daemon.
// The JSON-RPC layer is the driver's McpServer; DeskToolHost (desk_tool_host.h) is the relay.

#include "mcp/mcp_server.h"

#include <string>
#include <vector>

namespace nd_desk {

// The server's name ("shuttle"), version and instructions.
nd_mcp::McpServerOptions mcp_front_options();

// Serves MCP on stdin/stdout until the client closes stdin. Exit status 0, 1 when the input
// failed, 2 for arguments.
int run_mcp_front(const std::vector<std::string>& args);

} // namespace nd_desk

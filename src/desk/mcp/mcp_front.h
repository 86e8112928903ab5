#pragma once

// `shuttle mcp` (docs/desk.md, "MCP front"): an MCP stdio server that lists the desk_<verb> tools
// with their input schemas and relays each call over the wire to the daemon.

#include <string>
#include <vector>

namespace nd_desk {

int run_mcp_front(const std::vector<std::string>& args);

} // namespace nd_desk

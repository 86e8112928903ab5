#pragma once

// What the server does with each line, as values: the reader's decision for one received line
// (answer it at once, cancel a request, queue it, or nothing) and the worker's answer to a queued
// request. Nothing here holds state or touches a descriptor, so the MCP fuzz target and the tests
// drive exactly the code the server runs.

#include "mcp/json_rpc.h"
#include "mcp/mcp_methods.h"
#include "mcp/protocol_era.h"
#include "mcp/tool_host.h"

#include <optional>
#include <string>
#include <string_view>

namespace nd_mcp {

struct LineAction {
    enum class Kind : std::uint8_t {
        none,    // a blank line, a notification with no effect, a client's response
        reply,   // send `reply` now: a protocol fault, ping, server/discover
        cancel,  // notifications/cancelled for `cancel_id`
        enqueue, // run `request` on the worker, in `era`
    };
    Kind kind = Kind::none;
    std::string reply;
    nlohmann::json cancel_id;
    RpcRequest request;
    EraClaim era;
};

// The reader's decision for one line (without its newline). Never throws for any input but an
// allocation failure.
LineAction route_line(std::string_view line, const McpServerInfo&);

// The client name a queued request gives: the modern envelope's clientInfo.name, or a legacy
// initialize's.
std::optional<std::string> request_client_name(const RpcRequest&, const EraClaim&);

// The worker's answer to a queued request: the complete response line.
std::string answer_request(const RpcRequest&, const EraClaim&, ToolHost&, const McpServerInfo&, const CallContext&);

} // namespace nd_mcp

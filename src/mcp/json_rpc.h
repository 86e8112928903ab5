#pragma once

// JSON-RPC 2.0 framing for the MCP server: classifying one received line and writing responses.
// Nothing here knows MCP methods; mcp_server.cpp dispatches on RpcRequest::method. Every fault a
// line can have becomes an RpcFault value (the nlohmann exceptions stop at parse_rpc_line).

#include "core/encode/json_writer.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

namespace nd_mcp {

// The JSON-RPC 2.0 error codes the server uses.
inline constexpr int RPC_PARSE_ERROR = -32700;
inline constexpr int RPC_INVALID_REQUEST = -32600;
inline constexpr int RPC_METHOD_NOT_FOUND = -32601;
inline constexpr int RPC_INVALID_PARAMS = -32602;
inline constexpr int RPC_INTERNAL_ERROR = -32603;
// MCP's: resources/read of a uri the server does not have.
inline constexpr int RPC_RESOURCE_NOT_FOUND = -32002;

// Containers nested deeper than this are refused before parsing, so no later consumer of the
// arguments (schema validation, a tool) can be driven into deep recursion by a hostile line.
inline constexpr std::size_t RPC_MAX_NESTING = 128;

// A well-formed request or notification.
struct RpcRequest {
    std::string method;
    nlohmann::json params = nlohmann::json::object(); // always an object
    bool has_id = false;                               // false: a notification, never answered
    nlohmann::json id;                                 // a string or an integer when has_id
    std::string id_json;                               // id serialized, ready to be echoed
};

// A line that must be answered with a JSON-RPC error.
struct RpcFault {
    int code = RPC_INVALID_REQUEST;
    std::string message;
    std::string id_json = "null"; // the request's id when it could be read
};

// A line that needs no answer: a response from the client (the server sends no requests), or a
// notification whose params are malformed (notifications are never answered).
struct RpcIgnored {};

using RpcMessage = std::variant<RpcRequest, RpcFault, RpcIgnored>;

// Classifies one line (without its newline).
RpcMessage parse_rpc_line(std::string_view line);

// True when the bracket nesting of json (outside strings) exceeds max_depth.
bool json_nesting_exceeds(std::string_view json, std::size_t max_depth);

// A complete error response line, ending in "\n".
std::string rpc_error_line(std::string_view id_json, int code, std::string_view message);
// The same with the error's data, an already-serialized JSON value (none when empty).
std::string rpc_error_line(std::string_view id_json, int code, std::string_view message, std::string_view data_json);

// Starts {"jsonrpc":"2.0","id":<id>,"result": — the caller then writes exactly one value.
void begin_rpc_result(nd_core::JsonWriter& writer, std::string_view id_json);
// Closes the envelope opened by begin_rpc_result and appends the line's "\n" to out.
void end_rpc_result(nd_core::JsonWriter& writer, std::string& out);

// A complete result line whose result is the already-serialized JSON value result_json.
std::string rpc_result_line(std::string_view id_json, std::string_view result_json);

// Serializes a JSON value that may hold invalid UTF-8 (replaced by U+FFFD) without throwing.
std::string dump_json(const nlohmann::json& value);

} // namespace nd_mcp

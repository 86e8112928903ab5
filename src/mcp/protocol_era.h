#pragma once

// The two eras of MCP the server speaks, chosen per request from the request itself.
//
// - Legacy (2025-11-25 and the revisions before it): the client opens with `initialize`; requests
//   carry no protocol version.
// - Modern (2026-07-28): there is no handshake. Every request names its protocol version and the
//   client's capabilities in params._meta ("io.modelcontextprotocol/protocolVersion",
//   "io.modelcontextprotocol/clientCapabilities", optionally ".../clientInfo"); the server answers
//   `server/discover`, and every result carries `resultType`.
//
// A request whose _meta holds a protocol version claims the modern era and is held to it: a
// malformed envelope is -32602, a revision the server does not speak is -32022 with the
// supported ones in the error's data. A request without that claim is legacy. Nothing is carried
// from one request to the next, so one connection may hold requests of both eras.

#include "mcp/json_rpc.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace nd_mcp {

enum class Era : std::uint8_t { legacy, modern };

// The modern revisions, newest first.
inline constexpr std::array<std::string_view, 1> MCP_MODERN_VERSIONS = {"2026-07-28"};
// The legacy revisions initialize negotiates among, newest first.
inline constexpr std::array<std::string_view, 3> MCP_PROTOCOL_VERSIONS = {"2025-11-25", "2025-06-18", "2025-03-26"};

// The reserved _meta keys of the modern era's request envelope.
inline constexpr std::string_view META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

// JSON-RPC error code of the modern era: the claimed revision is not one the server speaks.
inline constexpr int RPC_UNSUPPORTED_PROTOCOL_VERSION = -32022;

struct EraClaim {
    Era era = Era::legacy;
    std::string revision;                  // the modern revision; empty for legacy
    std::optional<std::string> client_name; // clientInfo.name of a modern envelope
};

// A request whose era claim cannot be served, with the error to answer it.
struct EraFault {
    int code = RPC_INVALID_PARAMS;
    std::string message;
    std::string data_json; // the error's data, serialized; empty for none
};

// The request's era, read from params._meta; never throws.
std::variant<EraClaim, EraFault> classify_era(const RpcRequest&);

// The legacy version initialize answers for a requested one (any JSON value; not a string or not
// supported → the newest).
std::string_view negotiate_protocol_version(const nlohmann::json& requested);

} // namespace nd_mcp

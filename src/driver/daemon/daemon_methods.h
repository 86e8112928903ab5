#pragma once

// What the driver daemon's socket answers beyond MCP (docs/daemon.md): `metadata`, and for every
// other method nobody has, including takeover.resume, JSON-RPC's -32601 whose data is the
// contract's error object with code unknown_method (§2.1).

#include "core/backend/registry.h"
#include "mcp/json_rpc.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace nd_driver {

struct DaemonFacts {
    std::string backend;      // the backend's name
    std::string session_type; // x11, mock, ...
    std::string display;      // the display it serves
    std::string socket;       // where it listens
    std::int64_t connections = 0;
    std::int64_t uptime_s = 0;
};

// {name, version, contract_version, backend: {name, session_type, display}, capabilities, socket,
// pid, connections, uptime_s}; capabilities as the doctor reports them, from this registry.
nlohmann::json daemon_metadata(const DaemonFacts&, const nd_core::RegistryReport&);

// The unknown_method error object for a request the socket has no method for.
nlohmann::json unknown_method_error(const nd_mcp::RpcRequest&);

} // namespace nd_driver

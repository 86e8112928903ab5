#pragma once

// The driver's manifest (`nish-driver manifest`, docs/manifest.md): what a host reads before it
// launches the driver, without launching it. Its name, version and contract_version
// (nd_core::CONTRACT_VERSION), how to launch it and which MCP revisions it speaks, the contract's
// capabilities (§6.2 names; which of them this machine has is the doctor's answer, not the
// manifest's), the host control pipe, and every tool as tools/list gives it, with its output
// schema. All of it comes from the registries, so it cannot drift from what the server serves.

#include <nlohmann/json.hpp>

namespace nd_driver {

inline constexpr int MANIFEST_SCHEMA_VERSION = 1;

nlohmann::json manifest();

} // namespace nd_driver

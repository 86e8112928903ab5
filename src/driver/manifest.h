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

// The MCP registry's server.json (schema 2025-12-11) for the repository's root, from the same facts:
// name, title, description (at most 100 characters, as the registry requires), version, and under
// _meta's publisher-provided key the contract version, the Debian package and how to launch it. It
// lists no `packages`: the registry's package types (npm, pypi, oci, nuget, mcpb) have no Debian
// package. `nish-docgen --write-server-json server.json` writes it; a test keeps the copy in step.
nlohmann::json registry_server_json();

} // namespace nd_driver

#include "driver/manifest.h"

#include "core/backend/registry.h"
#include "core/version.h"
#include "driver/control/control_commands.h"
#include "driver/tool_registry.h"
#include "mcp/protocol_era.h"

namespace nd_driver {

nlohmann::json manifest()
{
    nlohmann::json revisions = nlohmann::json::array();
    for (const auto v : nd_mcp::MCP_MODERN_VERSIONS)
        revisions.push_back(v);
    for (const auto v : nd_mcp::MCP_PROTOCOL_VERSIONS)
        revisions.push_back(v);
    nlohmann::json capabilities = nlohmann::json::array();
    for (const auto name : nd_core::capability_names())
        capabilities.push_back(name);
    nlohmann::json tools = nlohmann::json::array();
    for (const auto& def : all_tools()) {
        auto entry = nd_mcp::list_entry(def.decl);
        if (auto out = output_schema(def.decl.name); !out.is_null())
            entry["outputSchema"] = std::move(out);
        tools.push_back(std::move(entry));
    }
    return {
        {"schema", "nish-driver/manifest"},
        {"schema_version", MANIFEST_SCHEMA_VERSION},
        {"name", "nish-driver"},
        {"version", nd_core::DRIVER_VERSION},
        {"contract_version", nd_core::CONTRACT_VERSION},
        {"description", "Lets an AI agent read and act on the person's desktop apps through MCP tools: element trees "
                        "with tokens, semantic acts, observe, with the person's consent and a takeover they can end."},
        {"launch",
            {{"command", "nish-driver"}, {"args", {"mcp"}}, {"transport", "stdio"},
                {"options",
                    {{{"flag", "--backend"}, {"values", {"auto", "mock", "linux"}}, {"default", "auto"}},
                        {{"flag", "--consent"}, {"values", {"auto"}},
                            {"note", "grants every consent without asking: tests and demos only"}},
                        {{"flag", "--control-fd"}, {"value", "IN,OUT"}, {"note", "the host control pipe (docs/control-pipe.md)"}}}}}},
        {"daemon",
            {{"command", "nish-driver"}, {"args", {"daemon"}}, {"transport", "unix socket"},
                {"methods", {"metadata"}}, {"connect", {{"command", "nish-driver"}, {"args", {"mcp", "--connect"}}}},
                {"docs", "docs/daemon.md"}}},
        {"mcp", {{"protocol_versions", revisions}}},
        {"capabilities", capabilities},
        {"control_pipe", {{"methods", CONTROL_METHODS}, {"events", CONTROL_EVENTS}}},
        {"doctor", {{"command", "nish-driver"}, {"args", {"doctor", "--json"}}}},
        {"tools", std::move(tools)},
    };
}

nlohmann::json registry_server_json()
{
    const auto m = manifest();
    return {
        {"$schema", "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"},
        // Publishing proves the namespace; until then this is the name the project reserves.
        {"name", "io.github.nish-project/nish-driver"},
        {"title", "nish-driver"},
        {"description", "Lets AI agents read and act on Linux desktop apps over AT-SPI, with the person's consent."},
        {"version", m["version"]},
        {"_meta",
            {{"io.modelcontextprotocol.registry/publisher-provided",
                {{"contract_version", m["contract_version"]},
                    {"install", {{"debian_package", "nish"}, {"docs", "docs/install.md"}}},
                    {"launch", {{"command", m["launch"]["command"]}, {"args", m["launch"]["args"]}, {"transport", "stdio"}}},
                    {"daemon", m["daemon"]["connect"]},
                    {"manifest", {{"command", "nish-driver"}, {"args", {"manifest"}}}},
                    {"tools", m["tools"].size()}}}}},
    };
}

} // namespace nd_driver

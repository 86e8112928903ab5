#include "mcp/protocol_era.h"

#include <algorithm>

namespace nd_mcp {

namespace {

// Revisions and names are echoed in errors; a hostile value must not make an error huge.
constexpr std::size_t MAX_ECHOED = 64;

EraFault envelope_fault(std::string_view key, std::string_view problem)
{
    EraFault fault;
    fault.code = RPC_INVALID_PARAMS;
    fault.message = "Invalid params: _meta envelope of protocol revision " + std::string(MCP_MODERN_VERSIONS.front())
        + ": " + std::string(key) + " " + std::string(problem);
    nlohmann::json data = {{"envelope", {{"key", key}, {"problem", problem}}}};
    fault.data_json = dump_json(data);
    return fault;
}

EraFault unsupported_revision(const std::string& requested)
{
    std::string shown = requested.size() > MAX_ECHOED ? requested.substr(0, MAX_ECHOED) + "..." : requested;
    EraFault fault;
    fault.code = RPC_UNSUPPORTED_PROTOCOL_VERSION;
    fault.message = "Unsupported protocol version: " + shown + " (this server speaks";
    nlohmann::json supported = nlohmann::json::array();
    for (auto version : MCP_MODERN_VERSIONS) {
        supported.push_back(version);
        fault.message += " " + std::string(version);
    }
    fault.message += " per request, and " + std::string(MCP_PROTOCOL_VERSIONS.front()) + " through initialize)";
    fault.data_json = dump_json(nlohmann::json{{"supported", supported}, {"requested", shown}});
    return fault;
}

} // namespace

std::variant<EraClaim, EraFault> classify_era(const RpcRequest& request)
{
    auto meta_it = request.params.find("_meta");
    if (meta_it == request.params.end() || !meta_it->is_object())
        return EraClaim{};
    const auto& meta = *meta_it;
    auto version_it = meta.find(META_PROTOCOL_VERSION);
    if (version_it == meta.end())
        return EraClaim{};

    if (!version_it->is_string())
        return envelope_fault(META_PROTOCOL_VERSION, "must be a string");
    auto capabilities_it = meta.find(META_CLIENT_CAPABILITIES);
    if (capabilities_it == meta.end())
        return envelope_fault(META_CLIENT_CAPABILITIES, "missing");
    if (!capabilities_it->is_object())
        return envelope_fault(META_CLIENT_CAPABILITIES, "must be an object");
    EraClaim claim;
    auto info_it = meta.find(META_CLIENT_INFO);
    if (info_it != meta.end()) {
        if (!info_it->is_object())
            return envelope_fault(META_CLIENT_INFO, "must be an object");
        auto name_it = info_it->find("name");
        if (name_it != info_it->end()) {
            if (!name_it->is_string())
                return envelope_fault(META_CLIENT_INFO, "name must be a string");
            claim.client_name = name_it->get<std::string>();
        }
    }

    const auto& revision = version_it->get_ref<const std::string&>();
    if (std::find(MCP_MODERN_VERSIONS.begin(), MCP_MODERN_VERSIONS.end(), revision) == MCP_MODERN_VERSIONS.end())
        return unsupported_revision(revision);
    claim.era = Era::modern;
    claim.revision = revision;
    return claim;
}

std::string_view negotiate_protocol_version(const nlohmann::json& requested)
{
    if (requested.is_string()) {
        const auto& wanted = requested.get_ref<const std::string&>();
        for (auto version : MCP_PROTOCOL_VERSIONS) {
            if (wanted == version)
                return version;
        }
    }
    return MCP_PROTOCOL_VERSIONS.front();
}

} // namespace nd_mcp

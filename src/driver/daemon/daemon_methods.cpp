#include "driver/daemon/daemon_methods.h"

#include "core/encode/json_writer.h"
#include "core/engine/act_result.h"
#include "core/version.h"

#include <unistd.h>

namespace nd_driver {

nlohmann::json daemon_metadata(const DaemonFacts& facts, const nd_core::RegistryReport& report)
{
    return {
        {"name", "nish-driver"},
        {"version", nd_core::DRIVER_VERSION},
        {"contract_version", nd_core::CONTRACT_VERSION},
        {"backend", {{"name", facts.backend}, {"session_type", facts.session_type}, {"display", facts.display}}},
        {"capabilities", nd_core::capabilities_json(report)},
        {"socket", facts.socket},
        {"pid", static_cast<std::int64_t>(::getpid())},
        {"connections", facts.connections},
        {"uptime_s", facts.uptime_s},
    };
}

nlohmann::json unknown_method_error(const nd_mcp::RpcRequest& request)
{
    // The method's name is the client's text: bounded, and only ever its own request's.
    const nd_core::Error error(nd_core::ErrorCode::unknown_method,
        "the daemon socket has no method " + request.method.substr(0, 64) + "; it answers metadata and MCP's methods");
    std::string out;
    nd_core::JsonWriter writer(out);
    nd_core::write_error_object(writer, error);
    return nlohmann::json::parse(out);
}

} // namespace nd_driver

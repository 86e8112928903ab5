#pragma once

// The ToolHost of `shuttle mcp` (docs/mcp-front.md): it lists one MCP tool per desk verb,
// desk_<verb>, with the verb's description and input schema, then the model tools (model_decide,
// model_ask, model_ground: the daemon holds the key), and relays each call over the wire
// to the daemon, turning the wire response into the call's result (text, an image/png block when
// the response has image_b64, isError from is_error).
//
// Connection: one per call. The host connects when a call starts and closes the connection when
// it ends, so a daemon restarted between calls is simply found again, and cancelling a running
// call is closing its connection (the daemon takes that as the cancel) with nothing to reopen.
// safety_stop and safety_resume are never tools here: has_tool() admits only desk verbs, the
// model tools, script_run and the plugins' tools, whose relative path it makes absolute against this process's
// working directory (the agent's) before relaying.
//
// Plugins (docs/plugins.md): each loaded plugin is listed after script_run with script_run's
// input schema under its own name and description, and its resources are served by
// resources/list and resources/read. [tools] script_run = false turns them off with script_run:
// none is listed, and none of their resources.
//
// Services (docs/services.md): each service tool with mcp true is listed after the plugins with
// its own input schema, whatever [tools] script_run says. Its call sends one frame and reads one
// response frame through the daemon; a cancel closes the connection, which the daemon passes on to
// the service as a half-close (the service reads end of file and ends the call itself).
//
// The host holds no state between calls beyond the endpoint; the MCP server calls it from its one
// worker thread.

#include "desk/plugins/plugin_set.h"
#include "mcp/tool_host.h"

#include <string>

namespace nd_desk {

class DeskToolHost final : public nd_mcp::ToolHost {
public:
    // Calls go to the daemon at `endpoint`.
    explicit DeskToolHost(std::string endpoint);
    // No endpoint could be worked out (no HOME, a path too long): every call answers `reason` as
    // a tool error, while the tool list still serves.
    static DeskToolHost without_endpoint(std::string reason);

    nlohmann::json list_tools() override;
    bool has_tool(std::string_view name) override;
    nd_mcp::ToolOutput call_tool(std::string_view name, const nlohmann::json& arguments,
                                    const nd_mcp::CallContext&) override;
    bool has_resources() override;
    nlohmann::json list_resources() override;
    nd_mcp::ResourceText read_resource(std::string_view uri) override;

    const std::string& endpoint() const { return m_endpoint; }
    // config.toml's [tools] script_run: false leaves script_run out of the list (a call still
    // reaches the daemon, which answers that it is off).
    void set_script_run(bool on) { m_script_run = on; }
    // The plugin directory as read when the front started.
    void set_plugins(PluginSet plugins) { m_plugins = std::move(plugins); }

private:
    DeskToolHost() = default;
    // A service's tool listed on MCP (mcp true), or null.
    const ServiceTool* find_service_tool(std::string_view name) const;

    std::string m_endpoint;
    std::string m_endpoint_error; // set when there is no endpoint
    bool m_script_run = true;
    PluginSet m_plugins;
};

} // namespace nd_desk

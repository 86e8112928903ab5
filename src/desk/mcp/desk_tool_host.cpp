#include "desk/mcp/desk_tool_host.h"

#include "desk/mcp/call_pulse.h"
#include "desk/mcp/cancel_wake.h"
#include "desk/models/model_tool.h"
#include "desk/plugins/plugin_resources.h"
#include "desk/script/script_tool.h"
#include "desk/verbs/verbs.h"
#include "desk/wire/client.h"

#include <climits>
#include <unistd.h>

namespace nd_desk {

namespace {

nd_mcp::ToolOutput tool_error(std::string text)
{
    nd_mcp::ToolOutput out;
    out.is_error = true;
    out.text = std::move(text);
    return out;
}

// script_run's (or a plugin's) path as the daemon needs it: absolute, a relative one taken from here (the agent's
// working directory).
nlohmann::json with_absolute_path(const nlohmann::json& arguments)
{
    if (!arguments.is_object())
        return arguments;
    auto path = arguments.find("path");
    if (path == arguments.end() || !path->is_string() || path->get_ref<const std::string&>().empty() ||
        path->get_ref<const std::string&>().front() == '/')
        return arguments;
    char cwd[PATH_MAX];
    if (!::getcwd(cwd, sizeof cwd))
        return arguments;
    nlohmann::json out = arguments;
    out["path"] = std::string(cwd) + "/" + path->get<std::string>();
    return out;
}

} // namespace

DeskToolHost::DeskToolHost(std::string endpoint) : m_endpoint(std::move(endpoint)) {}

DeskToolHost DeskToolHost::without_endpoint(std::string reason)
{
    DeskToolHost host;
    host.m_endpoint_error = std::move(reason);
    return host;
}

nlohmann::json DeskToolHost::list_tools()
{
    nlohmann::json tools = nlohmann::json::array();
    for (const auto& verb : desk_verbs())
        tools.push_back(nd_mcp::list_entry(verb.decl));
    for (const auto& model : model_tools())
        tools.push_back(nd_mcp::list_entry(model.decl));
    if (m_script_run) {
        tools.push_back(nd_mcp::list_entry(script_run_decl()));
        tools.push_back(nd_mcp::list_entry(gui_plan_decl()));
        for (const auto& plugin : m_plugins.loaded)
            tools.push_back(nd_mcp::list_entry(plugin_decl(plugin.name, plugin.description)));
    }
    // The services' tools stay on with script_run off; a tool with mcp false is the wire's only.
    for (const auto& service : m_plugins.services)
        for (const auto& tool : service.tools)
            if (tool.mcp)
                tools.push_back({{"name", tool.name}, {"description", tool.description}, {"inputSchema", tool.input_schema}});
    return tools;
}

const ServiceTool* DeskToolHost::find_service_tool(std::string_view name) const
{
    for (const auto& service : m_plugins.services)
        for (const auto& tool : service.tools)
            if (tool.mcp && tool.name == name)
                return &tool;
    return nullptr;
}

// A plugin's tool is admitted even while [tools] script_run = false leaves it out of the list: the
// daemon then answers that it is off, as it does for script_run.
bool DeskToolHost::has_tool(std::string_view name)
{
    return find_verb(name) != nullptr || find_model_tool(name) != nullptr || name == script_run_decl().name ||
           name == gui_plan_decl().name || m_plugins.find(name) != nullptr || find_service_tool(name) != nullptr;
}

bool DeskToolHost::has_resources() { return m_script_run && m_plugins.has_resources(); }

nlohmann::json DeskToolHost::list_resources()
{
    return m_script_run ? plugin_resource_list(m_plugins) : nlohmann::json::array();
}

nd_mcp::ResourceText DeskToolHost::read_resource(std::string_view uri)
{
    return m_script_run ? read_plugin_resource(m_plugins, uri) : nd_mcp::ResourceText{};
}

nd_mcp::ToolOutput DeskToolHost::call_tool(std::string_view name, const nlohmann::json& arguments,
                                              const nd_mcp::CallContext& context)
{
    if (!m_endpoint_error.empty())
        return tool_error(m_endpoint_error);
    // A call cancelled while it waited in the queue never reaches the daemon. (The server drops
    // its reply either way.)
    if (context.is_cancelled())
        return tool_error("cancelled");
    CancelWake wake(context.cancelled);
    if (!wake.ok())
        return tool_error("shuttle mcp cannot make the descriptor that would cancel the call; nothing was sent");

    auto client = wire::Client::connect(m_endpoint);
    if (!client)
        return tool_error(client.error().message);
    // The MCP front has no agent of its own: its calls share the default session, as the CLI's do.
    const bool runs_script = name == script_run_decl().name || m_plugins.find(name) != nullptr;
    wire::Request request{"", std::string(name), runs_script ? with_absolute_path(arguments) : arguments};
    auto result = [&] {
        // A plugin's run and a plan are bounded as script_run's is (timeout_s).
        const bool bounded_as_run = runs_script || name == gui_plan_decl().name;
        CallPulse pulse(context, expected_call_ms(bounded_as_run ? script_run_decl().name : name, arguments),
            std::string(name) + " running");
        return client->call(request, std::nullopt, wake.fd());
    }();
    switch (result.status) {
    case wire::Client::CallStatus::cancelled: return tool_error("cancelled");
    case wire::Client::CallStatus::failed:
        return tool_error(std::string(name) + " did not finish: " + result.failure + " (daemon at " + m_endpoint + ")");
    case wire::Client::CallStatus::answered: break;
    }
    nd_mcp::ToolOutput out;
    out.is_error = result.response.is_error;
    out.text = std::move(result.response.text);
    if (result.response.image_b64)
        out.image = nd_mcp::ImageBlock{result.response.image_mime.value_or("image/png"), std::move(*result.response.image_b64)};
    return out;
}

} // namespace nd_desk

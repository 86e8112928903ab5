#include "desk/mcp/mcp_front.h"

#include "desk/config.h"

#include "desk/mcp/desk_tool_host.h"
#include "desk/plugins/plugin_set.h"
#include "desk/wire/endpoint.h"
#include "mcp/mcp_server.h"

#include <iostream>
#include <unistd.h>

namespace nd_desk {

namespace {

constexpr const char* INSTRUCTIONS =
    "The desk tools of shuttle: each desk_<verb> tool runs one verb of the shuttle daemon on this "
    "desktop (windows, snapshots, input, pictures). The daemon must be running (`shuttle daemon`); "
    "a tool answers an error saying so when it is not.";

} // namespace

nd_mcp::McpServerOptions mcp_front_options()
{
    nd_mcp::McpServerOptions options;
    options.name = "shuttle";
    options.instructions = INSTRUCTIONS;
    options.log_prefix = "shuttle mcp";
    return options;
}

int run_mcp_front(const std::vector<std::string>& args)
{
    if (!args.empty()) {
        std::cerr << "shuttle mcp: takes no arguments (the daemon's socket comes from SHUTTLE_SOCKET or the default "
                     "endpoint)\n";
        return 2;
    }
    auto endpoint = wire::default_endpoint();
    // Without an endpoint the server still starts and lists its tools; each call then says why.
    DeskToolHost host = endpoint ? DeskToolHost(*endpoint) : DeskToolHost::without_endpoint(endpoint.error().message);
    // The tools config.toml turns off are not listed; a config that does not load lists them all,
    // and the daemon answers each call with the load error.
    if (auto config = load_config(config_path())) {
        host.set_script_run(config->script_run);
        // The plugin directory is read once, now; what it loaded and refused goes to stderr.
        PluginSet plugins = load_plugins(plugins_dir(*config));
        for (const auto& line : plugins.log_lines())
            std::cerr << "shuttle mcp: " << line << "\n";
        host.set_plugins(std::move(plugins));
    }
    nd_mcp::McpServer server(host, STDIN_FILENO, STDOUT_FILENO, mcp_front_options());
    return server.run();
}

} // namespace nd_desk

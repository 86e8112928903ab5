// shuttle: the desk daemon, its CLI and its MCP front (docs/desk.md).
//
//   shuttle daemon [--backend auto|linux|mock] [--socket PATH] [--control-fd IN,OUT]
//   shuttle desk VERB [JSON | --name value ...] [--out FILE]
//   shuttle mcp
//   shuttle stop | shuttle resume
//   shuttle plugins
//   shuttle --version | --help

#include "core/version.h"
#include "desk/cli/desk_cli.h"
#include "desk/config.h"
#include "desk/daemon/daemon.h"
#include "desk/mcp/mcp_front.h"
#include "desk/verbs/verbs.h"
#include "desk/wire/endpoint.h"
#include "backend/backend_select.h"
#include "mcp/control_fds.h"

#include <algorithm>
#include <malloc.h>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

nd_desk::Daemon* g_daemon = nullptr;

void on_signal(int)
{
    if (g_daemon)
        g_daemon->request_stop();
}

constexpr const char* USAGE = R"(usage:
  shuttle daemon [--backend auto|linux|mock] [--socket PATH] [--control-fd IN,OUT]
                                                                serve the desk wire
      --backend   auto (default) the platform's backend; mock the scripted test desktop
      --socket    the socket to listen on (default below)
  shuttle desk VERB [JSON | --name value ...] [--out FILE]      call one desk verb
      the verb's arguments as one JSON object or as --name value pairs (a list comma-separated,
      a boolean flag alone); --out FILE: where a picture goes. shuttle desk VERB --help lists them.
  shuttle mcp                                                   MCP stdio front for the desk
  shuttle stop | shuttle resume                                 safety stop: halt every call / lift it
  shuttle plugins                                               the plugins and services the plugin directory loads and refuses (JSON)
  shuttle --version

--control-fd IN,OUT: a host app's control pipe on two inherited descriptors (not 0 or 1; may be
the same one, a socket pair's end). JSON lines: confirm.request out, confirm.answer,
safety_stop and safety_resume in; the host then answers confirm mode's questions.
See docs/desk-control.md.

The socket: SHUTTLE_SOCKET, else $XDG_CACHE_HOME/loomhand/shuttle/desk.sock, else
~/.cache/loomhand/shuttle/desk.sock. The config: SHUTTLE_CONFIG, else
$XDG_CONFIG_HOME/loomhand/shuttle/config.toml (docs/config.md).
)";

int run_daemon(const std::vector<std::string>& args)
{
    // The daemon answers each call on a thread of its own. glibc's defaults suit neither: a malloc
    // arena per core times eight spreads a long run's small allocations over many arenas that hold
    // freed memory (RSS wanders up), and its sliding trim and mmap thresholds hand large reads'
    // buffers back to the kernel and fault them in again call after call (RSS swings by a megabyte
    // either way, and every call pays the faults). Two arenas, a heap kept up to 16 MiB and buffers
    // under 4 MiB from the heap keep RSS flat and the calls faster (docs/benchmarks.md, "Load and soak").
    ::mallopt(M_ARENA_MAX, 2);
    ::mallopt(M_TRIM_THRESHOLD, 16 * 1024 * 1024);
    ::mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024);
    nd_backend::BackendOptions backend_options;
    std::string socket;
    std::optional<nd_mcp::ControlFds> control;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--backend" && i + 1 < args.size())
            backend_options.name = args[++i];
        else if (args[i] == "--socket" && i + 1 < args.size())
            socket = args[++i];
        else if ((args[i] == "--control-fd" && i + 1 < args.size()) || args[i].rfind("--control-fd=", 0) == 0) {
            const std::string value = args[i] == "--control-fd" ? args[++i] : args[i].substr(13);
            std::string error;
            control = nd_mcp::parse_control_fds(value, error);
            if (!control) {
                std::cerr << "shuttle daemon: " << error << "\n" << USAGE;
                return 2;
            }
            // The runtime, plugins and services the daemon starts must not inherit the host's pipe.
            nd_mcp::close_control_fds_on_exec(*control);
        } else {
            std::cerr << "shuttle daemon: unknown argument " << args[i] << "\n" << USAGE;
            return 2;
        }
    }
    if (socket.empty()) {
        auto endpoint = nd_desk::wire::default_endpoint();
        if (!endpoint) {
            std::cerr << "shuttle daemon: " << endpoint.error().message << "\n";
            return 2;
        }
        socket = *endpoint;
    }
    nd_desk::DaemonOptions options;
    options.endpoint = socket;
    options.control = control;
    const std::string config_path = nd_desk::config_path();
    auto config = nd_desk::load_config(config_path);
    if (config)
        options.config = std::move(config).value();
    else {
        options.config_error = config.error().message;
        std::cerr << "shuttle daemon: " << options.config_error << "; every call but safety_stop and safety_resume answers it\n";
    }
    auto backend = nd_backend::open_backend(backend_options);
    if (!backend) {
        std::cerr << "shuttle daemon: " << backend.error().message << "\n";
        return 1;
    }
    auto daemon = nd_desk::Daemon::open(**backend, std::move(options));
    if (!daemon) {
        std::cerr << "shuttle daemon: " << daemon.error().message << "\n";
        return 1;
    }
    // Children (the runtime, plugins, services) find the daemon through the same variable.
    ::setenv("SHUTTLE_SOCKET", socket.c_str(), 1);
    g_daemon = daemon->get();
    struct sigaction sa{};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGTERM, &sa, nullptr);
    ::sigaction(SIGINT, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
    for (const auto& line : (*daemon)->plugins().log_lines())
        std::cerr << "shuttle daemon: " << line << "\n";
    std::cerr << "shuttle daemon: listening on " << socket << " (backend " << (*backend)->name() << ")\n";
    (*daemon)->run();
    g_daemon = nullptr;
    return 0;
}

// Every desk verb with the first sentence of its description, from the registry.
void print_verbs()
{
    std::cout << "\nDesk verbs (shuttle desk VERB; MCP tools desk_VERB; docs/desk-verbs.md):\n";
    for (const auto& def : nd_desk::desk_verbs()) {
        auto name = def.decl.name;
        if (name.rfind("desk_", 0) == 0)
            name = name.substr(5);
        auto line = def.decl.description.substr(0, def.decl.description.find(". "));
        if (line.size() > 90)
            line = line.substr(0, line.rfind(' ', 87)) + "...";
        name.resize(std::max<std::size_t>(name.size() + 2, 16), ' ');
        std::cout << "  " << name << line << (line.ends_with('.') || line.ends_with("...") ? "" : ".") << "\n";
    }
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << USAGE;
        if (!args.empty())
            print_verbs();
        return args.empty() ? 2 : 0;
    }
    const std::string command = args[0];
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "--version") {
        std::cout << "shuttle " << nd_core::DRIVER_VERSION << "\n";
        return 0;
    }
    std::signal(SIGPIPE, SIG_IGN);
    if (command == "daemon")
        return run_daemon(rest);
    if (command == "desk")
        return nd_desk::run_desk_cli(rest);
    if (command == "mcp")
        return nd_desk::run_mcp_front(rest);
    if (command == "plugins")
        return nd_desk::run_plugins_cli(rest);
    if (command == "stop" || command == "resume")
        return nd_desk::run_safety(command == "stop");
    std::cerr << "shuttle: unknown command " << command << "\n" << USAGE;
    return 2;
}

// nish-driver: the model-facing driver of the in&space driver contract. Argument parsing only;
// everything else lives in the engine and the driver front.

#include "core/engine/audit.h"
#include "core/backend/consent.h"
#include "core/engine/engine.h"
#include "core/backend/registry.h"
#include "core/version.h"
#include "backend/backend_select.h"
#include "driver/control/control_pipe.h"
#include "driver/daemon/daemon_endpoint.h"
#include "driver/daemon/driver_daemon.h"
#include "driver/daemon/stdio_relay.h"
#include "driver/dispatcher.h"
#include "driver/manifest.h"
#include "mcp/control_fds.h"
#include "mcp/mcp_server.h"

#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <unistd.h>

namespace {

constexpr const char* USAGE = R"(usage:
  nish-driver mcp [--backend auto|mock|linux] [--consent auto] [--fixtures DIR] [--control-fd IN,OUT]
  nish-driver mcp --connect [--socket PATH] [--backend auto|mock|linux]
      Serves the contract's MCP tools on stdin/stdout (newline-delimited JSON-RPC).
      --connect   instead of its own engine, relays stdin/stdout to the running daemon of this
                  display (nish-driver daemon), so several hosts share one engine.
      --backend   auto (default) picks the platform backend; mock is the scripted test desktop.
      --consent   auto grants every consent request without asking: for tests and demos only.
                  Without it the person answers in the backend's own consent dialog (on X11
                  a window that takes only the person's own mouse click); a backend without one (mock)
                  denies every start_session.
      --fixtures  the mock desktop's fixture directory (default: the shipped fixtures).
      --control-fd IN,OUT
                  the host control pipe on two inherited descriptors: JSON lines in on IN
                  (takeover.resume, session.revoke, kill_switch), acks and the events
                  takeover.paused / takeover.resumed out on OUT. See docs/control-pipe.md.
  nish-driver daemon [--socket PATH] [--backend auto|mock|linux] [--consent auto] [--fixtures DIR]
      Serves the same tools to several MCP hosts over a unix socket (mode 0600), one daemon per
      display; each connection has its own session and consent. The socket also answers metadata
      (name, version, contract_version, backend, capabilities). Stops on SIGTERM or SIGINT.
      See docs/daemon.md.
      --socket    the socket's path (default: $NISH_DRIVER_SOCKET, else
                  $XDG_RUNTIME_DIR/nish-driver/daemon-<display>.sock; daemon-mock.sock for mock).
  nish-driver metadata [--socket PATH] [--backend auto|mock|linux]
      Prints the running daemon's metadata (JSON); exit status 1 when no daemon answers.
  nish-driver doctor [--json] [--backend auto|mock|linux]
      Reports whether the driver can run here; exit status 0 only when ready.
      --json      the whole report as JSON (docs/doctor.md); without it a summary and next steps.
  nish-driver manifest
      Prints the driver's manifest (JSON): name, version, contract_version, how to launch it, the
      MCP revisions, capabilities and control pipe, and every tool with its schemas. See docs/manifest.md.
  nish-driver --version
)";

// Consent when the backend has no dialog (the mock): nobody can say yes.
class NoConsent final : public nd_core::ConsentProvider {
public:
    std::string name() const override { return "none"; }
    nd_core::Result<nd_core::ConsentGrant> ask(const nd_core::ConsentRequest&) override
    {
        return nd_core::make_error(nd_core::ErrorCode::consent_denied,
            "this backend has no consent dialog; --consent auto grants everything (tests and demos only)");
    }
};

struct Options {
    std::string command;
    nd_backend::BackendOptions backend;
    std::string consent;
    bool json = false;
    std::optional<nd_mcp::ControlFds> control; // --control-fd IN,OUT
    std::string socket;                         // --socket PATH
    bool connect = false;                       // mcp --connect
};

bool parse(int argc, char** argv, Options& o, std::string& error)
{
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&](std::string& out) {
            if (i + 1 >= argc) {
                error = a + " needs a value";
                return false;
            }
            out = argv[++i];
            return true;
        };
        if (a == "--backend") {
            if (!value(o.backend.name))
                return false;
        } else if (a.rfind("--backend=", 0) == 0) {
            o.backend.name = a.substr(10);
        } else if (a == "--consent") {
            if (!value(o.consent))
                return false;
        } else if (a.rfind("--consent=", 0) == 0) {
            o.consent = a.substr(10);
        } else if (a == "--fixtures") {
            if (!value(o.backend.fixture_dir))
                return false;
        } else if (a == "--control-fd" || a.rfind("--control-fd=", 0) == 0) {
            std::string fds;
            if (a == "--control-fd") {
                if (!value(fds))
                    return false;
            } else {
                fds = a.substr(13);
            }
            o.control = nd_mcp::parse_control_fds(fds, error, "MCP uses them");
            if (!o.control)
                return false;
        } else if (a == "--socket") {
            if (!value(o.socket))
                return false;
        } else if (a.rfind("--socket=", 0) == 0) {
            o.socket = a.substr(9);
        } else if (a == "--connect") {
            o.connect = true;
        } else if (a == "--json") {
            o.json = true;
        } else if (o.command.empty() && a.size() && a[0] != '-') {
            o.command = a;
        } else if (a == "--version" || a == "-V" || a == "--help" || a == "-h") {
            o.command = a;
        } else {
            error = "unknown argument " + a;
            return false;
        }
    }
    if (!o.consent.empty() && o.consent != "auto") {
        error = "--consent takes only auto";
        return false;
    }
    if (o.connect && (!o.consent.empty() || o.control || !o.backend.fixture_dir.empty())) {
        error = "--connect uses the daemon's engine: --consent, --fixtures and --control-fd belong to `nish-driver daemon`";
        return false;
    }
    return true;
}

int run_doctor(const Options& o)
{
    nd_core::RegistryReport report;
    auto backend = nd_backend::open_backend(o.backend);
    if (backend.ok())
        report = (*backend)->registry();
    else
        report = nd_backend::platform_report_without_backend();
    auto doc = nd_core::doctor_report(report);
    if (o.json) {
        std::cout << doc.dump(2) << "\n";
    } else {
        std::cout << "nish-driver " << nd_core::DRIVER_VERSION << " (contract " << nd_core::CONTRACT_VERSION
                  << "): " << (report.ready() ? "ready" : "not ready") << "\n";
        for (const auto& step : doc["next_steps"])
            std::cout << "  - " << step.value("action", "") << "\n";
    }
    return report.ready() ? 0 : 1;
}

constexpr const char* INSTRUCTIONS =
    "Call start_session first. For dense apps read get_window_state with skeleton: true, then drill down with "
    "root: <token>. Act with element tokens; after a structure change, read again. Failed calls carry "
    "error.disposition.retry and one suggestion.";

// Who answers consent: everything with --consent auto, else the backend's dialog, else nobody.
nd_core::ConsentProvider& pick_consent(const Options& o, nd_core::Backend& backend)
{
    static nd_core::AutoConsent auto_consent;
    static NoConsent no_consent;
    if (o.consent == "auto")
        return auto_consent;
    if (auto* dialog = backend.consent_dialog())
        return *dialog;
    return no_consent;
}

nd_driver::DriverDaemon* g_daemon = nullptr;

void stop_daemon(int)
{
    if (g_daemon)
        g_daemon->request_stop();
}

int run_daemon(const Options& o)
{
    auto backend = nd_backend::open_backend(o.backend);
    if (!backend.ok()) {
        std::cerr << "nish-driver: " << backend.error().text() << "\n";
        return 2;
    }
    std::string socket = o.socket;
    if (socket.empty()) {
        auto endpoint = nd_driver::daemon_endpoint((*backend)->name());
        if (!endpoint.ok()) {
            std::cerr << "nish-driver daemon: " << endpoint.error().text() << "\n";
            return 2;
        }
        socket = *endpoint;
    }
    nd_core::AuditLog audit(nd_core::AuditLog::default_path());
    nd_driver::DriverDaemonOptions options;
    options.socket = socket;
    const char* display = std::getenv("DISPLAY");
    options.display = (*backend)->name() == "mock" ? "mock" : (display ? display : "");
    options.instructions = INSTRUCTIONS;
    auto daemon = nd_driver::DriverDaemon::open(**backend, pick_consent(o, **backend), audit, options);
    if (!daemon.ok()) {
        std::cerr << "nish-driver daemon: " << daemon.error().text() << "\n";
        return 2;
    }
    g_daemon = daemon->get();
    struct sigaction stop {};
    stop.sa_handler = stop_daemon;
    sigemptyset(&stop.sa_mask);
    ::sigaction(SIGTERM, &stop, nullptr);
    ::sigaction(SIGINT, &stop, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
    std::cerr << "nish-driver daemon: listening on " << socket << "\n";
    (*daemon)->run();
    g_daemon = nullptr;
    return 0;
}

int run_connect(const Options& o)
{
    auto fd = nd_driver::connect_daemon(o.socket, o.backend.name);
    if (!fd.ok()) {
        std::cerr << "nish-driver mcp --connect: " << fd.error().message << "\n";
        return 1;
    }
    const int status = nd_driver::relay_stdio(*fd);
    ::close(*fd);
    return status;
}

int run_metadata(const Options& o)
{
    auto fd = nd_driver::connect_daemon(o.socket, o.backend.name);
    if (!fd.ok()) {
        std::cerr << "nish-driver metadata: " << fd.error().message << "\n";
        return 1;
    }
    const std::string request = R"({"jsonrpc":"2.0","id":1,"method":"metadata"})" "\n";
    std::string reply;
    if (::write(*fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
        char buffer[4096];
        for (ssize_t n; reply.find('\n') == std::string::npos && (n = ::read(*fd, buffer, sizeof buffer)) > 0;)
            reply.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(*fd);
    auto doc = nlohmann::json::parse(reply, nullptr, false);
    if (doc.is_discarded() || !doc.contains("result")) {
        std::cerr << "nish-driver metadata: the daemon gave no metadata\n";
        return 1;
    }
    std::cout << doc["result"].dump(2) << "\n";
    return 0;
}

int run_mcp(const Options& o)
{
    if (o.connect)
        return run_connect(o);
    auto backend = nd_backend::open_backend(o.backend);
    if (!backend.ok()) {
        std::cerr << "nish-driver: " << backend.error().text() << "\n";
        return 2;
    }
    nd_core::AuditLog audit(nd_core::AuditLog::default_path());
    nd_core::Engine engine(**backend, pick_consent(o, **backend), audit);
    nd_driver::Dispatcher dispatcher(engine);
    nd_mcp::McpServerOptions server_options;
    server_options.instructions = INSTRUCTIONS;
    std::optional<nd_driver::ControlPipe> control;
    if (o.control) {
        // Apps this driver starts must not inherit the host's pipe.
        nd_mcp::close_control_fds_on_exec(*o.control);
        control.emplace(engine, o.control->in, o.control->out);
        if (auto started = control->start(); !started.ok()) {
            std::cerr << "nish-driver: " << started.error().text() << "\n";
            return 2;
        }
        dispatcher.set_approvals(&control->approvals());
    }
    nd_mcp::McpServer server(dispatcher, STDIN_FILENO, STDOUT_FILENO, server_options);
    return server.run();
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    std::string error;
    if (!parse(argc, argv, o, error)) {
        std::cerr << "nish-driver: " << error << "\n" << USAGE;
        return 2;
    }
    if (o.command == "--version" || o.command == "-V") {
        std::cout << "nish-driver " << nd_core::DRIVER_VERSION << " (contract " << nd_core::CONTRACT_VERSION << ")\n";
        return 0;
    }
    if (o.command == "--help" || o.command == "-h" || o.command == "help") {
        std::cout << USAGE;
        return 0;
    }
    if (o.command == "mcp")
        return run_mcp(o);
    if (o.command == "doctor")
        return run_doctor(o);
    if (o.command == "daemon")
        return run_daemon(o);
    if (o.command == "metadata")
        return run_metadata(o);
    if (o.command == "manifest") {
        std::cout << nd_driver::manifest().dump(2) << "\n";
        return 0;
    }
    std::cerr << "nish-driver: " << (o.command.empty() ? "no command given" : "unknown command " + o.command) << "\n"
              << USAGE;
    return 2;
}

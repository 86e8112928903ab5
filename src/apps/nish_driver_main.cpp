// nish-driver: the model-facing driver of the in&space driver contract. Argument parsing only;
// everything else lives in the engine and the driver front.

#include "core/engine/audit.h"
#include "core/backend/consent.h"
#include "core/engine/engine.h"
#include "core/backend/registry.h"
#include "core/version.h"
#include "backend/backend_select.h"
#include "driver/control/control_pipe.h"
#include "driver/dispatcher.h"
#include "driver/manifest.h"
#include "mcp/control_fds.h"
#include "mcp/mcp_server.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <unistd.h>

namespace {

constexpr const char* USAGE = R"(usage:
  nish-driver mcp [--backend auto|mock|linux] [--consent auto] [--fixtures DIR] [--control-fd IN,OUT]
      Serves the contract's MCP tools on stdin/stdout (newline-delimited JSON-RPC).
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
  nish-driver doctor [--json] [--backend auto|mock|linux]
      Reports whether the driver can run here; exit status 0 only when ready.
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

int run_mcp(const Options& o)
{
    auto backend = nd_backend::open_backend(o.backend);
    if (!backend.ok()) {
        std::cerr << "nish-driver: " << backend.error().text() << "\n";
        return 2;
    }
    nd_core::AutoConsent auto_consent;
    NoConsent no_consent;
    nd_core::ConsentProvider* dialog = (*backend)->consent_dialog();
    nd_core::ConsentProvider& consent = o.consent == "auto" ? static_cast<nd_core::ConsentProvider&>(auto_consent)
        : dialog                                            ? *dialog
                                                            : static_cast<nd_core::ConsentProvider&>(no_consent);
    nd_core::AuditLog audit(nd_core::AuditLog::default_path());
    nd_core::Engine engine(**backend, consent, audit);
    nd_driver::Dispatcher dispatcher(engine);
    nd_mcp::McpServerOptions server_options;
    server_options.instructions =
        "Call start_session first. For dense apps read get_window_state with skeleton: true, then drill down with "
        "root: <token>. Act with element tokens; after a structure change, read again. Failed calls carry "
        "error.disposition.retry and one suggestion.";
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
    if (o.command == "manifest") {
        std::cout << nd_driver::manifest().dump(2) << "\n";
        return 0;
    }
    std::cerr << "nish-driver: " << (o.command.empty() ? "no command given" : "unknown command " + o.command) << "\n"
              << USAGE;
    return 2;
}

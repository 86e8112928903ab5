#pragma once

// `shuttle daemon` (docs/desk.md): listens on the desk wire's unix socket and serves every client at
// once, a thread per connection, one call at a time per connection. It routes each frame by its
// tool (read before the full decode): safety_stop and safety_resume, answered only to a peer of the
// daemon's own uid (SO_PEERCRED); then, unless config.toml failed to load or a safety stop is on, the
// desk verbs, the model tools, script_run and the plugins' tools (read from the plugin directory
// when it starts). A
// failure is a response with is_error: true, never a closed connection, except for a frame larger
// than the wire allows (the stream cannot be resynced after it). A service plugin's tool is routed
// before the full decode (services/service_router.h): its connection then belongs to the service,
// which the daemon keeps running while it serves (services/service_supervisor.h).

#include "desk/config.h"
#include "desk/daemon/call_watcher.h"
#include "desk/daemon/host_control.h"
#include "desk/desk.h"
#include "desk/models/model_client.h"
#include "desk/models/model_tool.h"
#include "desk/plugins/plugin_set.h"
#include "desk/script/run_owner.h"
#include "desk/services/service_router.h"
#include "desk/services/service_supervisor.h"
#include "desk/wire/wire.h"
#include "mcp/control_fds.h"

#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace nd_desk {

struct DaemonOptions {
    std::string endpoint;                   // the socket path
    std::optional<DeskConfig> config;       // loaded
    std::string config_error;               // or why it did not load (then every call but safety_* answers it)
    std::size_t max_connections = 256;
    // The services' restarts and stop, and how long a call waits for its service to listen
    // (the seed's figures by default; tests shorten them).
    ServicePolicy service_policy;
    std::chrono::milliseconds service_connect_wait = SERVICE_CONNECT_WAIT;
    // Where the daemon's log lines go (services starting and exiting, model calls); stderr when unset.
    std::function<void(const std::string&)> log;
    // Where the model tools read their key: the daemon's environment unless a test says otherwise.
    ModelClient::KeyLookup model_keys = ModelClient::environment_key;
    // --control-fd IN,OUT: the host's control channel (host_control.h), which then answers confirm
    // mode's questions and may raise or lift the safety stop. The caller keeps both open.
    std::optional<nd_mcp::ControlFds> control;
    HostControlOptions control_options;
};

struct PeerCred {
    int pid = -1;
    unsigned uid = ~0u;
};

class Daemon {
public:
    // Binds the socket (mode 0600, or 0660 owned by [daemon] socket_group), making its directory
    // (0700) when missing. A socket file left by a daemon that died is replaced; a live daemon at
    // the same path is an error.
    static nd_core::Result<std::unique_ptr<Daemon>> open(nd_core::Backend& backend, DaemonOptions options);
    ~Daemon();
    Daemon(const Daemon&) = delete;
    Daemon& operator=(const Daemon&) = delete;

    // Serves until request_stop(); then closes every connection and joins their threads.
    void run();
    // Async-signal-safe: writes to an eventfd.
    void request_stop();

    const std::string& endpoint() const { return m_options.endpoint; }
    Desk& desk() { return *m_desk; }
    // The host's control channel; null without --control-fd.
    HostControl* host_control() { return m_host.get(); }
    // The plugin directory as it was read when the daemon started (empty when config.toml did not load).
    const PluginSet& plugins() const { return m_plugins; }
    // The services it runs (none when config.toml did not load).
    std::vector<ServiceStatus> services() const { return m_supervisor->status(); }

    // One request payload to its response (what a connection does per frame); public for tests
    // and benchmarks that bypass the socket.
    wire::Response handle(std::string_view payload, const PeerCred&, std::atomic<bool>* gone, int fd);

private:
    Daemon(nd_core::Backend&, DaemonOptions);
    // safety_stop (true) or safety_resume (false), from the wire or the host's control channel.
    void set_safety_stop(bool stop);
    void serve(int fd);
    void reap_finished();
    // A service tool's call on `fd` (daemon_service.cpp): true when the connection goes on (the
    // call was refused with an error frame), false when the relay ran and the connection is over.
    bool serve_service_call(int fd, std::string_view payload, const ServiceRoute&);
    // What every service is started with: the endpoint, the home directory, the hidden variables.
    static ServiceLaunch service_launch(const DaemonOptions&);
    // script_run, a plugin's tool with its bin in Node's place, or (plan) gui_plan's executor
    // (daemon_script.cpp): claims the desk, runs the script, answers its report or the plan's result.
    wire::Response run_script_call(const wire::Request&, const Plugin* plugin, std::atomic<bool>* gone, int fd,
        bool plan = false);
    // model_decide, model_ask or model_ground (daemon_model.cpp): one call through m_models, ended by
    // a stop or the client going away, with a log line that holds no prompt, answer or key.
    wire::Response run_model_call(const wire::Request&, const ModelToolDef&, std::atomic<bool>* gone, int fd);

    DaemonOptions m_options;
    std::unique_ptr<Desk> m_desk;
    std::unique_ptr<CallWatcher> m_watcher;
    PluginSet m_plugins;
    std::unique_ptr<ServiceRouter> m_router;
    std::unique_ptr<ServiceSupervisor> m_supervisor;
    std::unique_ptr<ModelClient> m_models;
    std::unique_ptr<HostControl> m_host; // the desk's confirm provider while it lives
    RunOwner m_runs;
    std::atomic<std::uint64_t> m_run_count{0};
    int m_listen = -1;
    int m_stop_fd = -1;
    std::atomic<bool> m_stopping{false};

    struct Connection {
        int fd = -1;
        std::thread thread;
        std::atomic<bool> done{false};
    };
    std::mutex m_connections_mutex;
    std::list<Connection> m_connections;
};

} // namespace nd_desk

#pragma once

// `nish-driver daemon` (docs/daemon.md): one engine library serving the contract's MCP tools to
// several hosts over a unix socket (0600), one daemon per display. Each connection is its own MCP
// connection with its own engine, session and consent, over a view of the one backend
// (shared_display.h); a thread per connection, one call at a time on the display. Beyond MCP the
// socket answers `metadata`, and every other method, takeover.resume included, with
// unknown_method (daemon_methods.h). Only a peer of the daemon's own uid is served.

#include "core/backend/backend.h"
#include "core/backend/consent.h"
#include "core/engine/audit.h"
#include "core/result.h"
#include "driver/daemon/shared_display.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace nd_driver {

struct DriverDaemonOptions {
    std::string socket;  // the path to listen on (daemon_endpoint.h)
    std::string display; // the display served, for metadata
    std::string instructions;
    std::size_t max_connections = 64;
    // An answer the client does not take within this drops its connection.
    std::chrono::milliseconds write_timeout{10000};
};

class DriverDaemon {
public:
    // Binds the socket; a live daemon at the same path is an error (one per display), a socket
    // file left by one that died is replaced.
    static nd_core::Result<std::unique_ptr<DriverDaemon>> open(
        nd_core::Backend&, nd_core::ConsentProvider&, nd_core::AuditLog&, DriverDaemonOptions);
    ~DriverDaemon();
    DriverDaemon(const DriverDaemon&) = delete;
    DriverDaemon& operator=(const DriverDaemon&) = delete;

    // Serves until request_stop(); then ends every connection (their sessions end, the indicator
    // goes) and joins their threads. Removes the socket file.
    void run();
    // Async-signal-safe.
    void request_stop();

    const std::string& socket() const { return m_options.socket; }

private:
    struct Connection {
        int fd = -1;
        std::thread thread;
        std::atomic<bool> done{false};
    };

    DriverDaemon(nd_core::Backend&, nd_core::ConsentProvider&, nd_core::AuditLog&, DriverDaemonOptions);
    void accept_one();
    void serve(Connection&, std::int64_t number);
    void reap(bool all);
    nlohmann::json metadata();

    nd_core::Backend& m_backend;
    nd_core::ConsentProvider& m_consent;
    nd_core::AuditLog& m_audit;
    DriverDaemonOptions m_options;
    SharedDisplay m_display;
    int m_listen = -1;
    int m_stop = -1; // eventfd
    std::chrono::steady_clock::time_point m_started;
    std::int64_t m_accepted = 0;
    std::mutex m_connections_mutex;
    std::list<Connection> m_connections;
};

} // namespace nd_driver

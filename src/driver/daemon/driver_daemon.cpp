#include "driver/daemon/driver_daemon.h"

#include "core/engine/engine.h"
#include "driver/daemon/daemon_methods.h"
#include "driver/dispatcher.h"
#include "mcp/mcp_server.h"
#include "mcp/unix_socket.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace nd_driver {

namespace {

void log_line(const std::string& message) { std::fprintf(stderr, "nish-driver daemon: %s\n", message.c_str()); }

// A connection's tool host: the dispatcher, with every call that may reach the backend run alone
// on the display.
class SerializedHost final : public nd_mcp::ToolHost {
public:
    SerializedHost(Dispatcher& dispatcher, std::mutex& calls) : m_dispatcher(dispatcher), m_calls(calls) {}

    nlohmann::json list_tools() override { return m_dispatcher.list_tools(); }
    bool has_tool(std::string_view name) override { return m_dispatcher.has_tool(name); }
    nd_mcp::ToolOutput call_tool(std::string_view name, const nlohmann::json& arguments, const nd_mcp::CallContext& call) override
    {
        std::lock_guard lock(m_calls);
        return m_dispatcher.call_tool(name, arguments, call);
    }
    void set_client_name(std::string_view name) override { m_dispatcher.set_client_name(name); }
    void connection_closed() override
    {
        std::lock_guard lock(m_calls);
        m_dispatcher.connection_closed();
    }

private:
    Dispatcher& m_dispatcher;
    std::mutex& m_calls;
};

} // namespace

DriverDaemon::DriverDaemon(
    nd_core::Backend& backend, nd_core::ConsentProvider& consent, nd_core::AuditLog& audit, DriverDaemonOptions options)
    : m_backend(backend)
    , m_consent(consent)
    , m_audit(audit)
    , m_options(std::move(options))
    , m_display(backend)
    , m_started(std::chrono::steady_clock::now())
{
}

nd_core::Result<std::unique_ptr<DriverDaemon>> DriverDaemon::open(
    nd_core::Backend& backend, nd_core::ConsentProvider& consent, nd_core::AuditLog& audit, DriverDaemonOptions options)
{
    std::unique_ptr<DriverDaemon> daemon(new DriverDaemon(backend, consent, audit, std::move(options)));
    daemon->m_stop = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (daemon->m_stop < 0)
        return nd_core::make_error(nd_core::ErrorCode::backend_unavailable, std::string("cannot make an eventfd: ") + std::strerror(errno));
    daemon->m_listen = TRY(nd_mcp::listen_unix(daemon->m_options.socket));
    return daemon;
}

DriverDaemon::~DriverDaemon()
{
    reap(true);
    nd_mcp::unlisten_unix(m_listen, m_options.socket);
    if (m_stop >= 0)
        ::close(m_stop);
}

void DriverDaemon::request_stop()
{
    const std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(m_stop, &one, sizeof one);
}

void DriverDaemon::run()
{
    for (;;) {
        pollfd fds[2] = {{m_listen, POLLIN, 0}, {m_stop, POLLIN, 0}};
        // A second's timeout lets finished connections be reaped while nobody connects.
        const int ready = ::poll(fds, 2, 1000);
        if (ready < 0 && errno != EINTR) {
            log_line(std::string("poll failed: ") + std::strerror(errno));
            break;
        }
        if (fds[1].revents & POLLIN)
            break;
        if (fds[0].revents & POLLIN)
            accept_one();
        reap(false);
    }
    reap(true);
}

void DriverDaemon::accept_one()
{
    const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0)
        return;
    // The socket is 0600 already; a peer of another uid (root, or a group socket someone made)
    // is still not served: consent and the person's desktop are this user's.
    const auto peer = nd_mcp::peer_credentials(fd);
    if (!peer || peer->uid != ::getuid()) {
        log_line("refused a connection from another user");
        ::close(fd);
        return;
    }
    std::lock_guard lock(m_connections_mutex);
    if (m_connections.size() >= m_options.max_connections) {
        log_line("refused a connection: " + std::to_string(m_options.max_connections) + " are open already");
        ::close(fd);
        return;
    }
    auto& connection = m_connections.emplace_back();
    connection.fd = fd;
    const std::int64_t number = ++m_accepted;
    try {
        connection.thread = std::thread([this, &connection, number] { serve(connection, number); });
    } catch (const std::system_error& e) {
        log_line(std::string("cannot start a connection's thread: ") + e.what());
        ::close(fd);
        m_connections.pop_back();
    }
}

void DriverDaemon::serve(Connection& connection, std::int64_t number)
{
    {
        auto view = m_display.view();
        nd_core::EngineOptions engine_options;
        engine_options.session_tag = std::to_string(number);
        nd_core::Engine engine(*view, m_consent, m_audit, engine_options);
        Dispatcher dispatcher(engine);
        SerializedHost host(dispatcher, m_display.calls());
        nd_mcp::McpServerOptions options;
        options.instructions = m_options.instructions;
        options.log_prefix = "nish-driver daemon (connection " + std::to_string(number) + ")";
        options.write_timeout = m_options.write_timeout;
        options.extra_method = [this](const nd_mcp::RpcRequest& request) -> std::optional<nlohmann::json> {
            if (request.method == "metadata")
                return metadata();
            return std::nullopt;
        };
        options.not_found_data = unknown_method_error;
        nd_mcp::McpServer server(host, connection.fd, connection.fd, options);
        server.run();
    }
    // The peer hears the end now; the descriptor itself closes once the thread is joined.
    ::shutdown(connection.fd, SHUT_RDWR);
    connection.done.store(true);
}

void DriverDaemon::reap(bool all)
{
    std::list<Connection> finished;
    {
        std::lock_guard lock(m_connections_mutex);
        for (auto it = m_connections.begin(); it != m_connections.end();) {
            auto next = std::next(it);
            if (all && !it->done.load())
                ::shutdown(it->fd, SHUT_RDWR); // its reader sees end of file, a blocked write fails
            if (all || it->done.load())
                finished.splice(finished.end(), m_connections, it);
            it = next;
        }
    }
    // Joined without the lock: a connection still answering metadata takes it.
    for (auto& connection : finished) {
        if (connection.thread.joinable())
            connection.thread.join();
        ::close(connection.fd);
    }
}

nlohmann::json DriverDaemon::metadata()
{
    DaemonFacts facts;
    facts.backend = m_backend.name();
    facts.session_type = m_backend.session_type();
    facts.display = m_options.display;
    facts.socket = m_options.socket;
    facts.uptime_s = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - m_started).count();
    {
        std::lock_guard lock(m_connections_mutex);
        facts.connections = static_cast<std::int64_t>(m_connections.size());
    }
    std::lock_guard calls(m_display.calls());
    return daemon_metadata(facts, m_backend.registry());
}

} // namespace nd_driver

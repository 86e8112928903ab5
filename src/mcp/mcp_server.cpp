#include "mcp/mcp_server.h"

#include "mcp/fd_write.h"
#include "mcp/line_reader.h"
#include "mcp/mcp_routing.h"
#include "mcp/progress.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace nd_mcp {

namespace {

// Diagnostics go to stderr: stdout belongs to the protocol.
void log_line(const std::string& prefix, const std::string& message)
{
    std::fprintf(stderr, "%s: %s\n", prefix.c_str(), message.c_str());
}

} // namespace

McpServer::McpServer(ToolHost& host, int input_fd, int output_fd, McpServerOptions options)
    : m_host(host)
    , m_input_fd(input_fd)
    , m_output_fd(output_fd)
    , m_options(std::move(options))
    , m_info{m_options.name, m_options.version, m_options.instructions, host.has_resources(), m_options.extra_method,
          m_options.not_found_data}
{
    // The wake pipe lets request_stop() and a closed output interrupt a reader blocked in poll().
    if (::pipe2(m_wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        log_line(m_options.log_prefix, std::string("cannot create the wake pipe: ") + std::strerror(errno));
        m_wake_pipe[0] = m_wake_pipe[1] = -1;
    }
}

McpServer::~McpServer()
{
    for (int fd : m_wake_pipe) {
        if (fd >= 0)
            ::close(fd);
    }
}

int McpServer::run()
{
    if (m_wake_pipe[0] < 0) {
        m_host.connection_closed();
        return 1;
    }
    // A whole-window read answers a megabyte or more: a pipe to the client that holds it whole
    // spares both sides a wake-up per 64 KiB. Not a pipe, or the system's limit: as it is.
    (void)::fcntl(m_output_fd, F_SETPIPE_SZ, 1 << 20);
    // A client that goes away closes our stdout; that must end the server, not kill the process.
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, nullptr);

    std::thread worker;
    try {
        worker = std::thread([this] { worker_loop(); });
    } catch (const std::system_error& e) {
        log_line(m_options.log_prefix, std::string("cannot start the worker thread: ") + e.what());
        m_host.connection_closed();
        return 1;
    }

    LineReader reader(m_input_fd, m_wake_pipe[0], m_options.max_line_bytes);
    const std::string too_long = "Invalid Request: line exceeds the " + std::to_string(m_options.max_line_bytes)
        + "-byte limit (max_line_bytes)";
    std::string line;
    int exit_code = 0;
    bool reading = true;
    while (reading && !m_stop_requested.load() && !m_output_closed.load()) {
        switch (reader.next(line)) {
        case LineReader::Status::Line:
            // The line's parse already stops library exceptions; this keeps an allocation
            // failure on one request from taking down the connection.
            try {
                handle_line(line);
            } catch (const std::exception& e) {
                log_line(m_options.log_prefix, std::string("dropped a request line: ") + e.what());
            }
            break;
        case LineReader::Status::TooLong:
            log_line(m_options.log_prefix, "skipped a request line longer than " + std::to_string(m_options.max_line_bytes) + " bytes");
            send(rpc_error_line("null", RPC_INVALID_REQUEST, too_long));
            break;
        case LineReader::Status::End:
        case LineReader::Status::Stopped: reading = false; break;
        case LineReader::Status::Failed:
            log_line(m_options.log_prefix, std::string("reading the input failed: ") + std::strerror(errno));
            exit_code = 1;
            reading = false;
            break;
        }
    }

    {
        std::lock_guard lock(m_queue_mutex);
        m_input_done = true;
    }
    m_queue_changed.notify_all();
    worker.join();
    m_host.connection_closed();
    return exit_code;
}

void McpServer::request_stop()
{
    m_stop_requested.store(true);
    drop_queue_and_wake();
}

void McpServer::handle_line(std::string_view line)
{
    LineAction action = route_line(line, m_info);
    switch (action.kind) {
    case LineAction::Kind::none: break;
    case LineAction::Kind::reply: send(action.reply); break;
    case LineAction::Kind::cancel: cancel_request(action.cancel_id); break;
    case LineAction::Kind::enqueue: enqueue(std::move(action.request), std::move(action.era)); break;
    }
}

void McpServer::cancel_request(const nlohmann::json& request_id)
{
    // route_line passes only string and integer ids. MCP forbids cancelling initialize; a cancel for an unknown or finished request is ignored.
    auto matches = [&](const std::shared_ptr<Pending>& pending) {
        return pending->request.id == request_id && pending->request.method != "initialize";
    };
    std::lock_guard lock(m_queue_mutex);
    if (m_running && matches(m_running)) {
        m_running->cancelled.store(true);
        return;
    }
    auto it = std::find_if(m_queue.begin(), m_queue.end(), matches);
    if (it != m_queue.end())
        m_queue.erase(it);
}

void McpServer::enqueue(RpcRequest&& request, EraClaim&& era)
{
    auto pending = std::make_shared<Pending>();
    pending->request = std::move(request);
    pending->era = std::move(era);
    {
        std::lock_guard lock(m_queue_mutex);
        m_queue.push_back(std::move(pending));
    }
    m_queue_changed.notify_one();
}

void McpServer::worker_loop()
{
    for (;;) {
        std::shared_ptr<Pending> pending;
        {
            std::unique_lock lock(m_queue_mutex);
            m_queue_changed.wait(lock, [this] {
                return !m_queue.empty() || m_input_done || m_output_closed.load() || m_stop_requested.load();
            });
            if (m_output_closed.load() || m_stop_requested.load() || m_queue.empty())
                return;
            pending = std::move(m_queue.front());
            m_queue.pop_front();
            m_running = pending;
        }
        std::string response = execute(*pending);
        bool cancelled;
        {
            // Deciding under the lock that clears m_running makes a cancel either suppress this
            // reply or arrive after the request finished (and be ignored), never half of each.
            std::lock_guard lock(m_queue_mutex);
            m_running.reset();
            cancelled = pending->cancelled.load();
        }
        if (!cancelled)
            send(response);
    }
}

std::string McpServer::execute(Pending& pending)
{
    const RpcRequest& request = pending.request;
    CallContext context;
    context.cancelled = &pending.cancelled;
    std::optional<ProgressNotifier> progress;
    if (auto token = progress_token_json(request.params); !token.empty()) {
        progress.emplace(std::move(token), [this](std::string_view line) { send(line); }, &pending.cancelled);
        context.progress = &*progress;
    }
    // ToolHost promises not to throw; this is the edge where a broken promise becomes a reply.
    try {
        // A modern request names its client on every call, a legacy client once in initialize.
        set_client_name(request_client_name(request, pending.era));
        return answer_request(request, pending.era, m_host, m_info, context);
    } catch (const std::exception& e) {
        log_line(m_options.log_prefix, "request " + request.method.substr(0, 128) + " failed: " + e.what());
    } catch (...) {
        log_line(m_options.log_prefix, "request " + request.method.substr(0, 128) + " failed");
    }
    return rpc_error_line(request.id_json, RPC_INTERNAL_ERROR, "Internal error");
}

void McpServer::set_client_name(const std::optional<std::string>& name)
{
    // The host hears of a change only.
    if (!name || *name == m_client_name)
        return;
    m_client_name = *name;
    m_host.set_client_name(m_client_name);
}

bool McpServer::send(std::string_view line)
{
    std::unique_lock lock(m_write_mutex);
    if (m_output_closed.load())
        return false;
    std::optional<std::chrono::steady_clock::time_point> deadline;
    if (m_options.write_timeout)
        deadline = std::chrono::steady_clock::now() + *m_options.write_timeout;
    const int error = write_all(m_output_fd, line, deadline);
    if (error == 0)
        return true;
    if (error != EPIPE && error != ECONNRESET)
        log_line(m_options.log_prefix, std::string("writing the output failed: ") + std::strerror(error));
    m_output_closed.store(true);
    lock.unlock();
    output_closed();
    return false;
}

void McpServer::output_closed() { drop_queue_and_wake(); }

void McpServer::drop_queue_and_wake()
{
    {
        std::lock_guard lock(m_queue_mutex);
        m_queue.clear();
        if (m_running)
            m_running->cancelled.store(true);
    }
    m_queue_changed.notify_all();
    wake_reader();
}

void McpServer::wake_reader()
{
    if (m_wake_pipe[1] < 0)
        return;
    char byte = 1;
    // A full pipe already wakes the reader, so EAGAIN needs no retry.
    [[maybe_unused]] auto n = ::write(m_wake_pipe[1], &byte, 1);
}

} // namespace nd_mcp

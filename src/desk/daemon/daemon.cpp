#include "desk/daemon/daemon.h"

#include "mcp/unix_socket.h"
#include "desk/verbs/verbs.h"
#include "desk/wire/frame_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;
namespace w = wire;

namespace {

// Once a frame's first byte arrived, the rest must follow within this.
constexpr std::chrono::seconds FRAME_REST_TIMEOUT{10};
// A response must be taken by its client within this, or the connection is dropped.
constexpr std::chrono::seconds WRITE_TIMEOUT{10};

PeerCred peer_of(int fd)
{
    PeerCred out;
    if (auto cred = nd_mcp::peer_credentials(fd)) {
        out.pid = cred->pid;
        out.uid = cred->uid;
    }
    return out;
}

// The answer to safety_stop and safety_resume; "halted" is the wire's field name, kept.
nlohmann::json ok_json(bool stopped) { return {{"halted", stopped}}; }

} // namespace

Daemon::Daemon(nd_core::Backend& backend, DaemonOptions options) : m_options(std::move(options))
{
    m_desk = std::make_unique<Desk>(backend, m_options.config.value_or(DeskConfig{}));
    // The person started the daemon to read their apps: the reader may listen from now on, so that
    // its second read of a window is warm (TreeReader::prepare).
    if (auto* trees = backend.trees())
        trees->prepare();
    if (m_options.config)
        m_plugins = load_plugins(plugins_dir(*m_options.config));
    if (!m_options.log)
        m_options.log = [](const std::string& line) { std::fprintf(stderr, "shuttle daemon: %s\n", line.c_str()); };
    m_router = std::make_unique<ServiceRouter>(m_plugins.services, m_options.endpoint, m_options.service_connect_wait);
    m_supervisor = std::make_unique<ServiceSupervisor>(m_plugins.services, service_launch(m_options), m_options.service_policy,
        m_options.log);
    m_watcher = std::make_unique<CallWatcher>(m_desk->safety_stop());
    m_models = std::make_unique<ModelClient>(m_options.config ? m_options.config->models : ModelsConfig{}, m_options.model_keys);
    m_stop_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

nd_core::Result<std::unique_ptr<Daemon>> Daemon::open(nd_core::Backend& backend, DaemonOptions options)
{
    std::optional<std::string> group;
    if (options.config)
        group = options.config->socket_group;
    std::unique_ptr<Daemon> daemon(new Daemon(backend, std::move(options)));
    if (daemon->m_stop_fd < 0 || !daemon->m_watcher->ok())
        return make_error(ErrorCode::internal_error, "the daemon could not make its event descriptors");
    daemon->m_listen = TRY(nd_mcp::listen_unix(daemon->m_options.endpoint, group));
    if (const auto& fds = daemon->m_options.control) {
        Daemon* d = daemon.get();
        d->m_host = std::make_unique<HostControl>(fds->in, fds->out, [d](bool stop) { d->set_safety_stop(stop); },
            d->m_options.control_options);
        TRY_VOID(d->m_host->start());
        // Before serving: every confirm question goes to the host from the first call on.
        d->m_desk->set_confirm_provider(d->m_host.get());
    }
    return daemon;
}

Daemon::~Daemon()
{
    request_stop();
    // First, so its reader raises no safety stop while the rest goes.
    if (m_host)
        m_host->stop();
    m_router->close_all();
    m_supervisor->stop();
    {
        std::lock_guard lock(m_connections_mutex);
        for (auto& c : m_connections)
            ::shutdown(c.fd, SHUT_RDWR);
    }
    for (auto& c : m_connections)
        if (c.thread.joinable())
            c.thread.join();
    m_desk->set_confirm_provider(nullptr);
    nd_mcp::unlisten_unix(m_listen, m_options.endpoint);
    if (m_stop_fd >= 0)
        ::close(m_stop_fd);
}

void Daemon::request_stop()
{
    m_stopping = true;
    if (m_stop_fd >= 0) {
        const std::uint64_t one = 1;
        [[maybe_unused]] auto n = ::write(m_stop_fd, &one, sizeof one);
    }
}

void Daemon::reap_finished()
{
    std::lock_guard lock(m_connections_mutex);
    for (auto it = m_connections.begin(); it != m_connections.end();) {
        if (it->done.load()) {
            if (it->thread.joinable())
                it->thread.join();
            it = m_connections.erase(it);
        } else {
            ++it;
        }
    }
}

void Daemon::run()
{
    m_supervisor->start();
    while (!m_stopping.load()) {
        pollfd fds[2] = {{m_listen, POLLIN, 0}, {m_stop_fd, POLLIN, 0}};
        if (::poll(fds, 2, 1000) < 0 && errno != EINTR)
            break;
        reap_finished();
        if (fds[1].revents & POLLIN)
            break;
        if (!(fds[0].revents & POLLIN))
            continue;
        const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        std::lock_guard lock(m_connections_mutex);
        if (m_connections.size() >= m_options.max_connections) {
            w::write_frame(fd, w::encode_response(w::error_text("the daemon serves " + std::to_string(m_options.max_connections) +
                                                                " connections at most; close one and try again")),
                w::Clock::now() + std::chrono::seconds(1));
            ::close(fd);
            continue;
        }
        auto& c = m_connections.emplace_back();
        c.fd = fd;
        c.thread = std::thread([this, &c] {
            serve(c.fd);
            ::close(c.fd);
            c.done = true;
        });
    }
    m_stopping = true;
    // Ends the connections: their reads see the shutdown; a call in flight is stopped through
    // its gone flag.
    std::lock_guard lock(m_connections_mutex);
    for (auto& c : m_connections)
        ::shutdown(c.fd, SHUT_RDWR);
    m_router->close_all();
    m_desk->safety_stop().wake_all();
    // A call waiting for the host's confirm answer ends now; later questions fail.
    if (m_host)
        m_host->stop();
    // The services last: SIGTERM, their grace, then their groups.
    m_supervisor->stop();
}

void Daemon::serve(int fd)
{
    const PeerCred peer = peer_of(fd);
    std::atomic<bool> gone{false};
    while (!m_stopping.load()) {
        // Idle between requests as long as the client likes; once a frame starts, it must finish.
        pollfd fds[2] = {{fd, POLLIN, 0}, {m_stop_fd, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        if (fds[1].revents & POLLIN)
            return;
        auto read = w::read_frame(fd, w::MAX_REQUEST_BYTES, w::Clock::now() + FRAME_REST_TIMEOUT, m_stop_fd);
        if (read.status == w::ReadStatus::too_large) {
            w::write_frame(fd,
                w::encode_response(w::error_text("the request is " + std::to_string(read.announced) +
                                                 " bytes; the wire takes at most " + std::to_string(w::MAX_REQUEST_BYTES) +
                                                 ". The connection closes, since the stream cannot go on after it")),
                w::Clock::now() + WRITE_TIMEOUT);
            return;
        }
        if (read.status != w::ReadStatus::frame)
            return;
        std::string scratch;
        if (auto tool = w::peek_tool(read.payload, scratch); tool && m_options.config) {
            if (const ServiceRoute* route = m_router->find(*tool)) {
                if (serve_service_call(fd, read.payload, *route))
                    continue;
                return;
            }
        }
        gone = false;
        auto response = handle(read.payload, peer, &gone, fd);
        if (gone.load())
            return; // the client went away during the call: nobody to answer
        auto payload = w::encode_response(response);
        if (payload.size() > w::MAX_RESPONSE_BYTES)
            payload = w::encode_response(w::error_text("the answer is " + std::to_string(payload.size()) +
                                                       " bytes, more than the wire carries; ask for less (a smaller shot, max_chars)"));
        if (w::write_frame(fd, payload, w::Clock::now() + WRITE_TIMEOUT) != 0)
            return;
    }
}

void Daemon::set_safety_stop(bool stop)
{
    if (stop) {
        m_desk->safety_stop().stop();
        m_router->close_all();
    } else
        m_desk->safety_stop().resume();
}

w::Response Daemon::handle(std::string_view payload, const PeerCred& peer, std::atomic<bool>* gone, int fd)
{
    std::string scratch;
    auto tool = w::peek_tool(payload, scratch);
    if (!tool) {
        auto decoded = w::decode_request(payload);
        return w::error_text(decoded ? "the request has no tool" : decoded.error().message);
    }
    if (*tool == "safety_stop" || *tool == "safety_resume") {
        if (peer.uid != ::geteuid())
            return w::error_text(std::string(*tool) + " is answered only to the daemon's own user");
        const bool stop = *tool == "safety_stop";
        set_safety_stop(stop);
        return w::ok_text(ok_json(stop).dump());
    }
    if (!m_options.config)
        return w::error_text(m_options.config_error + " (fix config.toml and restart `shuttle daemon`)");
    const VerbDef* verb = find_verb(*tool);
    const std::string tool_name(*tool);
    auto request = w::decode_request(payload);
    if (!request)
        return w::error_text(request.error().message);
    if (request->tool != tool_name)
        return w::error_text("the request names its tool twice, differently");
    if (m_desk->safety_stop().stopped())
        return w::error_text(STOPPED_REFUSAL);
    if (m_router->find(tool_name))
        return w::error_text(tool_name + " is a service's tool: it is reached on a connection to the daemon's socket");
    if (tool_name == "script_run")
        return run_script_call(*request, nullptr, gone, fd);
    if (tool_name == "gui_plan")
        return run_script_call(*request, nullptr, gone, fd, true);
    if (const Plugin* plugin = m_plugins.find(tool_name))
        return run_script_call(*request, plugin, gone, fd);
    if (const ModelToolDef* model = find_model_tool(tool_name))
        return run_model_call(*request, *model, gone, fd);
    if (!verb)
        return w::error_text("unknown tool " + tool_name +
                             ": the desk serves desk_<verb> tools (desk_windows, desk_snapshot, ...), model_decide, model_ask, "
                             "model_ground, script_run, gui_plan, the plugins' tools and the services' tools");
    if (std::string busy; verb->changes_desktop && !m_runs.may_act(request->agent_id, busy))
        return w::error_text(tool_name + ": " + busy);

    CallScope scope{request->agent_id, SafetyStopToken(m_desk->safety_stop(), gone)};
    if (fd >= 0)
        m_watcher->watch(fd, gone);
    auto reply = call_verb(*m_desk, *verb, scope, request->args);
    if (fd >= 0)
        m_watcher->unwatch(fd);
    if (!reply)
        return w::error_text(verb_failure_text(*verb, scope, reply.error()));
    // A verb that finished before it noticed a stop answers what it did: it happened.
    w::Response out = w::ok_text(reply->result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    out.image_b64 = std::move(reply->png_b64);
    out.image_mime = std::move(reply->image_mime);
    return out;
}

} // namespace nd_desk

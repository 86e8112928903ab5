#include "fake_openai.h"
#include "fake_openai_http.h"

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <fcntl.h>
#include <mutex>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace nd_test {

using namespace fake_http;
using nlohmann::json;

namespace {

// How long a closing connection keeps reading what the client still sends, so that closing with
// unread bytes does not reset the connection before the client has read our last reply.
constexpr auto LINGER = std::chrono::milliseconds(500);

FakeReply json_reply(int status, const json& body)
{
    return FakeReply{.status = status, .body = body.dump(-1, ' ', false, json::error_handler_t::replace)};
}

// A reply from the JSON of /__push and /__default; nullopt with `error` set when it is not one.
std::optional<FakeReply> reply_from_json(const std::string& text, std::string& error)
{
    const json doc = text.empty() ? json::object() : json::parse(text, nullptr, false);
    if (!doc.is_object()) {
        error = "the body is not a JSON object";
        return std::nullopt;
    }
    FakeReply reply;
    for (const auto& [key, value] : doc.items()) {
        if (key == "status" && value.is_number_integer() && value.get<std::int64_t>() >= 100 && value.get<std::int64_t>() <= 999)
            reply.status = value.get<int>();
        else if (key == "body")
            reply.body = value.is_string() ? value.get<std::string>() : value.dump();
        else if (key == "headers" && value.is_object())
            for (const auto& [name, header] : value.items())
                reply.headers.emplace_back(name, header.is_string() ? header.get<std::string>() : header.dump());
        else if (key == "delay_ms" && value.is_number_integer() && value.get<std::int64_t>() >= 0 && value.get<std::int64_t>() <= 3'600'000)
            reply.delay_ms = value.get<int>();
        else if (key == "close_after" && value.is_boolean())
            reply.close_after = value.get<bool>();
        else if (key == "raw" && value.is_boolean())
            reply.raw = value.get<bool>();
        else {
            // Refused rather than ignored, so a misspelt key fails the node test that sent it.
            error = "bad or unknown key \"" + key + "\"";
            return std::nullopt;
        }
    }
    return reply;
}

json to_json(const RecordedRequest& r)
{
    return {{"connection", r.connection}, {"method", r.method}, {"target", r.target}, {"headers", r.headers}, {"body", r.body}};
}

} // namespace

// The server behind FakeOpenAI: the listening socket, the threads, and under m_mutex the queue, the
// records and the live connections.
class FakeOpenAI::Server {
public:
    Server();
    ~Server();

    int port() const { return m_port; }
    void push(FakeReply reply)
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(reply));
    }
    void set_default(FakeReply reply)
    {
        std::lock_guard lock(m_mutex);
        m_default = std::move(reply);
    }
    std::vector<RecordedRequest> requests() const
    {
        std::lock_guard lock(m_mutex);
        return m_records;
    }
    int connections() const
    {
        std::lock_guard lock(m_mutex);
        return m_connections;
    }
    void clear()
    {
        std::lock_guard lock(m_mutex);
        m_records.clear();
        m_queue.clear();
        m_connections = 0;
        ++m_generation;
    }

private:
    struct Connection {
        int fd = -1; // -1 once its thread has closed it
        std::thread thread;
        int id = 0; // its id within m_generation; 0 until its first recorded request
        std::uint64_t generation = 0;
    };

    void accept_loop();
    void serve(std::uint64_t key, int fd);
    void answer_requests(std::uint64_t key, int fd);
    FakeReply record(std::uint64_t key, const Head& head, std::string body);
    void count(Connection& connection); // with m_mutex held
    FakeReply control(const Head& head, const std::string& body);
    bool wait(int delay_ms); // false when the server stops first
    void reap(bool all);

    int m_listen = -1;
    int m_wake[2] = {-1, -1}; // the destructor writes to [1] to end accept_loop
    int m_port = 0;
    std::thread m_acceptor;

    mutable std::mutex m_mutex;
    std::condition_variable m_stop_cv; // signalled when m_stopping becomes true, ending delays
    bool m_stopping = false;
    std::deque<FakeReply> m_queue;
    FakeReply m_default = {.status = 200, .body = FakeOpenAI::chat_completion("ok")};
    std::vector<RecordedRequest> m_records;
    int m_connections = 0;
    std::uint64_t m_generation = 1;
    std::uint64_t m_next_key = 0;
    std::map<std::uint64_t, Connection> m_live;
};

FakeOpenAI::Server::Server()
{
    const auto fail = [this](const char* what) {
        const int error = errno;
        for (int fd : {m_listen, m_wake[0], m_wake[1]})
            if (fd >= 0)
                ::close(fd);
        throw std::system_error(error, std::generic_category(), std::string("fake OpenAI server: ") + what);
    };
    if (::pipe2(m_wake, O_CLOEXEC) != 0) // CLOEXEC: tests spawn programs, which must not hold these
        fail("pipe");
    m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_listen < 0)
        fail("socket");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (::bind(m_listen, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
        fail("bind 127.0.0.1:0");
    if (::listen(m_listen, 128) != 0 || ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&address), &size) != 0)
        fail("listen");
    m_port = ntohs(address.sin_port);
    m_acceptor = std::thread([this] { accept_loop(); });
}

FakeOpenAI::Server::~Server()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        // Under the mutex: a connection's thread marks its fd -1 and closes it in one step under it,
        // so no fd shut down here can be one the kernel has already given to someone else.
        for (auto& [key, connection] : m_live)
            if (connection.fd >= 0)
                ::shutdown(connection.fd, SHUT_RDWR);
    }
    m_stop_cv.notify_all();
    [[maybe_unused]] const auto written = ::write(m_wake[1], "x", 1);
    m_acceptor.join();
    reap(true);
    for (int fd : {m_listen, m_wake[0], m_wake[1]})
        ::close(fd);
}

void FakeOpenAI::Server::accept_loop()
{
    for (;;) {
        pollfd fds[2] = {{m_listen, POLLIN, 0}, {m_wake[0], POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0 && errno != EINTR)
            return;
        if (fds[1].revents != 0)
            return;
        if ((fds[0].revents & POLLIN) == 0)
            continue;
        const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE) // the connection stays pending; do not spin on it
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            continue;
        }
        // Replies go out in one send, but a 100 Continue before one must not wait for an ACK.
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        reap(false);
        std::lock_guard lock(m_mutex);
        if (m_stopping) {
            ::close(fd);
            return;
        }
        const std::uint64_t key = ++m_next_key;
        auto& connection = m_live[key];
        connection.fd = fd;
        try {
            connection.thread = std::thread([this, key, fd] { serve(key, fd); });
        } catch (const std::system_error&) { // out of threads: the client sees the connection close
            ::close(fd);
            m_live.erase(key);
        }
    }
}

// Joins the threads whose connections have ended, or with `all` every thread (the server stops).
void FakeOpenAI::Server::reap(bool all)
{
    std::vector<std::thread> done;
    {
        std::lock_guard lock(m_mutex);
        for (auto it = m_live.begin(); it != m_live.end();) {
            if (all || it->second.fd < 0) {
                done.push_back(std::move(it->second.thread));
                it = m_live.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (auto& thread : done)
        if (thread.joinable())
            thread.join();
}

void FakeOpenAI::Server::serve(std::uint64_t key, int fd)
{
    answer_requests(key, fd);
    // A closing server sends its end of stream, then reads what the client still sends (until 100 ms
    // of quiet, at most LINGER), so that unread bytes (a refused body, say) do not reset the
    // connection before the client has read our reply.
    ::shutdown(fd, SHUT_WR);
    const timeval tick{0, 100'000};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof tick);
    const auto until = std::chrono::steady_clock::now() + LINGER;
    char sink[16 * 1024];
    while (std::chrono::steady_clock::now() < until && ::recv(fd, sink, sizeof sink, 0) > 0) {
    }
    std::lock_guard lock(m_mutex);
    if (auto it = m_live.find(key); it != m_live.end())
        it->second.fd = -1;
    ::close(fd);
}

void FakeOpenAI::Server::answer_requests(std::uint64_t key, int fd)
{
    Reader in(fd);
    for (std::string text;;) {
        const Got got = in.until("\r\n\r\n", MAX_HEAD_BYTES, text);
        if (got == Got::closed)
            return;
        const auto head = got == Got::ok ? parse_head(text) : std::nullopt;
        const bool is_control = head && head->target.starts_with("/__");
        std::string body;
        const int refusal = got == Got::too_big ? 431 : !head ? 400 : read_body(in, fd, *head, body);
        if (refusal < 0)
            return;
        if (refusal > 0) {
            if (!is_control) {
                std::lock_guard lock(m_mutex);
                if (auto it = m_live.find(key); it != m_live.end())
                    count(it->second);
            }
            send_all(fd, format_reply(json_reply(refusal, {{"error", reason(refusal)}}), true));
            return;
        }
        const FakeReply reply = is_control ? control(*head, body) : record(key, *head, std::move(body));
        if (!wait(reply.delay_ms))
            return;
        if (reply.raw) {
            send_all(fd, reply.body);
            return;
        }
        const bool keep = keeps_alive(*head) && !reply.close_after;
        if (!send_all(fd, format_reply(reply, !keep)) || !keep)
            return;
    }
}

void FakeOpenAI::Server::count(Connection& connection)
{
    if (connection.id == 0 || connection.generation != m_generation) {
        connection.id = ++m_connections;
        connection.generation = m_generation;
    }
}

// Records the request and takes its reply, in one step, so that concurrent requests pair with
// replies in the order they are recorded.
FakeReply FakeOpenAI::Server::record(std::uint64_t key, const Head& head, std::string body)
{
    std::lock_guard lock(m_mutex);
    auto it = m_live.find(key);
    if (it != m_live.end())
        count(it->second);
    m_records.push_back({it != m_live.end() ? it->second.id : 0, head.method, head.target, head.headers, std::move(body)});
    if (m_queue.empty())
        return m_default;
    FakeReply reply = std::move(m_queue.front());
    m_queue.pop_front();
    return reply;
}

FakeReply FakeOpenAI::Server::control(const Head& head, const std::string& body)
{
    const std::string path = head.target.substr(0, head.target.find('?'));
    const std::string verb = head.method + " " + path;
    if (verb == "POST /__push" || verb == "POST /__default") {
        std::string error;
        auto reply = reply_from_json(body, error);
        if (!reply)
            return json_reply(400, {{"error", path + ": " + error}});
        if (verb == "POST /__push")
            push(std::move(*reply));
        else
            set_default(std::move(*reply));
        return FakeReply{.status = 204};
    }
    if (verb == "GET /__requests") {
        json all = json::array();
        for (const auto& request : requests())
            all.push_back(to_json(request));
        return json_reply(200, all);
    }
    if (verb == "GET /__connections")
        return json_reply(200, {{"connections", connections()}});
    if (verb == "POST /__clear") {
        clear();
        return FakeReply{.status = 204};
    }
    return json_reply(404, {{"error", "no control request " + verb}});
}

bool FakeOpenAI::Server::wait(int delay_ms)
{
    std::unique_lock lock(m_mutex);
    return !m_stop_cv.wait_for(lock, std::chrono::milliseconds(delay_ms), [this] { return m_stopping; });
}

FakeOpenAI::FakeOpenAI() : m_server(std::make_unique<Server>()) {}
FakeOpenAI::~FakeOpenAI() = default;

int FakeOpenAI::port() const { return m_server->port(); }
std::string FakeOpenAI::base_url() const { return "http://127.0.0.1:" + std::to_string(port()) + "/v1"; }
void FakeOpenAI::push(FakeReply reply) { m_server->push(std::move(reply)); }
void FakeOpenAI::set_default(FakeReply reply) { m_server->set_default(std::move(reply)); }
std::vector<RecordedRequest> FakeOpenAI::requests() const { return m_server->requests(); }
int FakeOpenAI::connections() const { return m_server->connections(); }
void FakeOpenAI::clear() { m_server->clear(); }

std::string FakeOpenAI::chat_completion(const std::string& content, bool with_usage)
{
    json body = {{"id", "gen-test-1"}, {"object", "chat.completion"}, {"created", 1700000000}, {"model", "fake/model-build"},
        {"choices", json::array({{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}}, {"finish_reason", "stop"}}})}};
    if (with_usage)
        body["usage"] = {{"prompt_tokens", 11}, {"completion_tokens", 3}, {"total_tokens", 14},
            {"prompt_tokens_details", {{"cached_tokens", 2}}}};
    return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace nd_test

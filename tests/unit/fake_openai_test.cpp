// The fake OpenAI endpoint (tests/support/fake_openai.h) checked with plain sockets, so that what the
// model tools' tests rely on is known to hold without curl: recording, replies in order, keep-alive
// and the connection count, delays, a destructor that does not wait for them, Expect: 100-continue,
// chunked bodies, the body cap, and the control requests over HTTP.

#include "support/fake_openai.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <chrono>
#include <memory>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <sys/time.h>
#include <thread>
#include <unistd.h>

namespace {

using nd_test::FakeOpenAI;
using nd_test::FakeReply;
using nlohmann::json;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// A client connection with a 3 s receive timeout, so a broken server fails the test instead of
// hanging it.
class Client {
public:
    explicit Client(int port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<std::uint16_t>(port));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const timeval limit{3, 0};
        ::setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
        EXPECT_EQ(::connect(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    }
    ~Client() { ::close(m_fd); }
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    void send(const std::string& bytes)
    {
        ASSERT_EQ(::send(m_fd, bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
    }

    // The head of the next response (up to the blank line); empty at end of stream or timeout.
    std::string head()
    {
        while (m_buffer.find("\r\n\r\n") == std::string::npos)
            if (!fill())
                return {};
        const auto end = m_buffer.find("\r\n\r\n") + 4;
        std::string head = m_buffer.substr(0, end);
        m_buffer.erase(0, end);
        return head;
    }

    // The next response: its head, then as many body bytes as its Content-Length says.
    std::pair<std::string, std::string> response()
    {
        std::string h = head();
        const auto at = h.find("Content-Length: ");
        const std::size_t length = at == std::string::npos ? 0 : std::stoul(h.substr(at + 16));
        while (m_buffer.size() < length)
            if (!fill())
                break;
        std::string body = m_buffer.substr(0, length);
        m_buffer.erase(0, body.size());
        return {h, body};
    }

    bool at_end() { return m_buffer.empty() && !fill(); }

private:
    bool fill()
    {
        char chunk[4096];
        const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
        if (n > 0)
            m_buffer.append(chunk, static_cast<std::size_t>(n));
        return n > 0;
    }

    int m_fd = -1;
    std::string m_buffer;
};

std::string post(const std::string& target, const std::string& body, const std::string& extra = "")
{
    return "POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra + "Content-Length: " + std::to_string(body.size()) +
        "\r\n\r\n" + body;
}

std::string get(const std::string& target) { return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"; }

TEST(FakeOpenAITest, RecordsAPostAndAnswersThePushedReply)
{
    FakeOpenAI server;
    EXPECT_EQ(server.base_url(), "http://127.0.0.1:" + std::to_string(server.port()) + "/v1");
    server.push(FakeReply{.status = 429, .body = R"({"error":"slow down"})", .headers = {{"Retry-After", "1"}}});
    Client client(server.port());
    client.send(post("/v1/chat/completions", R"({"model":"m"})", "Authorization: Bearer k\r\nX-Title: Nish\r\n"));
    const auto [head, body] = client.response();
    EXPECT_TRUE(head.starts_with("HTTP/1.1 429 ")) << head;
    EXPECT_NE(head.find("\r\nRetry-After: 1\r\n"), std::string::npos) << head;
    EXPECT_NE(head.find("\r\nContent-Type: application/json\r\n"), std::string::npos) << head;
    EXPECT_EQ(body, R"({"error":"slow down"})");

    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].connection, 1);
    EXPECT_EQ(requests[0].method, "POST");
    EXPECT_EQ(requests[0].target, "/v1/chat/completions");
    EXPECT_EQ(requests[0].headers.at("authorization"), "Bearer k");
    EXPECT_EQ(requests[0].headers.at("x-title"), "Nish");
    EXPECT_EQ(requests[0].body, R"({"model":"m"})");
}

TEST(FakeOpenAITest, KeepAliveCountsOneConnectionAndTheDefaultAnswers)
{
    FakeOpenAI server;
    {
        Client client(server.port());
        client.send(post("/v1/chat/completions", "{}"));
        EXPECT_EQ(json::parse(client.response().second)["choices"][0]["message"]["content"], "ok");
        client.send(post("/v1/chat/completions", "{}"));
        EXPECT_EQ(json::parse(client.response().second)["usage"]["prompt_tokens_details"]["cached_tokens"], 2);
    }
    EXPECT_EQ(server.connections(), 1);
    Client other(server.port());
    other.send(post("/v1/chat/completions", "{}", "Connection: close\r\n"));
    EXPECT_NE(other.response().first.find("Connection: close"), std::string::npos);
    EXPECT_TRUE(other.at_end());
    EXPECT_EQ(server.connections(), 2);
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 3u);
    EXPECT_EQ(requests[1].connection, 1);
    EXPECT_EQ(requests[2].connection, 2);
}

TEST(FakeOpenAITest, HonoursADelay)
{
    FakeOpenAI server;
    server.push(FakeReply{.body = "{}", .delay_ms = 150});
    Client client(server.port());
    const auto start = Clock::now();
    client.send(post("/v1/chat/completions", "{}"));
    EXPECT_EQ(client.response().second, "{}");
    EXPECT_GE(Clock::now() - start, 150ms);
}

TEST(FakeOpenAITest, DestructorReturnsPromptlyWhileAReplyIsDelayed)
{
    auto server = std::make_unique<FakeOpenAI>();
    server->push(FakeReply{.body = "{}", .delay_ms = 5000});
    Client client(server->port());
    client.send(post("/v1/chat/completions", "{}"));
    for (auto until = Clock::now() + 2s; server->requests().empty() && Clock::now() < until;)
        std::this_thread::sleep_for(5ms);
    ASSERT_EQ(server->requests().size(), 1u);
    const auto start = Clock::now();
    server.reset();
    EXPECT_LT(Clock::now() - start, 1s);
    EXPECT_TRUE(client.at_end()); // cut short: no reply, the connection closed
}

TEST(FakeOpenAITest, AnswersExpectContinueBeforeTheBody)
{
    FakeOpenAI server;
    Client client(server.port());
    client.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
    EXPECT_EQ(client.head(), "HTTP/1.1 100 Continue\r\n\r\n");
    client.send("hello");
    EXPECT_TRUE(client.response().first.starts_with("HTTP/1.1 200 OK\r\n"));
    ASSERT_EQ(server.requests().size(), 1u);
    EXPECT_EQ(server.requests()[0].body, "hello");
}

TEST(FakeOpenAITest, ReassemblesAChunkedBody)
{
    FakeOpenAI server;
    Client client(server.port());
    client.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n");
    std::this_thread::sleep_for(10ms); // the rest in a later segment
    client.send("5;ext=1\r\npedia\r\n0\r\nX-Trailer: t\r\n\r\n");
    EXPECT_TRUE(client.response().first.starts_with("HTTP/1.1 200 OK\r\n"));
    ASSERT_EQ(server.requests().size(), 1u);
    EXPECT_EQ(server.requests()[0].body, "Wikipedia");
}

TEST(FakeOpenAITest, RefusesABodyOverTheCap)
{
    FakeOpenAI server;
    Client client(server.port());
    client.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 67108865\r\n\r\n");
    EXPECT_TRUE(client.response().first.starts_with("HTTP/1.1 413 ")); // at once, without the body
    EXPECT_TRUE(client.at_end());
    EXPECT_TRUE(server.requests().empty());
}

TEST(FakeOpenAITest, ControlRequestsOverHttp)
{
    FakeOpenAI server;
    Client control(server.port());
    control.send(post("/__push", R"({"status":503,"body":{"error":"busy"},"headers":{"Retry-After":"2"}})"));
    EXPECT_TRUE(control.response().first.starts_with("HTTP/1.1 204 "));
    control.send(post("/__push", R"({"stauts":500})"));
    const auto [bad_head, bad_body] = control.response();
    EXPECT_TRUE(bad_head.starts_with("HTTP/1.1 400 ")) << bad_body;

    Client api(server.port());
    api.send(post("/v1/chat/completions", "{}", "X-Title: Nish\r\n"));
    const auto [head, body] = api.response();
    EXPECT_TRUE(head.starts_with("HTTP/1.1 503 "));
    EXPECT_NE(head.find("\r\nRetry-After: 2\r\n"), std::string::npos);
    EXPECT_EQ(body, R"({"error":"busy"})");

    control.send(get("/__requests"));
    const json requests = json::parse(control.response().second);
    ASSERT_EQ(requests.size(), 1u); // the control requests are not recorded
    EXPECT_EQ(requests[0]["target"], "/v1/chat/completions");
    EXPECT_EQ(requests[0]["headers"]["x-title"], "Nish");
    EXPECT_EQ(requests[0]["connection"], 1);
    control.send(get("/__connections"));
    EXPECT_EQ(json::parse(control.response().second), json({{"connections", 1}})); // nor their connection
    control.send(post("/__clear", ""));
    EXPECT_TRUE(control.response().first.starts_with("HTTP/1.1 204 "));
    EXPECT_TRUE(server.requests().empty());
    EXPECT_EQ(server.connections(), 0);
}

} // namespace

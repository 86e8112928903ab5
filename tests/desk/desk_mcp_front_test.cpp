// `shuttle mcp` (docs/mcp-front.md): the relay ToolHost and the MCP server on pipes, against a real
// in-process daemon on the mock backend, against no daemon at all, and against a fake daemon in
// this file that answers canned responses or holds a call open, so cancelling a running call can
// be watched from the daemon's side (it must see its connection close).

#include "desk/desk_test_support.h"
#include "backend/mock/mock_backend.h"
#include "desk/daemon/daemon.h"
#include "desk/mcp/cancel_wake.h"
#include "desk/mcp/desk_tool_host.h"
#include "desk/models/model_tool.h"
#include "desk/script/script_tool.h"
#include "desk/mcp/mcp_front.h"
#include "desk/verbs/verbs.h"
#include "desk/wire/client.h"
#include "desk/wire/frame_io.h"
#include "mcp/mcp_server.h"
#include "tools/pipe_lines.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

namespace w = nd_desk::wire;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

using nd_test::MockDaemon;

struct TempDir : nd_test::TempDir {
    TempDir() : nd_test::TempDir("desk-mcp") {}
};

// A stand-in daemon: accepts connections, reads one request frame on each, then either answers
// `reply` or (when holding) never answers and waits for the client to close, noting the EOF.
class FakeDaemon {
public:
    FakeDaemon(const std::string& path, std::optional<w::Response> reply) : m_reply(std::move(reply))
    {
        m_listen = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        path.copy(addr.sun_path, sizeof addr.sun_path - 1);
        if (::bind(m_listen, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(m_listen, 8) != 0)
            throw std::runtime_error("the fake daemon cannot listen");
        m_stop = ::eventfd(0, EFD_CLOEXEC);
        m_thread = std::thread([this] { serve(); });
    }
    ~FakeDaemon()
    {
        const std::uint64_t one = 1;
        [[maybe_unused]] auto n = ::write(m_stop, &one, sizeof one);
        m_thread.join();
        ::close(m_listen);
        ::close(m_stop);
    }
    bool wait_requests(std::size_t n, std::chrono::milliseconds timeout = 5s)
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, timeout, [&] { return m_requests.size() >= n; });
    }
    bool wait_eofs(std::size_t n, std::chrono::milliseconds timeout = 5s)
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, timeout, [&] { return m_eofs >= n; });
    }
    std::vector<w::Request> requests()
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }
    // Later connections get this answer instead of being held.
    void answer_from_now(w::Response reply)
    {
        std::lock_guard lock(m_mutex);
        m_reply = std::move(reply);
    }

private:
    void serve()
    {
        for (;;) {
            pollfd fds[2] = {{m_listen, POLLIN, 0}, {m_stop, POLLIN, 0}};
            if (::poll(fds, 2, -1) < 0 || (fds[1].revents & POLLIN))
                return;
            const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0)
                continue;
            serve_one(fd);
            ::close(fd);
        }
    }
    void serve_one(int fd)
    {
        auto read = w::read_frame(fd, w::MAX_REQUEST_BYTES, w::Clock::now() + 5s, m_stop);
        if (read.status != w::ReadStatus::frame)
            return;
        auto request = w::decode_request(read.payload);
        std::optional<w::Response> reply;
        {
            std::lock_guard lock(m_mutex);
            if (request.ok())
                m_requests.push_back(*request);
            reply = m_reply;
        }
        m_changed.notify_all();
        if (reply) {
            w::write_frame(fd, w::encode_response(*reply), w::Clock::now() + 5s);
            return;
        }
        // Held: the only thing that may come now is the client's close.
        auto after = w::read_frame(fd, w::MAX_REQUEST_BYTES, w::Clock::now() + 10s, m_stop);
        if (after.status == w::ReadStatus::closed) {
            std::lock_guard lock(m_mutex);
            ++m_eofs;
        }
        m_changed.notify_all();
    }

    int m_listen = -1;
    int m_stop = -1;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::optional<w::Response> m_reply;
    std::vector<w::Request> m_requests;
    std::size_t m_eofs = 0;
    std::thread m_thread;
};

// The MCP server of `shuttle mcp` (its options, the relay host) on a pair of pipes.
class McpPipes {
public:
    explicit McpPipes(const std::string& endpoint)
        : m_host(endpoint), m_server(m_host, m_in.fd[0], m_out.fd[1], nd_desk::mcp_front_options()), m_lines(m_out.fd[0])
    {
        m_thread = std::thread([this] { m_server.run(); });
        auto init = request(0, "initialize", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                                              {"clientInfo", {{"name", "test"}, {"version", "1"}}}});
        m_server_info = init["result"]["serverInfo"];
        nd_test::write_line(m_in.fd[1], R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    }
    ~McpPipes()
    {
        m_in.close_write();
        m_thread.join();
    }
    void send(const json& message) { nd_test::write_line(m_in.fd[1], message.dump()); }
    json request(int id, const std::string& method, json params = json::object())
    {
        send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
        return m_lines.next_json();
    }
    json call(int id, const std::string& tool, json arguments = json::object())
    {
        return request(id, "tools/call", {{"name", tool}, {"arguments", std::move(arguments)}});
    }
    nd_test::LineIn& lines() { return m_lines; }
    const json& server_info() const { return m_server_info; }

private:
    nd_test::Pipe m_in, m_out;
    nd_desk::DeskToolHost m_host;
    nd_mcp::McpServer m_server;
    nd_test::LineIn m_lines;
    std::thread m_thread;
    json m_server_info;
};

std::string text_of(const json& result) { return result["content"][0]["text"].get<std::string>(); }

} // namespace

TEST(DeskMcpFront, ListsOneToolPerVerbWithObjectSchemasThenScriptRunAndGuiPlan)
{
    nd_desk::DeskToolHost host("/nonexistent/desk.sock");
    json tools = host.list_tools();
    ASSERT_TRUE(tools.is_array());
    const auto verbs = nd_desk::desk_verbs().size();
    const auto models = nd_desk::model_tools().size();
    ASSERT_EQ(tools.size(), verbs + models + 2);
    // The model tools come after the verbs, then script_run and gui_plan; [tools] script_run = false
    // leaves those two out.
    for (std::size_t i = 0; i < models; ++i) {
        EXPECT_EQ(tools[verbs + i], nd_mcp::list_entry(nd_desk::model_tools()[i].decl));
        EXPECT_TRUE(host.has_tool(nd_desk::model_tools()[i].decl.name));
    }
    EXPECT_EQ(tools[tools.size() - 2], nd_mcp::list_entry(nd_desk::script_run_decl()));
    EXPECT_EQ(tools.back(), nd_mcp::list_entry(nd_desk::gui_plan_decl()));
    EXPECT_TRUE(host.has_tool("script_run"));
    EXPECT_TRUE(host.has_tool("gui_plan"));
    host.set_script_run(false);
    EXPECT_EQ(host.list_tools().size(), verbs + models);
    tools.erase(tools.begin() + static_cast<std::ptrdiff_t>(verbs), tools.end());
    bool has_screen = false;
    for (const auto& tool : tools) {
        const std::string name = tool["name"];
        EXPECT_EQ(name.rfind("desk_", 0), 0u) << name;
        EXPECT_TRUE(host.has_tool(name)) << name;
        EXPECT_EQ(tool["inputSchema"]["type"], "object") << name;
        EXPECT_TRUE(tool["inputSchema"]["properties"].is_object()) << name;
        EXPECT_FALSE(tool["description"].get<std::string>().empty()) << name;
        EXPECT_EQ(tool, nd_mcp::list_entry(nd_desk::find_verb(name)->decl)) << name;
        has_screen = has_screen || name == "desk_screen";
    }
    EXPECT_TRUE(has_screen);
    for (const char* hidden : {"safety_stop", "safety_resume", "desk_safety_stop", "screen", "desk_nope", ""})
        EXPECT_FALSE(host.has_tool(hidden)) << hidden;
}

TEST(DeskMcpFront, ServesTheListAndRefusesUnknownToolsOverMcp)
{
    TempDir dir;
    MockDaemon daemon(dir.socket());
    McpPipes mcp(dir.socket());
    EXPECT_EQ(mcp.server_info()["name"], "shuttle");

    auto list = mcp.request(1, "tools/list");
    std::vector<std::string> names;
    for (const auto& tool : list["result"]["tools"])
        names.push_back(tool["name"]);
    EXPECT_NE(std::find(names.begin(), names.end(), "desk_screen"), names.end());
    EXPECT_EQ(std::find(names.begin(), names.end(), "safety_stop"), names.end());

    for (const char* unknown : {"desk_nope", "safety_stop"}) {
        auto reply = mcp.call(2, unknown);
        EXPECT_EQ(reply["error"]["code"], -32602) << reply;
        EXPECT_NE(reply["error"]["message"].get<std::string>().find(unknown), std::string::npos) << reply;
    }
}

TEST(DeskMcpFront, RelaysACallAndItsErrorsToTheDaemon)
{
    TempDir dir;
    MockDaemon daemon(dir.socket());
    McpPipes mcp(dir.socket());

    // The mock backend has no screen: the daemon's is_error answer becomes isError.
    auto screen = mcp.call(1, "desk_screen");
    ASSERT_TRUE(screen.contains("result")) << screen;
    EXPECT_EQ(screen["result"]["isError"], true);
    EXPECT_EQ(text_of(screen["result"]), "this desk has no screen");
    EXPECT_EQ(screen["result"]["content"].size(), 1u);

    // A verb that answers on the mock backend: its JSON result is the text, isError false.
    auto windows = mcp.call(5, "desk_windows");
    ASSERT_TRUE(windows.contains("result")) << windows;
    EXPECT_EQ(windows["result"]["isError"], false) << windows;
    const auto list = json::parse(text_of(windows["result"]), nullptr, false);
    ASSERT_TRUE(list.is_object()) << windows;
    ASSERT_TRUE(list["windows"].is_array());
    EXPECT_FALSE(list["windows"].empty());
    for (const auto& window : list["windows"])
        EXPECT_TRUE(window["id"].is_string() && window["title"].is_string()) << window;

    // Arguments travel as they are; the daemon checks them and names the bad one.
    auto bad = mcp.call(2, "desk_screen", {{"bogus", 1}});
    EXPECT_EQ(bad["result"]["isError"], true);
    EXPECT_NE(text_of(bad["result"]).find("bogus"), std::string::npos) << bad;

    // A halt on the daemon answers every relayed call until resume.
    daemon.safety(true);
    auto halted = mcp.call(3, "desk_screen");
    EXPECT_EQ(halted["result"]["isError"], true);
    EXPECT_NE(text_of(halted["result"]).find("shuttle resume"), std::string::npos) << halted;
    daemon.safety(false);
    EXPECT_EQ(text_of(mcp.call(4, "desk_screen")["result"]), "this desk has no screen");
}

TEST(DeskMcpFront, TurnsAnAnswerIntoTextAndImage)
{
    TempDir dir;
    FakeDaemon fake(dir.socket(), w::Response{R"({"width":2,"height":1})", false, std::string("iVBORw0KGgo=")});
    McpPipes mcp(dir.socket());
    auto reply = mcp.call(1, "desk_screen", json::object());
    ASSERT_TRUE(reply.contains("result")) << reply;
    const auto& result = reply["result"];
    EXPECT_EQ(result["isError"], false);
    ASSERT_EQ(result["content"].size(), 2u);
    EXPECT_EQ(result["content"][0], (json{{"type", "text"}, {"text", R"({"width":2,"height":1})"}}));
    EXPECT_EQ(result["content"][1], (json{{"type", "image"}, {"data", "iVBORw0KGgo="}, {"mimeType", "image/png"}}));
    ASSERT_TRUE(fake.wait_requests(1));
    const auto request = fake.requests().front();
    EXPECT_EQ(request.tool, "desk_screen");
    EXPECT_EQ(request.agent_id, "");
    EXPECT_EQ(request.args, json::object());
}

TEST(DeskMcpFront, NoDaemonIsAClearToolError)
{
    TempDir dir;
    {
        McpPipes mcp(dir.socket());
        const auto start = std::chrono::steady_clock::now();
        auto reply = mcp.call(1, "desk_screen");
        EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
        ASSERT_TRUE(reply.contains("result")) << reply;
        EXPECT_EQ(reply["result"]["isError"], true);
        const std::string text = text_of(reply["result"]);
        EXPECT_NE(text.find("no shuttle daemon answers at " + dir.socket()), std::string::npos) << text;
        EXPECT_NE(text.find("start it with `shuttle daemon`"), std::string::npos) << text;
    }
    // A socket file left behind by a daemon that died (nothing listens): the same answer.
    {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        dir.socket().copy(addr.sun_path, sizeof addr.sun_path - 1);
        ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        ::close(fd); // bound, never listening: connect is refused
    }
    nd_desk::DeskToolHost host(dir.socket());
    nd_mcp::CallContext none;
    auto out = host.call_tool("desk_screen", json::object(), none);
    EXPECT_TRUE(out.is_error);
    EXPECT_NE(out.text.find("no shuttle daemon answers at"), std::string::npos) << out.text;

    auto without = nd_desk::DeskToolHost::without_endpoint("no home directory is known");
    auto refused = without.call_tool("desk_screen", json::object(), none);
    EXPECT_TRUE(refused.is_error);
    EXPECT_EQ(refused.text, "no home directory is known");
}

TEST(DeskMcpFront, ADaemonThatDropsTheCallIsAToolError)
{
    TempDir dir;
    const int listen_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    dir.socket().copy(addr.sun_path, sizeof addr.sun_path - 1);
    ASSERT_EQ(::bind(listen_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ASSERT_EQ(::listen(listen_fd, 1), 0);
    std::thread dropper([&] {
        const int fd = ::accept(listen_fd, nullptr, nullptr);
        w::read_frame(fd, w::MAX_REQUEST_BYTES, w::Clock::now() + 5s);
        ::close(fd);
    });
    nd_desk::DeskToolHost host(dir.socket());
    nd_mcp::CallContext none;
    auto out = host.call_tool("desk_screen", json::object(), none);
    dropper.join();
    ::close(listen_fd);
    EXPECT_TRUE(out.is_error);
    EXPECT_NE(out.text.find("desk_screen did not finish"), std::string::npos) << out.text;
    EXPECT_NE(out.text.find("closed"), std::string::npos) << out.text;
}

TEST(DeskMcpFront, CancelWakeSignalsOnceTheFlagIsSet)
{
    std::atomic<bool> flag{false};
    nd_desk::CancelWake wake(&flag);
    ASSERT_TRUE(wake.ok());
    pollfd pfd{wake.fd(), POLLIN, 0};
    EXPECT_EQ(::poll(&pfd, 1, 50), 0) << "no wake before the cancel";
    flag = true;
    EXPECT_EQ(::poll(&pfd, 1, 2000), 1);
    nd_desk::CancelWake none(nullptr);
    EXPECT_TRUE(none.ok());
    EXPECT_EQ(none.fd(), -1);
}

TEST(DeskMcpFront, ACancelledCallClosesItsDaemonConnectionPromptly)
{
    TempDir dir;
    FakeDaemon fake(dir.socket(), std::nullopt);
    nd_desk::DeskToolHost host(dir.socket());
    std::atomic<bool> cancelled{false};
    nd_mcp::CallContext context;
    context.cancelled = &cancelled;
    std::atomic<bool> returned{false};
    nd_mcp::ToolOutput out;
    std::thread call([&] {
        out = host.call_tool("desk_screen", json::object(), context);
        returned = true;
    });
    ASSERT_TRUE(fake.wait_requests(1));
    std::this_thread::sleep_for(100ms);
    EXPECT_FALSE(returned.load()) << "the call returned before the daemon answered";
    const auto start = std::chrono::steady_clock::now();
    cancelled = true;
    call.join();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
    EXPECT_TRUE(out.is_error);
    EXPECT_TRUE(fake.wait_eofs(1, 2s)) << "the daemon did not see its connection close";

    // Already cancelled while queued: nothing reaches the daemon.
    auto queued = host.call_tool("desk_screen", json::object(), context);
    EXPECT_TRUE(queued.is_error);
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(fake.requests().size(), 1u);
}

TEST(DeskMcpFront, McpCancelDropsTheRequestsAndTheServerGoesOn)
{
    TempDir dir;
    FakeDaemon fake(dir.socket(), std::nullopt);
    McpPipes mcp(dir.socket());
    mcp.send({{"jsonrpc", "2.0"}, {"id", 10}, {"method", "tools/call"}, {"params", {{"name", "desk_screen"}}}});
    ASSERT_TRUE(fake.wait_requests(1));
    // A second call waits in the queue behind the first; it is cancelled before it runs.
    mcp.send({{"jsonrpc", "2.0"}, {"id", 11}, {"method", "tools/call"}, {"params", {{"name", "desk_screen"}}}});
    mcp.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 11}}}});
    // The server reads while the call runs: a ping is answered at once.
    mcp.send({{"jsonrpc", "2.0"}, {"id", 12}, {"method", "ping"}});
    EXPECT_EQ(mcp.lines().next_json()["id"], 12);
    mcp.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 10}, {"reason", "test"}}}});
    EXPECT_TRUE(fake.wait_eofs(1, 2s)) << "the running call's daemon connection stayed open";
    EXPECT_TRUE(mcp.lines().quiet(300ms)) << "a cancelled request was answered";
    EXPECT_EQ(fake.requests().size(), 1u) << "the cancelled queued call reached the daemon";

    fake.answer_from_now(w::Response{"{\"width\":1,\"height\":1}", false, std::nullopt});
    auto next = mcp.call(13, "desk_screen");
    EXPECT_EQ(next["id"], 13);
    EXPECT_EQ(next["result"]["isError"], false) << next;
    EXPECT_EQ(text_of(next["result"]), "{\"width\":1,\"height\":1}");
}

// A verb that blocks on the real daemon (desk_wait on an unchanging window list) is cancelled: the
// relay returns at once, and the next call is served at once.
TEST(DeskMcpFront, CancelsARunningWaitOnTheRealDaemon)
{
    TempDir dir;
    MockDaemon daemon(dir.socket());
    nd_desk::DeskToolHost host(dir.socket());
    nd_mcp::CallContext plain;
    auto windows = host.call_tool("desk_windows", json::object(), plain);
    ASSERT_FALSE(windows.is_error) << windows.text;
    const json since = json::parse(windows.text);

    std::atomic<bool> cancelled{false};
    nd_mcp::CallContext context;
    context.cancelled = &cancelled;
    std::atomic<bool> returned{false};
    std::thread call([&] {
        host.call_tool("desk_wait", {{"since", since}, {"timeout_ms", 5000}}, context);
        returned = true;
    });
    std::this_thread::sleep_for(300ms);
    EXPECT_FALSE(returned.load()) << "desk_wait answered before its list changed or its timeout";
    const auto start = std::chrono::steady_clock::now();
    cancelled = true;
    call.join();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
    auto again = host.call_tool("desk_wait", {{"since", since}, {"timeout_ms", 0}}, plain);
    EXPECT_FALSE(again.is_error) << again.text;
    EXPECT_TRUE(json::parse(again.text)["windows"].is_array()) << again.text;
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
}

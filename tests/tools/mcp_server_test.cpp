// The MCP server over real pipes with a fake ToolHost: framing, negotiation, the error mapping,
// limits and cancellation. The fake host stands in for the tool registry so these tests exercise
// only the JSON-RPC layer.

#include "mcp/mcp_server.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <fcntl.h>
#include <mutex>
#include <optional>
#include <poll.h>
#include <thread>
#include <unistd.h>

using nd_mcp::CallContext;
using nd_mcp::McpServer;
using nd_mcp::McpServerOptions;
using nd_mcp::ToolOutput;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

class FakeHost : public nd_mcp::ToolHost {
public:
    json list_tools() override
    {
        return json::array({{{"name", "echo"}, {"description", "Echoes its arguments"}, {"inputSchema", {{"type", "object"}}}},
            {{"name", "fail"}, {"description", "Always fails"}, {"inputSchema", {{"type", "object"}}}}});
    }

    bool has_tool(std::string_view name) override
    {
        return name == "echo" || name == "fail" || name == "image" || name == "block" || name == "wait_cancel"
            || name == "throw";
    }

    ToolOutput call_tool(std::string_view name, const json& arguments, const CallContext& context) override
    {
        {
            std::lock_guard lock(m_mutex);
            m_calls.emplace_back(name);
            m_last_arguments = arguments;
            m_started = true;
        }
        m_changed.notify_all();
        ToolOutput out;
        if (name == "echo") {
            // Keys deliberately out of order: a re-parse through nlohmann::json would sort them.
            out.structured = R"({"z":1,"args":)" + arguments.dump() + "}";
            out.text = "echo ok";
        } else if (name == "fail") {
            out.is_error = true;
            out.structured = R"({"error":{"code":"invalid_argument","message":"bad"}})";
            out.text = "invalid_argument: bad";
        } else if (name == "image") {
            out.structured = R"({"width":1,"height":1})";
            out.text = "captured";
            out.image = nd_mcp::ImageBlock{"image/png", "iVBORw0KGgo="};
        } else if (name == "block") {
            std::unique_lock lock(m_mutex);
            m_changed.wait_for(lock, 10s, [this] { return m_released; });
            out.structured = R"({"blocked":true})";
            out.text = "released";
        } else if (name == "wait_cancel") {
            auto deadline = std::chrono::steady_clock::now() + 10s;
            while (!context.is_cancelled() && std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(1ms);
            std::lock_guard lock(m_mutex);
            m_saw_cancel = context.is_cancelled();
            out.structured = R"({"finished":true})";
            out.text = "finished";
        } else if (name == "throw") {
            throw std::runtime_error("host bug");
        }
        return out;
    }

    void set_client_name(std::string_view name) override
    {
        std::lock_guard lock(m_mutex);
        m_client_name = name;
    }

    void connection_closed() override { m_closed_count++; }

    bool wait_started()
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, 5s, [this] { return m_started; });
    }

    void release()
    {
        {
            std::lock_guard lock(m_mutex);
            m_released = true;
        }
        m_changed.notify_all();
    }

    std::vector<std::string> calls()
    {
        std::lock_guard lock(m_mutex);
        return m_calls;
    }
    json last_arguments()
    {
        std::lock_guard lock(m_mutex);
        return m_last_arguments;
    }
    std::string client_name()
    {
        std::lock_guard lock(m_mutex);
        return m_client_name;
    }
    bool saw_cancel()
    {
        std::lock_guard lock(m_mutex);
        return m_saw_cancel;
    }

    std::atomic<int> m_closed_count{0};

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<std::string> m_calls;
    json m_last_arguments;
    std::string m_client_name;
    bool m_started = false;
    bool m_released = false;
    bool m_saw_cancel = false;
};

// A server running on its own thread between two pipes.
class Harness {
public:
    explicit Harness(McpServerOptions options = {})
    {
        if (::pipe2(m_to_server, O_CLOEXEC) != 0 || ::pipe2(m_from_server, O_CLOEXEC) != 0)
            throw std::runtime_error("pipe2 failed");
        options.instructions = "Test instructions.";
        options.version = "9.9.9";
        m_server = std::make_unique<McpServer>(host, m_to_server[0], m_from_server[1], std::move(options));
        m_thread = std::thread([this] {
            m_exit_code = m_server->run();
            m_done = true;
        });
    }

    ~Harness()
    {
        host.release();
        close_input();
        if (m_thread.joinable())
            m_thread.join();
        for (int fd : {m_to_server[0], m_from_server[0], m_from_server[1]}) {
            if (fd >= 0)
                ::close(fd);
        }
    }

    void send_raw(std::string_view bytes)
    {
        while (!bytes.empty()) {
            ssize_t n = ::write(m_to_server[1], bytes.data(), bytes.size());
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                throw std::runtime_error("write to server failed");
            }
            bytes.remove_prefix(static_cast<std::size_t>(n));
        }
    }
    void send(const std::string& line) { send_raw(line + "\n"); }
    void send_json(const json& message) { send(message.dump()); }

    // The next line the server wrote, or nothing after the timeout.
    std::optional<std::string> read_line(std::chrono::milliseconds timeout = 5s)
    {
        auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            auto newline = m_buffer.find('\n');
            if (newline != std::string::npos) {
                std::string line = m_buffer.substr(0, newline);
                m_buffer.erase(0, newline + 1);
                return line;
            }
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0)
                return std::nullopt;
            pollfd pfd{m_from_server[0], POLLIN, 0};
            if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0)
                continue;
            char chunk[65536];
            ssize_t n = ::read(m_from_server[0], chunk, sizeof chunk);
            if (n <= 0)
                return std::nullopt;
            m_buffer.append(chunk, static_cast<std::size_t>(n));
        }
    }

    json read_message()
    {
        auto line = read_line();
        if (!line)
            return json{{"missing", true}};
        return json::parse(*line);
    }

    json request(const json& id, const std::string& method, json params = json::object())
    {
        send_json(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
        return read_message();
    }

    void close_input()
    {
        if (m_to_server[1] >= 0) {
            ::close(m_to_server[1]);
            m_to_server[1] = -1;
        }
    }
    void close_output_reader()
    {
        ::close(m_from_server[0]);
        m_from_server[0] = -1;
    }

    bool wait_done(std::chrono::milliseconds timeout = 5s)
    {
        auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!m_done && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(1ms);
        return m_done;
    }

    FakeHost host;
    std::unique_ptr<McpServer> m_server;
    std::atomic<int> m_exit_code{-1};

private:
    int m_to_server[2] = {-1, -1};
    int m_from_server[2] = {-1, -1};
    std::thread m_thread;
    std::atomic<bool> m_done{false};
    std::string m_buffer;
};

json call_params(const std::string& name, std::optional<json> arguments = json::object())
{
    json params = {{"name", name}};
    if (arguments)
        params["arguments"] = *arguments;
    return params;
}

void expect_error(const json& reply, const json& id, int code)
{
    EXPECT_EQ(reply.value("jsonrpc", ""), "2.0") << reply;
    EXPECT_EQ(reply["id"], id) << reply;
    ASSERT_TRUE(reply.contains("error")) << reply;
    EXPECT_EQ(reply["error"]["code"], code) << reply;
    EXPECT_TRUE(reply["error"]["message"].is_string()) << reply;
    EXPECT_FALSE(reply.contains("result")) << reply;
}

} // namespace

TEST(McpServer, InitializeEchoesEachSupportedVersion)
{
    Harness h;
    int id = 1;
    for (const char* version : {"2025-11-25", "2025-06-18", "2025-03-26"}) {
        json reply = h.request(id, "initialize",
            {{"protocolVersion", version}, {"capabilities", json::object()},
                {"clientInfo", {{"name", "test-client"}, {"version", "1"}}}});
        ASSERT_TRUE(reply.contains("result")) << reply;
        EXPECT_EQ(reply["id"], id);
        const json& result = reply["result"];
        EXPECT_EQ(result["protocolVersion"], version);
        EXPECT_EQ(result["capabilities"], json({{"tools", {{"listChanged", false}}}}));
        EXPECT_EQ(result["serverInfo"], json({{"name", "nish-driver"}, {"version", "9.9.9"}}));
        EXPECT_EQ(result["instructions"], "Test instructions.");
        ++id;
    }
    EXPECT_EQ(h.host.client_name(), "test-client");
}

TEST(McpServer, InitializeAnswersNewestForUnknownVersion)
{
    Harness h;
    json reply = h.request("init", "initialize", {{"protocolVersion", "2024-11-05"}, {"capabilities", json::object()}});
    EXPECT_EQ(reply["id"], "init");
    EXPECT_EQ(reply["result"]["protocolVersion"], "2025-11-25");
    reply = h.request(2, "initialize", {{"protocolVersion", 20250618}});
    EXPECT_EQ(reply["result"]["protocolVersion"], "2025-11-25");
    EXPECT_EQ(h.host.client_name(), "");
    h.send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    EXPECT_EQ(h.request(3, "ping")["result"], json::object());
}

TEST(McpServer, ToolsListReturnsTheHostList)
{
    Harness h;
    json reply = h.request(1, "tools/list");
    ASSERT_TRUE(reply.contains("result")) << reply;
    EXPECT_EQ(reply["result"]["tools"], h.host.list_tools());
}

TEST(McpServer, ToolsCallSuccessInsertsStructuredContentRaw)
{
    Harness h;
    h.send_json(json{{"jsonrpc", "2.0"}, {"id", 5}, {"method", "tools/call"}, {"params", call_params("echo", json{{"a", 1}})}});
    auto line = h.read_line();
    ASSERT_TRUE(line);
    // The host's bytes appear verbatim, key order included.
    EXPECT_NE(line->find(R"("structuredContent":{"z":1,"args":{"a":1}})"), std::string::npos) << *line;
    json reply = json::parse(*line);
    EXPECT_EQ(reply["id"], 5);
    const json& result = reply["result"];
    EXPECT_EQ(result["content"], json::parse(R"([{"type":"text","text":"echo ok"}])"));
    EXPECT_EQ(result["isError"], false);
    EXPECT_EQ(h.host.last_arguments(), json({{"a", 1}}));
}

TEST(McpServer, ToolsCallWithoutArgumentsPassesEmptyObject)
{
    Harness h;
    json reply = h.request(1, "tools/call", call_params("echo", std::nullopt));
    ASSERT_TRUE(reply.contains("result")) << reply;
    EXPECT_EQ(h.host.last_arguments(), json::object());
    EXPECT_EQ(reply["result"]["structuredContent"]["args"], json::object());
}

TEST(McpServer, ToolFailureIsAResultWithIsError)
{
    Harness h;
    json reply = h.request(1, "tools/call", call_params("fail"));
    ASSERT_TRUE(reply.contains("result")) << reply;
    EXPECT_FALSE(reply.contains("error"));
    EXPECT_EQ(reply["result"]["isError"], true);
    EXPECT_EQ(reply["result"]["structuredContent"]["error"]["code"], "invalid_argument");
    EXPECT_EQ(reply["result"]["content"][0]["text"], "invalid_argument: bad");
}

TEST(McpServer, ToolsCallImageBlockFollowsText)
{
    Harness h;
    json reply = h.request(1, "tools/call", call_params("image"));
    const json& content = reply["result"]["content"];
    ASSERT_EQ(content.size(), 2u) << reply;
    EXPECT_EQ(content[0]["type"], "text");
    EXPECT_EQ(content[1], json({{"type", "image"}, {"data", "iVBORw0KGgo="}, {"mimeType", "image/png"}}));
}

TEST(McpServer, UnknownToolIsInvalidParams)
{
    Harness h;
    json reply = h.request(7, "tools/call", call_params("nope"));
    expect_error(reply, 7, -32602);
    EXPECT_EQ(reply["error"]["message"], "Unknown tool: nope");
    EXPECT_TRUE(h.host.calls().empty());
}

TEST(McpServer, BadToolsCallParamsAreInvalidParams)
{
    Harness h;
    expect_error(h.request(1, "tools/call", call_params("echo", json::array({1}))), 1, -32602);
    expect_error(h.request(2, "tools/call", call_params("echo", json("x"))), 2, -32602);
    expect_error(h.request(3, "tools/call", json{{"arguments", json::object()}}), 3, -32602);
    expect_error(h.request(4, "tools/call", json{{"name", 12}}), 4, -32602);
    EXPECT_TRUE(h.host.calls().empty());
}

TEST(McpServer, PingAnswersEmptyResult)
{
    Harness h;
    EXPECT_EQ(h.request(1, "ping"), json({{"jsonrpc", "2.0"}, {"id", 1}, {"result", json::object()}}));
    h.send(R"({"jsonrpc":"2.0","id":"p","method":"ping"})");
    EXPECT_EQ(h.read_message(), json({{"jsonrpc", "2.0"}, {"id", "p"}, {"result", json::object()}}));
}

TEST(McpServer, UnknownMethodIsMethodNotFound)
{
    Harness h;
    expect_error(h.request(3, "resources/list"), 3, -32601);
}

TEST(McpServer, NotificationsAreNeverAnswered)
{
    Harness h;
    h.send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    h.send(R"({"jsonrpc":"2.0","method":"no/such/notification","params":{}})");
    h.send(R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo"}})");
    h.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}})");
    h.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":"bad"})");
    EXPECT_EQ(h.request(7, "ping")["id"], 7);
    // tools/list runs on the worker after anything queued before it, so a queued echo would show.
    EXPECT_EQ(h.request(8, "tools/list")["id"], 8);
    EXPECT_TRUE(h.host.calls().empty());
    EXPECT_FALSE(h.read_line(50ms));
}

TEST(McpServer, MalformedJsonIsParseErrorAndServingContinues)
{
    Harness h;
    h.send(R"({"jsonrpc":"2.0","id":1,"method":)");
    expect_error(h.read_message(), nullptr, -32700);
    h.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"p\xff\"}");
    expect_error(h.read_message(), nullptr, -32700);
    h.send("not json at all");
    expect_error(h.read_message(), nullptr, -32700);
    EXPECT_EQ(h.request(3, "ping")["id"], 3);
}

TEST(McpServer, InvalidRequestShapes)
{
    Harness h;
    struct Case {
        std::string line;
        json id;
        int code;
    };
    const std::vector<Case> cases = {
        {"42", nullptr, -32600},
        {R"("text")", nullptr, -32600},
        {"null", nullptr, -32600},
        {R"({"jsonrpc":"1.0","id":3,"method":"ping"})", 3, -32600},
        {R"({"id":4,"method":"ping"})", 4, -32600},
        {R"({"jsonrpc":"2.0","id":"s","method":5})", "s", -32600},
        {R"({"jsonrpc":"2.0","id":6})", 6, -32600},
        {R"({"jsonrpc":"2.0","method":5})", nullptr, -32600},
        {R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})", nullptr, -32600},
        {R"({"jsonrpc":"2.0","id":[1],"method":"ping"})", nullptr, -32600},
        {R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})", nullptr, -32600},
        {R"({"jsonrpc":"2.0","id":true,"method":"ping"})", nullptr, -32600},
        {R"({"jsonrpc":"2.0","id":null,"method":"ping"})", nullptr, -32600},
        {R"({"jsonrpc":"2.0","id":8,"method":"ping","params":[1]})", 8, -32602},
        {R"({"jsonrpc":"2.0","id":9,"method":"tools/list","params":"x"})", 9, -32602},
        {std::string(100000, '[') + std::string(100000, ']'), nullptr, -32600},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.line.substr(0, 80));
        h.send(c.line);
        expect_error(h.read_message(), c.id, c.code);
    }
    EXPECT_EQ(h.request(10, "ping")["id"], 10);
}

TEST(McpServer, BatchArrayIsRefused)
{
    Harness h;
    h.send(R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}])");
    expect_error(h.read_message(), nullptr, -32600);
    h.send("[]");
    expect_error(h.read_message(), nullptr, -32600);
    EXPECT_EQ(h.request(3, "ping")["id"], 3);
}

TEST(McpServer, FiftyMegabyteLineIsSkippedAndPingStillAnswered)
{
    Harness h;
    std::thread writer([&] {
        h.send_raw(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":")");
        std::string chunk(1 << 20, 'a');
        for (int i = 0; i < 50; ++i)
            h.send_raw(chunk);
        h.send_raw("\"}}\n");
        h.send(R"({"jsonrpc":"2.0","id":2,"method":"ping"})");
    });
    json too_long = h.read_message();
    expect_error(too_long, nullptr, -32600);
    EXPECT_NE(too_long["error"]["message"].get<std::string>().find("8388608"), std::string::npos) << too_long;
    EXPECT_EQ(h.read_message(), json({{"jsonrpc", "2.0"}, {"id", 2}, {"result", json::object()}}));
    writer.join();
}

TEST(McpServer, LineCapBoundary)
{
    McpServerOptions options;
    options.max_line_bytes = 64;
    Harness h(options);
    std::string ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
    std::string at_cap = ping + std::string(64 - ping.size(), ' ');
    h.send(at_cap);
    EXPECT_EQ(h.read_message()["id"], 1);
    h.send(at_cap + " ");
    json reply = h.read_message();
    expect_error(reply, nullptr, -32600);
    EXPECT_NE(reply["error"]["message"].get<std::string>().find("64-byte"), std::string::npos) << reply;
    // CRLF framing is accepted too.
    h.send_raw("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\r\n");
    EXPECT_EQ(h.read_message()["id"], 2);
}

TEST(McpServer, PingIsAnsweredWhileAToolRuns)
{
    Harness h;
    h.send_json(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", call_params("block")}});
    ASSERT_TRUE(h.host.wait_started());
    EXPECT_EQ(h.request(2, "ping")["id"], 2);
    h.host.release();
    EXPECT_EQ(h.read_message()["id"], 1);
}

TEST(McpServer, CancelOfQueuedRequestDropsIt)
{
    Harness h;
    h.send_json(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", call_params("block")}});
    ASSERT_TRUE(h.host.wait_started());
    h.send_json(json{{"jsonrpc", "2.0"}, {"id", "queued"}, {"method", "tools/call"}, {"params", call_params("echo")}});
    h.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"queued","reason":"t"}})");
    // The ping reply proves the reader handled the cancel before the block is released.
    EXPECT_EQ(h.request(2, "ping")["id"], 2);
    h.host.release();
    EXPECT_EQ(h.read_message()["id"], 1);
    EXPECT_EQ(h.request(3, "tools/list")["id"], 3);
    EXPECT_EQ(h.host.calls(), std::vector<std::string>{"block"});
}

TEST(McpServer, CancelOfRunningRequestSetsFlagAndSuppressesReply)
{
    Harness h;
    h.send_json(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", call_params("wait_cancel")}});
    ASSERT_TRUE(h.host.wait_started());
    h.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})");
    // Sequential worker: this reply comes after the cancelled call finished, and it is the next line.
    EXPECT_EQ(h.request(2, "tools/list")["id"], 2);
    EXPECT_TRUE(h.host.saw_cancel());
}

TEST(McpServer, HostExceptionBecomesInternalError)
{
    Harness h;
    expect_error(h.request(1, "tools/call", call_params("throw")), 1, -32603);
    EXPECT_EQ(h.request(2, "ping")["id"], 2);
}

TEST(McpServer, EofDrainsQueueAndCallsConnectionClosed)
{
    Harness h;
    h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}})");
    h.close_input();
    EXPECT_EQ(h.read_message()["id"], 1);
    ASSERT_TRUE(h.wait_done());
    EXPECT_EQ(h.m_exit_code, 0);
    EXPECT_EQ(h.host.m_closed_count, 1);
}

TEST(McpServer, ClosedOutputEndsServerCleanly)
{
    Harness h;
    h.close_output_reader();
    h.send(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    ASSERT_TRUE(h.wait_done());
    EXPECT_EQ(h.m_exit_code, 0);
    EXPECT_EQ(h.host.m_closed_count, 1);
}

TEST(McpServer, RequestStopEndsServerAndCancelsRunningCall)
{
    Harness h;
    h.send_json(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", call_params("wait_cancel")}});
    ASSERT_TRUE(h.host.wait_started());
    h.m_server->request_stop();
    ASSERT_TRUE(h.wait_done());
    EXPECT_TRUE(h.host.saw_cancel());
    EXPECT_EQ(h.host.m_closed_count, 1);
}

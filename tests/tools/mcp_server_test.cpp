// The MCP server over real pipes with a fake ToolHost: framing, negotiation, the error mapping,
// limits and cancellation. The fake host stands in for the tool registry so these tests exercise
// only the JSON-RPC layer. Both eras side by side: mcp_eras_test.cpp.

#include "tools/mcp_harness.h"

#include <gtest/gtest.h>

using namespace mcp_test;

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

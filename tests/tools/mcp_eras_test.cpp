// Both MCP eras on one server, raw on the wire: 2026-07-28 requests carry the _meta envelope and
// get server/discover and resultType; 2025-11-25 requests open with initialize. Every malformed
// envelope gets the spec's JSON-RPC error and the server keeps serving. Progress notifications for
// a request that carries a progress token, in either era.

#include "tools/mcp_harness.h"

#include <gtest/gtest.h>

using namespace mcp_test;

namespace {

json envelope(const std::string& version = "2026-07-28")
{
    return {{"io.modelcontextprotocol/protocolVersion", version},
        {"io.modelcontextprotocol/clientCapabilities", json::object()},
        {"io.modelcontextprotocol/clientInfo", {{"name", "modern-client"}, {"version", "2"}}}};
}

json modern(json params = json::object())
{
    params["_meta"] = envelope();
    return params;
}

void expect_complete(const json& reply, const json& id)
{
    ASSERT_TRUE(reply.contains("result")) << reply;
    EXPECT_EQ(reply["id"], id) << reply;
    EXPECT_EQ(reply["result"]["resultType"], "complete") << reply;
}

// Reads lines until the response with `id`, collecting the notifications before it.
json read_response(Harness& h, const json& id, std::vector<json>& notifications)
{
    for (;;) {
        json message = h.read_message();
        if (message.contains("missing") || message.contains("id")) {
            EXPECT_EQ(message.value("id", json()), id) << message;
            return message;
        }
        notifications.push_back(std::move(message));
    }
}

} // namespace

TEST(McpEras, DiscoverNeedsNoHandshake)
{
    Harness h;
    json reply = h.request(1, "server/discover", modern());
    expect_complete(reply, 1);
    const auto& r = reply["result"];
    EXPECT_EQ(r["supportedVersions"], json::array({"2026-07-28"}));
    EXPECT_EQ(r["capabilities"], json({{"tools", {{"listChanged", false}}}}));
    EXPECT_EQ(r["instructions"], "Test instructions.");
    EXPECT_EQ(r["ttlMs"], 0);
    EXPECT_EQ(r["cacheScope"], "private");
    EXPECT_EQ(r["_meta"]["io.modelcontextprotocol/serverInfo"], json({{"name", "nish-driver"}, {"version", "9.9.9"}}));
}

TEST(McpEras, ModernResultsCarryResultTypeAndLegacyOnesDoNot)
{
    Harness h;
    json listed = h.request(1, "tools/list", modern());
    expect_complete(listed, 1);
    EXPECT_EQ(listed["result"]["tools"].size(), 2u);
    EXPECT_EQ(listed["result"]["ttlMs"], 0);
    EXPECT_EQ(listed["result"]["cacheScope"], "private");

    h.send_json({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"}, {"params", modern(call_params("echo", json{{"a", 1}}))}});
    auto line = h.read_line();
    ASSERT_TRUE(line);
    // structuredContent still goes out as the tool wrote it, keys unsorted.
    EXPECT_NE(line->find(R"("structuredContent":{"z":1,"args":{"a":1}})"), std::string::npos) << *line;
    expect_complete(json::parse(*line), 2);

    json failed = h.request(3, "tools/call", modern(call_params("fail")));
    expect_complete(failed, 3);
    EXPECT_EQ(failed["result"]["isError"], true);

    json legacy = h.request(4, "tools/list");
    ASSERT_TRUE(legacy.contains("result")) << legacy;
    EXPECT_FALSE(legacy["result"].contains("resultType")) << legacy;
    EXPECT_FALSE(legacy["result"].contains("ttlMs")) << legacy;
}

TEST(McpEras, MalformedEnvelopesAreInvalidParamsAndServingGoesOn)
{
    Harness h;
    const std::string pv = "io.modelcontextprotocol/protocolVersion";
    const std::string caps = "io.modelcontextprotocol/clientCapabilities";
    const std::string info = "io.modelcontextprotocol/clientInfo";
    struct Case {
        json meta;
        std::string key;
    };
    const std::vector<Case> cases = {
        {{{pv, "2026-07-28"}}, caps},
        {{{pv, "2026-07-28"}, {caps, nullptr}}, caps},
        {{{pv, "2026-07-28"}, {caps, "all"}}, caps},
        {{{pv, 20260728}, {caps, json::object()}}, pv},
        {{{pv, json::object()}, {caps, json::object()}}, pv},
        {{{pv, "2026-07-28"}, {caps, json::object()}, {info, "me"}}, info},
        {{{pv, "2026-07-28"}, {caps, json::object()}, {info, {{"name", 7}}}}, info},
    };
    int id = 1;
    for (const auto& c : cases) {
        SCOPED_TRACE(c.meta.dump());
        for (const char* method : {"tools/list", "tools/call", "server/discover"}) {
            json reply = h.request(id, method, {{"name", "echo"}, {"_meta", c.meta}});
            expect_error(reply, id, -32602);
            EXPECT_EQ(reply["error"]["data"]["envelope"]["key"], c.key) << reply;
            EXPECT_NE(reply["error"]["message"].get<std::string>().find(c.key), std::string::npos) << reply;
            ++id;
        }
    }
    EXPECT_TRUE(h.host.calls().empty());
    expect_complete(h.request(id, "server/discover", modern()), id);
}

TEST(McpEras, UnsupportedRevisionNamesTheSupportedOnes)
{
    Harness h;
    for (const std::string& version : std::vector<std::string>{"2099-01-01", "2025-11-25", "", std::string(10000, 'x')}) {
        SCOPED_TRACE(version.substr(0, 20));
        json params = {{"_meta", envelope(version)}};
        json reply = h.request(1, "tools/list", params);
        expect_error(reply, 1, -32022);
        EXPECT_EQ(reply["error"]["data"]["supported"], json::array({"2026-07-28"})) << reply;
        EXPECT_LE(reply["error"]["data"]["requested"].get<std::string>().size(), 67u);
        EXPECT_LT(reply.dump().size(), 600u);
    }
    EXPECT_EQ(h.request(2, "ping")["result"], json::object());
}

TEST(McpEras, EachEraKeepsItsOwnMethods)
{
    Harness h;
    // 2026-07-28 has no handshake and no ping.
    expect_error(h.request(1, "ping", modern()), 1, -32601);
    expect_error(h.request(2, "initialize", modern({{"protocolVersion", "2025-11-25"}})), 2, -32601);
    // server/discover without the envelope is not a legacy method.
    json discover = h.request(3, "server/discover");
    expect_error(discover, 3, -32601);
    EXPECT_NE(discover["error"]["message"].get<std::string>().find("_meta"), std::string::npos) << discover;
    expect_error(h.request(4, "resources/list", modern()), 4, -32601);
    EXPECT_EQ(h.request(5, "ping")["result"], json::object());
}

TEST(McpEras, ResourcesOfAHostThatHasThemInBothEras)
{
    Harness h({}, true);
    json init = h.request(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}});
    EXPECT_EQ(init["result"]["capabilities"], json({{"tools", {{"listChanged", false}}}, {"resources", json::object()}})) << init;
    EXPECT_EQ(h.request(2, "server/discover", modern())["result"]["capabilities"]["resources"], json::object());

    json legacy_list = h.request(3, "resources/list");
    ASSERT_TRUE(legacy_list.contains("result")) << legacy_list;
    EXPECT_EQ(legacy_list["result"], json({{"resources", h.host.list_resources()}}));
    json modern_list = h.request(4, "resources/list", modern());
    expect_complete(modern_list, 4);
    EXPECT_EQ(modern_list["result"]["ttlMs"], 0);
    EXPECT_EQ(modern_list["result"]["cacheScope"], "private");
    EXPECT_EQ(modern_list["result"]["resources"].size(), 2u);

    const json contents = json::array({{{"uri", "test://guide"}, {"mimeType", "text/markdown"}, {"text", "# Guide\n"}}});
    json legacy_read = h.request(5, "resources/read", {{"uri", "test://guide"}});
    EXPECT_EQ(legacy_read["result"], json({{"contents", contents}})) << legacy_read;
    json modern_read = h.request(6, "resources/read", modern({{"uri", "test://guide"}}));
    expect_complete(modern_read, 6);
    EXPECT_EQ(modern_read["result"]["contents"], contents);
    EXPECT_FALSE(modern_read["result"].contains("ttlMs"));

    json unknown = h.request(7, "resources/read", modern({{"uri", "test://nowhere"}}));
    expect_error(unknown, 7, -32002);
    EXPECT_EQ(unknown["error"]["message"], "Resource not found");
    EXPECT_EQ(unknown["error"]["data"], json({{"uri", "test://nowhere"}}));
    json broken = h.request(8, "resources/read", {{"uri", "test://broken"}});
    expect_error(broken, 8, -32603);
    EXPECT_NE(broken["error"]["message"].get<std::string>().find("/x/broken.txt"), std::string::npos) << broken;
    expect_error(h.request(9, "resources/read", json::object()), 9, -32602);
}

TEST(McpEras, AHostWithoutResourcesNamesNoneAndServesNone)
{
    Harness h;
    json init = h.request(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}});
    EXPECT_EQ(init["result"]["capabilities"], json({{"tools", {{"listChanged", false}}}})) << init;
    expect_error(h.request(2, "resources/list"), 2, -32601);
    expect_error(h.request(3, "resources/read", modern({{"uri", "test://guide"}})), 3, -32601);
}

TEST(McpEras, BothErasOnOneConnection)
{
    Harness h;
    json init = h.request(1, "initialize",
        {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}, {"clientInfo", {{"name", "old-client"}, {"version", "1"}}}});
    ASSERT_EQ(init["result"]["protocolVersion"], "2025-11-25") << init;
    EXPECT_EQ(h.host.client_name(), "old-client");
    expect_complete(h.request(2, "tools/call", modern(call_params("echo"))), 2);
    // The envelope's clientInfo names the client from then on.
    EXPECT_EQ(h.host.client_name(), "modern-client");
    json legacy = h.request(3, "tools/call", call_params("echo"));
    ASSERT_TRUE(legacy.contains("result")) << legacy;
    EXPECT_FALSE(legacy["result"].contains("resultType"));
    EXPECT_EQ(h.host.calls().size(), 2u);
}

TEST(McpEras, ProgressReachesAClientThatAskedForItInEitherEra)
{
    Harness h;
    for (const bool is_modern : {false, true}) {
        SCOPED_TRACE(is_modern ? "modern" : "legacy");
        json params = call_params("progress");
        params["_meta"] = is_modern ? envelope() : json::object();
        params["_meta"]["progressToken"] = is_modern ? json("tok") : json(41);
        h.send_json({{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/call"}, {"params", params}});
        std::vector<json> notes;
        json reply = read_response(h, 7, notes);
        ASSERT_TRUE(reply.contains("result")) << reply;
        ASSERT_EQ(notes.size(), 5u) << json(notes);
        for (std::size_t i = 0; i < notes.size(); ++i) {
            EXPECT_EQ(notes[i]["method"], "notifications/progress");
            EXPECT_FALSE(notes[i].contains("id"));
            EXPECT_EQ(notes[i]["params"]["progressToken"], params["_meta"]["progressToken"]);
            EXPECT_EQ(notes[i]["params"]["progress"], static_cast<double>(i + 1));
            EXPECT_EQ(notes[i]["params"]["total"], 5.0);
            EXPECT_EQ(notes[i]["params"]["message"], "step");
        }
    }
}

TEST(McpEras, NoProgressWithoutATokenOrWithABadOne)
{
    Harness h;
    for (const json& meta : {json::object(), json{{"progressToken", nullptr}}, json{{"progressToken", 1.5}},
             json{{"progressToken", json::array()}}}) {
        SCOPED_TRACE(meta.dump());
        json params = call_params("progress");
        params["_meta"] = meta;
        std::vector<json> notes;
        h.send_json({{"jsonrpc", "2.0"}, {"id", 8}, {"method", "tools/call"}, {"params", params}});
        json reply = read_response(h, 8, notes);
        EXPECT_TRUE(reply.contains("result")) << reply;
        EXPECT_TRUE(notes.empty()) << json(notes);
    }
}

TEST(McpEras, ACancelledRequestSendsNoMoreProgress)
{
    Harness h;
    json params = modern(call_params("progress"));
    params["_meta"]["progressToken"] = "p";
    h.send_json({{"jsonrpc", "2.0"}, {"id", 9}, {"method", "tools/call"}, {"params", params}});
    json first = h.read_message();
    ASSERT_EQ(first["method"], "notifications/progress") << first;
    // The modern client's cancel carries the envelope too.
    h.send_json({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 9}, {"_meta", envelope()}}}});
    // Nothing more for request 9: no progress, no reply. The next request is answered.
    json next = h.request(10, "server/discover", modern());
    std::vector<json> before;
    while (!next.contains("id") && !next.contains("missing")) {
        before.push_back(next);
        next = h.read_message();
    }
    EXPECT_EQ(next["id"], 10) << next;
    EXPECT_LE(before.size(), 1u) << json(before); // one may have been on its way
    auto late = h.read_line(800ms);
    EXPECT_FALSE(late) << *late;
}

// The plugins through `shuttle mcp`'s host and MCP server (docs/plugins.md): each plugin listed
// after script_run with script_run's input schema, none while script_run is off, a call relayed
// with its relative path made absolute, and the plugins' resources listed and read over MCP in
// both eras, with the resources capability named only when there are resources.

#include "desk/desk_test_support.h"
#include "desk/mcp/desk_tool_host.h"
#include "desk/models/model_tool.h"
#include "desk/mcp/mcp_front.h"
#include "desk/script/script_tool.h"
#include "desk/verbs/verbs.h"
#include "mcp/mcp_server.h"
#include "tools/pipe_lines.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using nlohmann::json;

namespace {

const json MODERN_META = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
    {"io.modelcontextprotocol/clientCapabilities", json::object()}};

class DeskMcpPluginsTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::filesystem::create_directory(tools_dir());
        std::ofstream(m_dir.path + "/guide.md") << "# Writing flows\nUse desk.find.\n";
        const std::string bin = m_dir.path + "/echo.sh";
        std::ofstream(bin) << "#!/bin/sh\nprintf '{\"script\":\"%s\"}' \"$SHUTTLE_SCRIPT\" > \"$SHUTTLE_RUN/result.json\"\n";
        ::chmod(bin.c_str(), 0755);
        write("b.json", {{"name", "beta_run"}, {"description", "Runs beta flows."}, {"bin", bin},
                            {"resources", json::array({{{"uri", "docs://beta/guide"}, {"path", m_dir.path + "/guide.md"},
                                {"mime", "text/markdown"}, {"description", "How to write beta flows"}},
                                {{"uri", "docs://beta/gone"}, {"path", m_dir.path + "/gone.md"}, {"mime", "text/plain"},
                                    {"description", "A file that is not there"}}})}});
        write("a.json", {{"name", "alpha_run"}, {"description", "Runs alpha flows."}, {"bin", bin}});
    }

    std::string tools_dir() const { return m_dir.path + "/tools.d"; }
    void write(const std::string& name, const json& plugin) { std::ofstream(tools_dir() + "/" + name) << plugin.dump(); }
    nd_desk::PluginSet plugins() const { return nd_desk::load_plugins(tools_dir()); }

    nd_test::TempDir m_dir{"desk-mcp-plugins"};
};

// The MCP server of `shuttle mcp` around a configured host, on a pair of pipes.
class Server {
public:
    explicit Server(nd_desk::DeskToolHost& host)
        : m_server(host, m_in.fd[0], m_out.fd[1], nd_desk::mcp_front_options()), m_lines(m_out.fd[0])
    {
        m_thread = std::thread([this] { m_server.run(); });
    }
    ~Server()
    {
        m_in.close_write();
        m_thread.join();
    }
    json request(int id, const std::string& method, json params = json::object())
    {
        nd_test::write_line(m_in.fd[1], json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}.dump());
        return m_lines.next_json();
    }

private:
    nd_test::Pipe m_in, m_out;
    nd_mcp::McpServer m_server;
    nd_test::LineIn m_lines;
    std::thread m_thread;
};

TEST_F(DeskMcpPluginsTest, EachPluginIsListedAfterTheBuiltInsWithScriptRunsSchema)
{
    nd_desk::DeskToolHost host("/nonexistent/desk.sock");
    host.set_plugins(plugins());
    json tools = host.list_tools();
    // The built-ins: the desk verbs, then the model tools.
    const auto verbs = nd_desk::desk_verbs().size() + nd_desk::model_tools().size();
    ASSERT_EQ(tools.size(), verbs + 4);
    EXPECT_EQ(tools[verbs]["name"], "script_run");
    EXPECT_EQ(tools[verbs + 1]["name"], "gui_plan");
    EXPECT_EQ(tools[verbs + 2]["name"], "alpha_run");
    EXPECT_EQ(tools[verbs + 3]["name"], "beta_run");
    EXPECT_EQ(tools[verbs + 3]["description"], "Runs beta flows.");
    EXPECT_EQ(tools[verbs + 2]["inputSchema"], tools[verbs]["inputSchema"]);
    EXPECT_TRUE(host.has_tool("alpha_run"));
    EXPECT_FALSE(host.has_tool("gamma_run"));
    EXPECT_TRUE(host.has_resources());

    // script_run = false: none listed, no resources; a call still reaches the daemon, which says it is off.
    host.set_script_run(false);
    EXPECT_EQ(host.list_tools().size(), verbs);
    EXPECT_FALSE(host.has_resources());
    EXPECT_EQ(host.list_resources(), json::array());
    EXPECT_TRUE(host.has_tool("alpha_run"));
}

TEST_F(DeskMcpPluginsTest, ACallIsRelayedWithItsPathMadeAbsolute)
{
    ::setenv("SHUTTLE_RUNTIME", NISH_SOURCE_DIR "/runtime", 1);
    nd_desk::DeskConfig config;
    config.plugins_dir = tools_dir();
    config.path = m_dir.path + "/config.toml";
    nd_test::MockDaemon daemon(m_dir.socket(), std::move(config));
    nd_desk::DeskToolHost host(m_dir.socket());
    host.set_plugins(plugins());
    Server server(host);
    auto r = server.request(1, "tools/call", {{"name", "alpha_run"}, {"arguments", {{"path", "flows/x.mjs"}}}});
    ASSERT_FALSE(r["result"]["isError"].get<bool>()) << r;
    const auto report = json::parse(r["result"]["content"][0]["text"].get<std::string>());
    EXPECT_EQ(report["result"]["script"], std::filesystem::current_path().string() + "/flows/x.mjs") << report;
}

TEST_F(DeskMcpPluginsTest, ResourcesAreListedAndReadInBothEras)
{
    nd_desk::DeskToolHost host("/nonexistent/desk.sock");
    host.set_plugins(plugins());
    Server server(host);

    auto init = server.request(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                                                    {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
    EXPECT_EQ(init["result"]["capabilities"]["resources"], json::object()) << init;
    auto discover = server.request(2, "server/discover", {{"_meta", MODERN_META}});
    EXPECT_EQ(discover["result"]["capabilities"]["resources"], json::object()) << discover;

    auto list = server.request(3, "resources/list");
    EXPECT_EQ(list["result"], json({{"resources", json::array({{{"uri", "docs://beta/guide"}, {"name", "guide.md"},
                                        {"mimeType", "text/markdown"}, {"description", "How to write beta flows"}},
                                        {{"uri", "docs://beta/gone"}, {"name", "gone.md"}, {"mimeType", "text/plain"},
                                            {"description", "A file that is not there"}}})}}))
        << list;
    auto modern_list = server.request(4, "resources/list", {{"_meta", MODERN_META}});
    EXPECT_EQ(modern_list["result"]["resultType"], "complete") << modern_list;
    EXPECT_EQ(modern_list["result"]["ttlMs"], 0);
    EXPECT_EQ(modern_list["result"]["resources"], list["result"]["resources"]);

    auto read = server.request(5, "resources/read", {{"uri", "docs://beta/guide"}});
    EXPECT_EQ(read["result"], json({{"contents", json::array({{{"uri", "docs://beta/guide"}, {"mimeType", "text/markdown"},
                                      {"text", "# Writing flows\nUse desk.find.\n"}}})}}))
        << read;
    auto modern_read = server.request(6, "resources/read", {{"uri", "docs://beta/guide"}, {"_meta", MODERN_META}});
    EXPECT_EQ(modern_read["result"]["resultType"], "complete") << modern_read;
    EXPECT_EQ(modern_read["result"]["contents"], read["result"]["contents"]);

    auto unknown = server.request(7, "resources/read", {{"uri", "docs://nowhere"}});
    EXPECT_EQ(unknown["error"]["code"], -32002) << unknown;
    EXPECT_EQ(unknown["error"]["message"], "Resource not found");
    EXPECT_EQ(unknown["error"]["data"], json({{"uri", "docs://nowhere"}}));
    auto gone = server.request(8, "resources/read", {{"uri", "docs://beta/gone"}});
    EXPECT_EQ(gone["error"]["code"], -32603) << gone;
    EXPECT_NE(gone["error"]["message"].get<std::string>().find(m_dir.path + "/gone.md"), std::string::npos) << gone;
    auto no_uri = server.request(9, "resources/read", {{"uri", 5}});
    EXPECT_EQ(no_uri["error"]["code"], -32602) << no_uri;
}

TEST_F(DeskMcpPluginsTest, WithoutResourcesNothingChanges)
{
    std::filesystem::remove(tools_dir() + "/b.json");
    nd_desk::DeskToolHost host("/nonexistent/desk.sock");
    host.set_plugins(plugins());
    Server server(host);
    auto init = server.request(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                                                    {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
    EXPECT_EQ(init["result"]["capabilities"], json({{"tools", {{"listChanged", false}}}})) << init;
    auto list = server.request(2, "resources/list");
    EXPECT_EQ(list["error"]["code"], -32601) << list;
}

} // namespace

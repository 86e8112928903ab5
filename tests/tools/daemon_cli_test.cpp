// The real binaries around the driver daemon (docs/daemon.md): `nish-driver daemon` on a socket of
// the test's own, `nish-driver metadata` reading it, `nish-driver mcp --connect` relaying an MCP
// conversation to it (and answering what was asked after its stdin ends), clear failures when no
// daemon listens, and SIGTERM ending the daemon and removing its socket.

#include "core/version.h"
#include "pipe_lines.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <thread>

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const std::string DRIVER = std::string(NISH_BIN_DIR) + "/nish-driver";

nd_test::CommandRun run(const std::string& args)
{
    return nd_test::run_command("NISH_AUDIT_LOG= " + DRIVER + " " + args + " 2>&1 </dev/null");
}

int wait_exit(pid_t pid)
{
    int status = 0;
    for (int i = 0; i < 500; ++i) {
        if (::waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    ADD_FAILURE() << "the program did not exit within 5 s";
    return -1;
}

class DaemonCli : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path() / ("nish-daemon-cli-" + std::to_string(::getpid()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
        m_socket = (m_dir / "d.sock").string();
        m_daemon = nd_test::spawn_program(
            {DRIVER, "daemon", "--backend", "mock", "--consent", "auto", "--socket", m_socket}, {});
        for (int i = 0; i < 500 && !fs::exists(m_socket); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        ASSERT_TRUE(fs::exists(m_socket)) << "the daemon did not listen within 5 s";
    }
    void TearDown() override
    {
        if (m_daemon > 0) {
            ::kill(m_daemon, SIGKILL);
            ::waitpid(m_daemon, nullptr, 0);
        }
        fs::remove_all(m_dir);
    }

    fs::path m_dir;
    std::string m_socket;
    pid_t m_daemon = -1;
};

TEST_F(DaemonCli, MetadataPrintsTheDaemonsFacts)
{
    auto r = run("metadata --socket " + m_socket);
    ASSERT_EQ(r.status, 0) << r.out;
    auto m = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(m.is_discarded()) << r.out;
    EXPECT_EQ(m["contract_version"], nd_core::CONTRACT_VERSION);
    EXPECT_EQ(m["backend"]["name"], "mock");
    EXPECT_EQ(m["socket"], m_socket);
}

TEST_F(DaemonCli, McpConnectRelaysAConversationAndItsLastAnswers)
{
    nd_test::Pipe in, out;
    const pid_t relay = nd_test::spawn_program(
        {DRIVER, "mcp", "--connect", "--socket", m_socket}, {{in.fd[0], 0}, {out.fd[1], 1}});
    in.close_read();
    out.close_write();
    nd_test::LineIn replies(out.fd[0]);
    nd_test::write_line(in.fd[1], R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"relay-test","version":"1"}}})");
    auto init = json::parse(replies.next());
    EXPECT_EQ(init["result"]["serverInfo"]["name"], "nish-driver");
    // Sent, then stdin ends at once: the answers still come.
    nd_test::write_line(in.fd[1], R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"start_session","arguments":{}}})");
    nd_test::write_line(in.fd[1], R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_windows","arguments":{}}})");
    in.close_write();
    auto started = json::parse(replies.next());
    EXPECT_EQ(started["id"], 2);
    EXPECT_NE(started["result"]["structuredContent"]["session"].get<std::string>().find("relay-test"), std::string::npos)
        << started.dump();
    auto windows = json::parse(replies.next());
    EXPECT_EQ(windows["id"], 3);
    EXPECT_FALSE(windows["result"]["structuredContent"]["windows"].empty()) << windows.dump().substr(0, 300);
    EXPECT_EQ(wait_exit(relay), 0);
}

TEST_F(DaemonCli, SigtermStopsTheDaemonAndRemovesItsSocket)
{
    ::kill(m_daemon, SIGTERM);
    EXPECT_EQ(wait_exit(m_daemon), 0);
    m_daemon = -1;
    EXPECT_FALSE(fs::exists(m_socket));
}

TEST(DaemonCliAlone, WithoutADaemonTheClientsSaySoAndHowToStartOne)
{
    const std::string nowhere = (fs::temp_directory_path() / "nish-no-daemon-here.sock").string();
    auto meta = run("metadata --socket " + nowhere);
    EXPECT_EQ(meta.status, 1);
    EXPECT_NE(meta.out.find("no nish-driver daemon"), std::string::npos) << meta.out;
    EXPECT_NE(meta.out.find("nish-driver daemon"), std::string::npos) << meta.out;
    auto connect = run("mcp --connect --socket " + nowhere);
    EXPECT_EQ(connect.status, 1);
    EXPECT_NE(connect.out.find("no nish-driver daemon"), std::string::npos) << connect.out;
    auto mixed = run("mcp --connect --consent auto");
    EXPECT_EQ(mixed.status, 2);
    EXPECT_NE(mixed.out.find("belong to `nish-driver daemon`"), std::string::npos) << mixed.out;
    auto too_long = run("daemon --backend mock --socket /tmp/" + std::string(200, 'x'));
    EXPECT_EQ(too_long.status, 2);
    EXPECT_NE(too_long.out.find("too long"), std::string::npos) << too_long.out;
}

} // namespace

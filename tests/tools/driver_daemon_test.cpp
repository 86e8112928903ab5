// The driver daemon (docs/daemon.md) in this process on the mock desktop, reached over its real
// unix socket the way `nish-driver mcp --connect` reaches it: metadata with the contract version,
// unknown_method for everything else (takeover.resume included), a private socket, one daemon per
// path, and two hosts at once, each with its own session, one takeover per display, the person's
// Continue reaching the host that holds it, and the clipboard kept for the host that wrote it.

#include "backend/mock/mock_backend.h"
#include "core/backend/consent.h"
#include "core/engine/audit.h"
#include "core/errors.h"
#include "core/version.h"
#include "driver/daemon/driver_daemon.h"
#include "mcp/unix_socket.h"
#include "pipe_lines.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <thread>

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr std::int64_t SETTINGS = 52428801;

// One host on the daemon's socket.
class Host {
public:
    explicit Host(const std::string& socket, const std::string& name = "")
    {
        auto fd = nd_mcp::connect_unix(socket);
        EXPECT_TRUE(fd.ok()) << (fd.ok() ? "" : fd.error().text());
        m_fd = fd.ok() ? *fd : -1;
        m_in = std::make_unique<nd_test::LineIn>(m_fd);
        if (!name.empty()) {
            auto init = rpc("initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                                              {"clientInfo", {{"name", name}, {"version", "1"}}}});
            EXPECT_TRUE(init.contains("result")) << init.dump();
        }
    }
    ~Host() { close(); }
    void close()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }

    void send(const std::string& line) { nd_test::write_line(m_fd, line); }
    json reply(const json& id)
    {
        for (;;) {
            auto r = m_in->next_json();
            if (r.is_discarded() || r.value("id", json()) == id)
                return r;
        }
    }
    json rpc(const std::string& method, const json& params = json::object())
    {
        const int id = ++m_id;
        send(json({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}).dump());
        return reply(id);
    }
    // The tool's structuredContent, with "is_error" added.
    json tool(const std::string& name, const json& args = json::object())
    {
        auto r = rpc("tools/call", {{"name", name}, {"arguments", args}});
        auto out = r["result"].value("structuredContent", json::object());
        out["is_error"] = r["result"].value("isError", false);
        return out;
    }
    std::string token(const std::string& app, const std::string& name)
    {
        auto state = tool("get_window_state", {{"app", app}, {"max_elements", 5000}, {"max_depth", 200}});
        for (const auto& row : state["elements"])
            if (row.value("name", "") == name)
                return row["element_token"];
        ADD_FAILURE() << "no element named " << name << ": " << state.dump().substr(0, 300);
        return "s0:0";
    }
    // True when the daemon closed this connection.
    bool closed_by_daemon()
    {
        char byte;
        pollfd pfd{m_fd, POLLIN, 0};
        return ::poll(&pfd, 1, 5000) == 1 && ::read(m_fd, &byte, 1) == 0;
    }

private:
    int m_fd = -1;
    int m_id = 0;
    std::unique_ptr<nd_test::LineIn> m_in;
};

class DriverDaemonTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path() / ("nish-daemon-test-" + std::to_string(::getpid()));
        fs::remove_all(m_dir);
        m_socket = (m_dir / "run" / "daemon-mock.sock").string();
        auto backend = nd_mock::MockBackend::load(nd_mock::MockBackend::default_fixture_dir());
        ASSERT_TRUE(backend.ok());
        m_mock = std::move(backend).value();
        nd_driver::DriverDaemonOptions options;
        options.socket = m_socket;
        options.display = "mock";
        options.write_timeout = std::chrono::milliseconds(2000);
        auto daemon = nd_driver::DriverDaemon::open(*m_mock, m_consent, m_audit, options);
        ASSERT_TRUE(daemon.ok()) << daemon.error().text();
        m_daemon = std::move(daemon).value();
        m_thread = std::thread([this] { m_daemon->run(); });
    }
    void TearDown() override
    {
        stop();
        fs::remove_all(m_dir);
    }
    void stop()
    {
        if (m_daemon) {
            m_daemon->request_stop();
            m_thread.join();
            m_daemon.reset();
        }
    }

    fs::path m_dir;
    std::string m_socket;
    nd_core::AuditLog m_audit{""};
    nd_core::AutoConsent m_consent;
    std::unique_ptr<nd_mock::MockBackend> m_mock;
    std::unique_ptr<nd_driver::DriverDaemon> m_daemon;
    std::thread m_thread;
};

TEST_F(DriverDaemonTest, MetadataCarriesTheContractVersion)
{
    Host host(m_socket);
    auto r = host.rpc("metadata");
    ASSERT_TRUE(r.contains("result")) << r.dump();
    const auto& m = r["result"];
    EXPECT_EQ(m["name"], "nish-driver");
    EXPECT_EQ(m["version"], nd_core::DRIVER_VERSION);
    EXPECT_EQ(m["contract_version"], nd_core::CONTRACT_VERSION);
    EXPECT_EQ(m["backend"]["name"], "mock");
    EXPECT_EQ(m["backend"]["display"], "mock");
    EXPECT_EQ(m["socket"], m_socket);
    EXPECT_EQ(m["connections"], 1);
    ASSERT_TRUE(m["capabilities"].is_array());
    EXPECT_FALSE(m["capabilities"].empty());
    for (const auto& c : m["capabilities"])
        EXPECT_TRUE(c.contains("name") && c.contains("status")) << c.dump();
    // Before initialize too, and MCP's own methods beside it.
    EXPECT_TRUE(Host(m_socket, "second").rpc("tools/list")["result"]["tools"].is_array());
}

TEST_F(DriverDaemonTest, EveryOtherMethodIsUnknownMethodWithTheContractsErrorObject)
{
    Host host(m_socket, "host");
    const auto& info = nd_core::error_info(nd_core::ErrorCode::unknown_method);
    for (const std::string method : {"takeover.resume", "session.revoke", "kill_switch", "resume", "metadata/extra"}) {
        auto r = host.rpc(method, {{"session", "mcp:host:1"}});
        ASSERT_TRUE(r.contains("error")) << method << ": " << r.dump();
        EXPECT_EQ(r["error"]["code"], -32601) << method;
        const auto& e = r["error"]["data"];
        EXPECT_EQ(e["code"], "unknown_method") << method;
        EXPECT_EQ(e["disposition"]["retry"], "never");
        EXPECT_EQ(e["suggestion"], std::string(info.suggestion));
        EXPECT_NE(e["message"].get<std::string>().find(method), std::string::npos) << e.dump();
    }
    // A long method name is cut in the message; the connection goes on.
    auto r = host.rpc(std::string(10000, 'x'));
    EXPECT_LT(r["error"]["data"]["message"].get<std::string>().size(), 200u);
    EXPECT_EQ(host.rpc("ping")["result"], json::object());
}

TEST_F(DriverDaemonTest, TakeoverResumeOnTheSocketDoesNotResumeAPausedTakeover)
{
    Host host(m_socket, "host");
    auto started = host.tool("start_session", {{"input", "takeover"}});
    ASSERT_EQ(started["takeover"]["on"], true) << started.dump();
    m_mock->raise(SETTINGS);
    auto user = host.token("Settings", "Username");
    m_mock->inject_person_input(nd_core::PersonInput::key_pressed);
    auto typed = host.tool("type_text", {{"element_token", user}, {"text", "hi"}, {"delivery_mode", "foreground"}});
    ASSERT_EQ(typed["error"]["code"], "user_took_over") << typed.dump();

    auto r = host.rpc("takeover.resume", {{"session", started["session"]}});
    EXPECT_EQ(r["error"]["data"]["code"], "unknown_method");
    EXPECT_TRUE(host.tool("get_session_state")["takeover"]["paused"].get<bool>());
    EXPECT_TRUE(m_mock->indicator_paused());
    // Only the person's click resumes it.
    EXPECT_TRUE(m_mock->click_continue());
    EXPECT_FALSE(host.tool("get_session_state")["takeover"]["paused"].get<bool>());
}

TEST_F(DriverDaemonTest, SocketIsPrivateAndOneDaemonPerPath)
{
    struct stat st{};
    ASSERT_EQ(::stat(m_socket.c_str(), &st), 0);
    EXPECT_TRUE(S_ISSOCK(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    ASSERT_EQ(::stat(fs::path(m_socket).parent_path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);

    auto backend = nd_mock::MockBackend::load(nd_mock::MockBackend::default_fixture_dir());
    ASSERT_TRUE(backend.ok());
    nd_driver::DriverDaemonOptions options;
    options.socket = m_socket;
    auto second = nd_driver::DriverDaemon::open(**backend, m_consent, m_audit, options);
    ASSERT_FALSE(second.ok());
    EXPECT_NE(second.error().message.find("already listens"), std::string::npos) << second.error().message;
    // The first still answers.
    EXPECT_TRUE(Host(m_socket).rpc("metadata").contains("result"));
}

TEST_F(DriverDaemonTest, TwoHostsEachHaveTheirOwnSessionAndOneTakeoverPerDisplay)
{
    Host a(m_socket, "alpha");
    Host b(m_socket, "beta");
    auto sa = a.tool("start_session", {{"input", "takeover"}});
    auto sb = b.tool("start_session", {{"input", "takeover"}});
    ASSERT_FALSE(sa["is_error"].get<bool>()) << sa.dump();
    ASSERT_FALSE(sb["is_error"].get<bool>()) << sb.dump();
    EXPECT_NE(sa["session"], sb["session"]);
    EXPECT_EQ(sa["takeover"]["on"], true);
    EXPECT_EQ(sb["takeover"]["on"], false);
    EXPECT_NE(sb["takeover"]["reason"].get<std::string>().find("another host of this daemon"), std::string::npos)
        << sb.dump();
    // B reads and acts headless; A's tokens are A's.
    auto remember = b.token("Settings", "Remember me");
    EXPECT_FALSE(b.tool("click", {{"element_token", remember}})["is_error"].get<bool>());
    EXPECT_TRUE(a.tool("click", {{"element_token", remember}})["is_error"].get<bool>());

    // The person pauses A; B is untouched, and Continue reaches A.
    m_mock->raise(SETTINGS);
    auto user = a.token("Settings", "Username");
    m_mock->inject_person_input(nd_core::PersonInput::key_pressed);
    EXPECT_EQ(a.tool("type_text", {{"element_token", user}, {"text", "hi"}, {"delivery_mode", "foreground"}})["error"]["code"],
        "user_took_over");
    EXPECT_FALSE(b.tool("get_session_state")["takeover"]["paused"].get<bool>());
    EXPECT_TRUE(m_mock->click_continue());
    EXPECT_FALSE(a.tool("get_session_state")["takeover"]["paused"].get<bool>());

    // A's host goes away: its session ends and the indicator with it; B may now take over.
    a.close();
    for (int i = 0; i < 100 && m_mock->indicator_shown(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(m_mock->indicator_shown());
    auto again = b.tool("start_session", {{"input", "takeover"}});
    EXPECT_EQ(again["takeover"]["on"], true) << again.dump();
    EXPECT_EQ(again["session"], sb["session"]);
}

TEST_F(DriverDaemonTest, ClipboardStaysWithTheHostThatWroteItLast)
{
    Host a(m_socket, "alpha");
    Host b(m_socket, "beta");
    a.tool("start_session");
    b.tool("start_session");
    ASSERT_FALSE(a.tool("clipboard_write", {{"text", "from a"}})["is_error"].get<bool>());
    ASSERT_FALSE(b.tool("clipboard_write", {{"text", "from b"}})["is_error"].get<bool>());
    a.tool("end_session");
    EXPECT_EQ(m_mock->clipboard_text(), "from b");
    b.tool("end_session");
    EXPECT_EQ(m_mock->clipboard_text(), "");
}

TEST_F(DriverDaemonTest, BadLinesGetErrorsAndTheConnectionGoesOn)
{
    Host host(m_socket, "host");
    host.send("{not json");
    EXPECT_EQ(host.reply(nullptr)["error"]["code"], -32700);
    host.send(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"no_such_tool"}})");
    auto unknown = host.reply(7);
    EXPECT_TRUE(unknown.contains("error") || unknown["result"].value("isError", false)) << unknown.dump();
    EXPECT_EQ(host.tool("list_windows")["error"]["code"], "not_consented");
}

TEST_F(DriverDaemonTest, StopEndsEveryConnectionAndRemovesTheSocket)
{
    Host a(m_socket, "alpha");
    a.tool("start_session", {{"input", "takeover"}});
    ASSERT_TRUE(m_mock->indicator_shown());
    stop();
    EXPECT_TRUE(a.closed_by_daemon());
    EXPECT_FALSE(m_mock->indicator_shown());
    EXPECT_FALSE(fs::exists(m_socket));
}

TEST_F(DriverDaemonTest, AHostThatStopsReadingLosesOnlyItsOwnConnection)
{
    Host slow(m_socket, "slow");
    slow.tool("start_session");
    // Ask for big answers and never read them.
    const std::string big = json({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
        {"params", {{"name", "get_window_state"}, {"arguments", {{"app", "Settings"}, {"max_elements", 5000}}}}}}).dump();
    for (int i = 0; i < 200; ++i)
        slow.send(big);
    Host other(m_socket, "other");
    other.tool("start_session");
    auto windows = other.tool("list_windows");
    EXPECT_FALSE(windows["is_error"].get<bool>()) << windows.dump();
}

} // namespace

namespace {

// The socket is 0600 in a 0700 directory, so another user cannot even connect. Should both be
// opened up (by mistake, or by a root that can connect anyway), the daemon still serves only its
// own user: a connection from another uid is closed unanswered (docs/security.md).
TEST_F(DriverDaemonTest, AnotherUsersConnectionIsClosedUnanswered)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "needs root to connect as another user";
    ::chmod(m_dir.c_str(), 0711);
    ::chmod(fs::path(m_socket).parent_path().c_str(), 0711);
    ::chmod(m_socket.c_str(), 0666);
    // The child only makes system calls: the daemon's thread may hold the allocator's lock at fork.
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    ASSERT_LT(m_socket.size(), sizeof address.sun_path);
    std::memcpy(address.sun_path, m_socket.c_str(), m_socket.size() + 1);
    static constexpr char LINE[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"metadata\"}\n";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        if (::setgid(65534) != 0 || ::setuid(65534) != 0)
            ::_exit(10);
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
            ::_exit(11);
        // The daemon may already have closed it: no SIGPIPE, and a refused send is a close too.
        if (::send(fd, LINE, sizeof LINE - 1, MSG_NOSIGNAL) < 0)
            ::_exit(errno == EPIPE || errno == ECONNRESET ? 0 : 14);
        char byte = 0;
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 5000) != 1)
            ::_exit(12); // neither answered nor closed
        ::_exit(::read(fd, &byte, 1) <= 0 ? 0 : 13); // closed (or reset: the line went unread)
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "10: no setuid, 11: no connection, 12: hung, 13: answered another user, 14: send failed";
    // Its own user is still served.
    EXPECT_TRUE(Host(m_socket).rpc("metadata").contains("result"));
}

} // namespace

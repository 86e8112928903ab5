// The shuttle daemon on the mock backend (docs/desk.md): its socket's mode and group, a stale socket
// replaced and a live one refused, failures answered as is_error frames on a connection that stays
// open, an oversized frame, a config that failed to load, and safety_stop / safety_resume: the halt,
// and the refusal of a peer of another uid (run through setpriv as nobody when the test runs as root).

#include "desk/daemon/daemon.h"
#include "desk/wire/client.h"
#include "desk/wire/frame_io.h"
#include "backend/backend_select.h"

#include <gtest/gtest.h>

#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

namespace w = nd_desk::wire;
using namespace std::chrono_literals;

namespace {

std::string temp_dir()
{
    char tmpl[] = "/tmp/shuttle-test-XXXXXX";
    const char* made = ::mkdtemp(tmpl);
    return made ? made : "";
}

class DaemonTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        auto backend = nd_backend::open_backend({.name = "mock"});
        ASSERT_TRUE(backend.ok()) << backend.error().message;
        m_backend = std::move(backend).value();
        m_dir = temp_dir();
        ASSERT_FALSE(m_dir.empty());
        m_socket = m_dir + "/sub/desk.sock";
    }
    void TearDown() override
    {
        stop();
        std::filesystem::remove_all(m_dir);
    }

    void start(nd_desk::DaemonOptions options)
    {
        options.endpoint = m_socket;
        auto daemon = nd_desk::Daemon::open(*m_backend, std::move(options));
        ASSERT_TRUE(daemon.ok()) << daemon.error().message;
        m_daemon = std::move(daemon).value();
        m_thread = std::thread([this] { m_daemon->run(); });
    }
    void start() { start(nd_desk::DaemonOptions{.config = nd_desk::DeskConfig{}}); }
    void stop()
    {
        if (m_daemon)
            m_daemon->request_stop();
        if (m_thread.joinable())
            m_thread.join();
        m_daemon.reset();
    }

    w::Response call(const std::string& tool, nlohmann::json args = nullptr)
    {
        auto client = w::Client::connect(m_socket);
        EXPECT_TRUE(client.ok()) << client.error().message;
        if (!client.ok())
            return w::error_text("no connection");
        auto r = client->call(w::Request{"", tool, std::move(args)}, w::Clock::now() + 5s);
        EXPECT_EQ(r.status, w::Client::CallStatus::answered) << r.failure;
        return r.response;
    }

    // Runs the shuttle binary with this test's socket; returns its exit status and output.
    int run_shuttle(const std::string& args, std::string& output, const std::string& prefix = "")
    {
        const std::string cmd = prefix + "env SHUTTLE_SOCKET=" + m_socket + " " NISH_BIN_DIR "/shuttle " + args + " 2>&1";
        FILE* p = ::popen(cmd.c_str(), "r");
        if (!p)
            return -1;
        char buf[512];
        output.clear();
        while (std::size_t n = std::fread(buf, 1, sizeof buf, p))
            output.append(buf, n);
        const int status = ::pclose(p);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    std::unique_ptr<nd_core::Backend> m_backend;
    std::unique_ptr<nd_desk::Daemon> m_daemon;
    std::thread m_thread;
    std::string m_dir, m_socket;
};

} // namespace

TEST_F(DaemonTest, SocketIsPrivateToItsUser)
{
    start();
    struct stat st{};
    ASSERT_EQ(::stat(m_socket.c_str(), &st), 0);
    EXPECT_TRUE(S_ISSOCK(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_EQ(st.st_uid, ::geteuid());
    ASSERT_EQ(::stat((m_dir + "/sub").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u) << "the directory it made is private too";
    stop();
    EXPECT_NE(::access(m_socket.c_str(), F_OK), 0) << "the socket file goes with the daemon";
}

TEST_F(DaemonTest, SocketGroupOpensItToThatGroup)
{
    const group* g = ::getgrnam("nogroup");
    if (!g)
        GTEST_SKIP() << "no group named nogroup here";
    nd_desk::DeskConfig config;
    config.socket_group = "nogroup";
    start(nd_desk::DaemonOptions{.config = config});
    struct stat st{};
    ASSERT_EQ(::stat(m_socket.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0660u);
    EXPECT_EQ(st.st_gid, g->gr_gid);
}

TEST_F(DaemonTest, UnknownSocketGroupIsRefused)
{
    nd_desk::DeskConfig config;
    config.socket_group = "no-such-group-here";
    auto daemon = nd_desk::Daemon::open(*m_backend, nd_desk::DaemonOptions{.endpoint = m_socket, .config = config});
    ASSERT_FALSE(daemon.ok());
    EXPECT_NE(daemon.error().message.find("no-such-group-here"), std::string::npos);
}

TEST_F(DaemonTest, StaleSocketIsReplacedAndALiveOneRefused)
{
    // A socket file nobody listens on, as a killed daemon leaves.
    std::filesystem::create_directories(m_dir + "/sub");
    {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::strncpy(addr.sun_path, m_socket.c_str(), sizeof addr.sun_path - 1);
        ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        ::close(fd);
    }
    start();
    auto second = nd_desk::Daemon::open(*m_backend, nd_desk::DaemonOptions{.endpoint = m_socket, .config = nd_desk::DeskConfig{}});
    ASSERT_FALSE(second.ok());
    EXPECT_NE(second.error().message.find("already listens"), std::string::npos) << second.error().message;
    // A regular file in the way is not removed.
    const std::string file = m_dir + "/plain";
    std::FILE* f = std::fopen(file.c_str(), "w");
    std::fclose(f);
    auto third = nd_desk::Daemon::open(*m_backend, nd_desk::DaemonOptions{.endpoint = file, .config = nd_desk::DeskConfig{}});
    ASSERT_FALSE(third.ok());
    EXPECT_NE(third.error().message.find("not a socket"), std::string::npos);
}

TEST_F(DaemonTest, FailuresAreAnswersAndTheConnectionStaysOpen)
{
    start();
    auto client = w::Client::connect(m_socket);
    ASSERT_TRUE(client.ok());
    auto unknown = client->call(w::Request{"", "desk_nonesuch", nullptr}, w::Clock::now() + 5s);
    ASSERT_EQ(unknown.status, w::Client::CallStatus::answered);
    EXPECT_TRUE(unknown.response.is_error);
    EXPECT_NE(unknown.response.text.find("unknown tool desk_nonesuch"), std::string::npos);
    auto bad_args = client->call(w::Request{"", "desk_screen", {{"bogus", 1}}}, w::Clock::now() + 5s);
    ASSERT_EQ(bad_args.status, w::Client::CallStatus::answered);
    EXPECT_TRUE(bad_args.response.is_error);
    EXPECT_NE(bad_args.response.text.find("bogus"), std::string::npos) << bad_args.response.text;
    // The mock desk has no screen: an error from the verb itself, still on the same connection.
    auto screen = client->call(w::Request{"agent", "desk_screen", nullptr}, w::Clock::now() + 5s);
    ASSERT_EQ(screen.status, w::Client::CallStatus::answered);
    EXPECT_TRUE(screen.response.is_error);
    EXPECT_NE(screen.response.text.find("no screen"), std::string::npos);

    // Raw frames: not JSON, no tool, tool twice.
    const int fd = client->fd();
    for (std::string_view payload : {std::string_view("not json"), std::string_view(R"({"args":{}})"),
                                     std::string_view(R"({"tool":"desk_screen","tool":"safety_stop"})")}) {
        ASSERT_EQ(w::write_frame(fd, payload, std::nullopt), 0);
        auto r = w::read_frame(fd, w::MAX_RESPONSE_BYTES, w::Clock::now() + 5s);
        ASSERT_EQ(r.status, w::ReadStatus::frame) << payload;
        auto decoded = w::decode_response(r.payload);
        ASSERT_TRUE(decoded.ok());
        EXPECT_TRUE(decoded->is_error) << payload;
    }
    EXPECT_FALSE(m_daemon->desk().safety_stop().stopped()) << "a duplicated tool key must not run safety_stop";
}

TEST_F(DaemonTest, AnOversizedFrameIsRefusedThenTheConnectionCloses)
{
    start();
    auto client = w::Client::connect(m_socket);
    ASSERT_TRUE(client.ok());
    const std::string header = w::header_for(w::MAX_REQUEST_BYTES + 1);
    ASSERT_EQ(::send(client->fd(), header.data(), header.size(), MSG_NOSIGNAL), 4);
    auto r = w::read_frame(client->fd(), w::MAX_RESPONSE_BYTES, w::Clock::now() + 5s);
    ASSERT_EQ(r.status, w::ReadStatus::frame);
    EXPECT_NE(r.payload.find("the wire takes at most"), std::string::npos) << r.payload;
    EXPECT_EQ(w::read_frame(client->fd(), 100, w::Clock::now() + 5s).status, w::ReadStatus::closed);
}

TEST_F(DaemonTest, AConfigThatFailedAnswersEveryCallButTheSafetyOnes)
{
    start(nd_desk::DaemonOptions{.config_error = "config.toml: unknown key apps.alow"});
    auto r = call("desk_screen");
    EXPECT_TRUE(r.is_error);
    EXPECT_NE(r.text.find("apps.alow"), std::string::npos) << r.text;
    auto stop = call("safety_stop");
    EXPECT_FALSE(stop.is_error) << stop.text;
    auto resume = call("safety_resume");
    EXPECT_FALSE(resume.is_error) << resume.text;
}

TEST_F(DaemonTest, SafetyStopHaltsUntilResume)
{
    start();
    std::string out;
    ASSERT_EQ(run_shuttle("stop", out), 0) << out;
    EXPECT_NE(out.find("\"halted\":true"), std::string::npos) << out;
    auto refused = call("desk_screen");
    EXPECT_TRUE(refused.is_error);
    EXPECT_NE(refused.text.find("stopped by the user"), std::string::npos) << refused.text;
    ASSERT_EQ(run_shuttle("resume", out), 0) << out;
    EXPECT_NE(out.find("\"halted\":false"), std::string::npos) << out;
    auto again = call("desk_screen");
    EXPECT_EQ(again.text.find("stopped by the user"), std::string::npos) << again.text;
}

TEST_F(DaemonTest, SafetyStopFromAnotherUserIsRefused)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "needs root to run a client as another user";
    if (::system("command -v setpriv >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "no setpriv";
    // The socket opened to nogroup, in a directory others may pass through, so nobody can connect.
    std::filesystem::create_directories(m_dir + "/sub");
    ::chmod(m_dir.c_str(), 0711);
    ::chmod((m_dir + "/sub").c_str(), 0711);
    nd_desk::DeskConfig config;
    config.socket_group = "nogroup";
    start(nd_desk::DaemonOptions{.config = config});
    std::string out;
    const int status = run_shuttle("stop", out, "setpriv --reuid=65534 --regid=65534 --clear-groups ");
    EXPECT_EQ(status, 1) << out;
    EXPECT_NE(out.find("answered only to the daemon's own user"), std::string::npos) << out;
    EXPECT_FALSE(m_daemon->desk().safety_stop().stopped());
    // The same user may.
    ASSERT_EQ(run_shuttle("stop", out), 0) << out;
    EXPECT_TRUE(m_daemon->desk().safety_stop().stopped());
}

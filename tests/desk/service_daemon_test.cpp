// Service tools through a real daemon on the mock backend (docs/services.md, "Routing" and
// "Safety"): the daemon reads the service from tools.d, starts it, and relays each call of its tools
// to it. Covered: a call answered, a wire-only tool's stream of frames, half-close both ways, 1 GiB
// each way through the relay, the 10 s connect wait (a service that listens late is waited for, one
// that never does is an error frame after 10 s), a crashed service found again after its restart,
// a call the service exited without reading sent again (twice at most),
// safety_stop mid-stream (the connection closes with no reply, the service keeps running, new calls
// are refused until resume), script_run = false leaving services on, and the daemon's exit ending
// a service that ignores SIGTERM.

#include "desk/desk_test_support.h"
#include "desk/service/service_test_support.h"
#include "desk/services/service_paths.h"
#include "desk/wire/frame_io.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/socket.h>

namespace w = nd_desk::wire;
using namespace std::chrono_literals;
using nlohmann::json;
using nd_test::ServiceClock;

namespace {

// A raw connection to the daemon: one request frame, then whatever the call does.
class RawCall {
public:
    RawCall(const std::string& endpoint, const std::string& tool, const json& args = json::object())
    {
        auto client = w::Client::connect(endpoint);
        EXPECT_TRUE(client.ok());
        m_client.emplace(std::move(client).value());
        const auto payload = w::encode_request(w::Request{"agent-7", tool, args});
        EXPECT_EQ(w::write_frame(fd(), payload, w::Clock::now() + 5s), 0);
    }
    int fd() const { return m_client->fd(); }
    w::ReadResult frame(std::chrono::milliseconds limit = 15s)
    {
        return w::read_frame(fd(), w::MAX_RESPONSE_BYTES, w::Clock::now() + limit);
    }
    // Bytes until end of file (or `limit`); -1 on an error.
    long long drain(std::chrono::milliseconds limit = 60s)
    {
        static char buffer[256 * 1024];
        long long total = 0;
        const auto until = ServiceClock::now() + limit;
        while (ServiceClock::now() < until) {
            const ssize_t n = ::recv(fd(), buffer, sizeof buffer, 0);
            if (n == 0)
                return total;
            if (n < 0)
                return errno == EINTR ? total : -1;
            total += n;
        }
        return -1;
    }

private:
    std::optional<w::Client> m_client;
};

class ServiceDaemonTest : public ::testing::Test {
protected:
    std::string log() const { return m_dir.path + "/service.log"; }

    void start(std::vector<std::string> options = {}, nd_desk::DeskConfig config = {},
        std::chrono::milliseconds connect_wait = nd_desk::SERVICE_CONNECT_WAIT)
    {
        const auto tools = m_dir.path + "/tools.d";
        std::filesystem::create_directory(tools);
        std::ofstream(tools + "/tester.json") << nd_test::service_file(nd_test::test_service("tester", log(), std::move(options))).dump();
        config.plugins_dir = tools;
        m_daemon.emplace(m_dir.socket(), config, [&](nd_desk::DaemonOptions& o) {
            o.service_connect_wait = connect_wait;
            o.log = [](const std::string&) {};
        });
    }

    w::Response call(const std::string& tool, const json& args = json::object())
    {
        auto client = w::Client::connect(m_dir.socket());
        EXPECT_TRUE(client.ok());
        auto r = client->call(w::Request{"agent-7", tool, args}, w::Clock::now() + 20s);
        EXPECT_EQ(r.status, w::Client::CallStatus::answered) << r.failure;
        return r.response;
    }

    nd_test::TempDir m_dir{"svcd"};
    std::optional<nd_test::MockDaemon> m_daemon;
};

TEST_F(ServiceDaemonTest, ACallIsAnsweredByTheService)
{
    start();
    const auto r = call("svc_echo", {{"title", "groceries"}});
    ASSERT_FALSE(r.is_error) << r.text;
    const auto echoed = json::parse(r.text);
    EXPECT_EQ(echoed["tool"], "svc_echo");
    EXPECT_EQ(echoed["agent_id"], "agent-7");
    EXPECT_EQ(echoed["args"]["title"], "groceries");
    // The daemon's other tools are unaffected.
    EXPECT_FALSE(call("desk_windows").is_error);
    ASSERT_EQ(m_daemon->daemon().services().size(), 1u);
    EXPECT_EQ(m_daemon->daemon().services()[0].starts, 1u);
}

TEST_F(ServiceDaemonTest, AWireOnlyToolStreamsFramesThenTheServiceCloses)
{
    start();
    RawCall c(m_dir.socket(), "svc_frames", {{"count", 5}});
    for (int i = 0; i < 5; ++i) {
        auto f = c.frame();
        ASSERT_EQ(f.status, w::ReadStatus::frame) << i;
        EXPECT_EQ(w::decode_response(f.payload)->text, "frame " + std::to_string(i));
    }
    // The service closed its end; the client sees the end of the stream after the frames.
    EXPECT_EQ(c.frame().status, w::ReadStatus::closed);
}

TEST_F(ServiceDaemonTest, HalfCloseEachWay)
{
    start();
    {
        // Client to service: what follows the first frame, then the client's end; the service
        // reads to end of file and still answers.
        RawCall c(m_dir.socket(), "svc_sink");
        const std::string extra(300000, 'y');
        ASSERT_EQ(::send(c.fd(), extra.data(), extra.size(), MSG_NOSIGNAL), static_cast<ssize_t>(extra.size()));
        ::shutdown(c.fd(), SHUT_WR);
        auto f = c.frame();
        ASSERT_EQ(f.status, w::ReadStatus::frame);
        EXPECT_EQ(w::decode_response(f.payload)->text, "300000");
        EXPECT_EQ(c.frame().status, w::ReadStatus::closed);
    }
    {
        // Service to client: the service has closed its end after its frames, and the client's
        // side still reaches it: the service reads end of file only when the client closes.
        RawCall c(m_dir.socket(), "svc_until_eof");
        std::this_thread::sleep_for(100ms);
        EXPECT_EQ(nd_test::count_prefix(nd_test::log_lines(log()), "eof after"), 0u);
        const std::string more(1000, 'z');
        ASSERT_EQ(::send(c.fd(), more.data(), more.size(), MSG_NOSIGNAL), 1000);
        ::shutdown(c.fd(), SHUT_WR);
        auto f = c.frame();
        ASSERT_EQ(f.status, w::ReadStatus::frame);
        EXPECT_EQ(w::decode_response(f.payload)->text, "saw eof");
        EXPECT_EQ(nd_test::logged_number(log(), "eof after "), 1000);
    }
}

TEST_F(ServiceDaemonTest, OneGibibyteEachWayThroughTheRelay)
{
    start();
    constexpr long long GIB = 1LL << 30;
    {
        RawCall c(m_dir.socket(), "svc_stream", {{"bytes", GIB}});
        EXPECT_EQ(c.drain(), GIB);
    }
    {
        RawCall c(m_dir.socket(), "svc_sink");
        static char chunk[256 * 1024];
        std::memset(chunk, 'q', sizeof chunk);
        long long sent = 0;
        while (sent < GIB) {
            const ssize_t n = ::send(c.fd(), chunk, sizeof chunk, MSG_NOSIGNAL);
            ASSERT_GT(n, 0) << std::strerror(errno);
            sent += n;
        }
        ::shutdown(c.fd(), SHUT_WR);
        auto f = c.frame(60s);
        ASSERT_EQ(f.status, w::ReadStatus::frame);
        EXPECT_EQ(w::decode_response(f.payload)->text, std::to_string(GIB));
    }
}

TEST_F(ServiceDaemonTest, ACallWaitsForAServiceThatListensLate)
{
    start({"--listen-after", "1500"});
    const auto before = ServiceClock::now();
    const auto r = call("svc_echo");
    EXPECT_FALSE(r.is_error) << r.text;
    EXPECT_GE(ServiceClock::now() - before, 1200ms);
}

TEST_F(ServiceDaemonTest, NoListenerWithinTenSecondsIsAnErrorFrameAndTheConnectionGoesOn)
{
    start({"--listen-after", "60000"});
    auto client = w::Client::connect(m_dir.socket());
    ASSERT_TRUE(client.ok());
    const auto before = ServiceClock::now();
    auto r = client->call(w::Request{"", "svc_echo", json::object()}, w::Clock::now() + 20s);
    const auto took = std::chrono::duration<double>(ServiceClock::now() - before).count();
    ASSERT_EQ(r.status, w::Client::CallStatus::answered) << r.failure;
    EXPECT_TRUE(r.response.is_error);
    EXPECT_NE(r.response.text.find("service tester is not listening"), std::string::npos) << r.response.text;
    EXPECT_NE(r.response.text.find("after 10 s"), std::string::npos) << r.response.text;
    EXPECT_GE(took, 9.9);
    EXPECT_LE(took, 11.0);
    // The same connection serves the next call.
    auto next = client->call(w::Request{"", "desk_windows", json::object()}, w::Clock::now() + 5s);
    ASSERT_EQ(next.status, w::Client::CallStatus::answered);
    EXPECT_FALSE(next.response.is_error) << next.response.text;
}

TEST_F(ServiceDaemonTest, ACrashedServiceIsFoundAgainAfterItsRestart)
{
    start();
    ASSERT_FALSE(call("svc_echo").is_error);
    {
        RawCall c(m_dir.socket(), "svc_crash");
        EXPECT_EQ(c.frame().status, w::ReadStatus::closed); // no reply: the service is gone
    }
    // The next call waits through the 1 s restart.
    const auto r = call("svc_echo");
    EXPECT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(m_daemon->daemon().services()[0].starts, 2u);
    EXPECT_NE(m_daemon->daemon().services()[0].last_exit.find("exit status 3"), std::string::npos);
}

TEST_F(ServiceDaemonTest, ACallTheServiceExitedWithoutReadingGoesToItsNextStart)
{
    start();
    ASSERT_EQ(call("svc_exit_unread").text, "next");
    // The service exits as it accepts the call, before reading it: the daemon sends the call again
    // once the service listens after its restart (1 s), and the client never knows.
    const auto t0 = ServiceClock::now();
    const auto r = call("svc_echo", {{"title", "sent twice"}});
    const double took = std::chrono::duration<double>(ServiceClock::now() - t0).count();
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(json::parse(r.text)["args"]["title"], "sent twice");
    EXPECT_GE(took, 0.9);
    const auto lines = nd_test::log_lines(log());
    EXPECT_EQ(nd_test::count_prefix(lines, "exit unread"), 1u);
    // The first start saw no call of svc_echo; the second answered it.
    EXPECT_EQ(nd_test::count_prefix(lines, "call svc_echo"), 1u);
    EXPECT_EQ(m_daemon->daemon().services()[0].starts, 2u);
    EXPECT_NE(m_daemon->daemon().services()[0].last_exit.find("exit status 3"), std::string::npos);
}

TEST_F(ServiceDaemonTest, ACallAServiceClosesUnreadAtEveryStartIsAnErrorAfterTwoResends)
{
    start({"--exit-on-accept"});
    // Sent three times, never read. Each start takes one send and exits; a send can also reach
    // the exiting process while its listening socket is still open (then the listener's close
    // resets it too), so the three sends span two or three starts: at least the 1 s restart wait.
    const auto t0 = ServiceClock::now();
    const auto r = call("svc_echo");
    const double took = std::chrono::duration<double>(ServiceClock::now() - t0).count();
    ASSERT_TRUE(r.is_error);
    EXPECT_NE(r.text.find("service tester closed the call unread 3 times"), std::string::npos) << r.text;
    EXPECT_GE(took, 0.9);
    const auto exits = nd_test::count_prefix(nd_test::log_lines(log()), "exit unread");
    EXPECT_GE(exits, 2u);
    EXPECT_LE(exits, 3u);
    EXPECT_EQ(nd_test::count_prefix(nd_test::log_lines(log()), "call "), 0u);
}

TEST_F(ServiceDaemonTest, SafetyStopClosesAStreamWithoutAReplyAndRefusesCallsUntilResume)
{
    start();
    RawCall c(m_dir.socket(), "svc_stream", {{"bytes", 1LL << 50}});
    char buffer[65536];
    ASSERT_GT(::recv(c.fd(), buffer, sizeof buffer, MSG_WAITALL), 0);
    const int pid = m_daemon->daemon().services()[0].pid;
    m_daemon->safety(true);
    // The rest of what was in flight, then the end: no reply frame follows.
    EXPECT_GE(c.drain(5s), 0);
    EXPECT_TRUE(nd_test::wait_until([&] { return nd_test::count_prefix(nd_test::log_lines(log()), "stream cut") == 1; }, 5s));
    const auto refused = call("svc_echo");
    EXPECT_TRUE(refused.is_error);
    EXPECT_EQ(refused.text.rfind("stopped by the user", 0), 0u) << refused.text;
    // The service kept running.
    EXPECT_EQ(m_daemon->daemon().services()[0].pid, pid);
    m_daemon->safety(false);
    EXPECT_FALSE(call("svc_echo").is_error);
    EXPECT_EQ(m_daemon->daemon().services()[0].starts, 1u);
}

TEST_F(ServiceDaemonTest, ScriptRunOffLeavesServicesRunningAndReached)
{
    nd_desk::DeskConfig config;
    config.script_run = false;
    start({}, config);
    EXPECT_FALSE(call("svc_echo").is_error);
    const auto off = call("script_run", {{"code", "return 1"}});
    EXPECT_TRUE(off.is_error);
}

TEST_F(ServiceDaemonTest, TheDaemonsExitEndsAServiceThatIgnoresSigterm)
{
    start({"--ignore-term", "--child"});
    ASSERT_FALSE(call("svc_echo").is_error);
    const long service = nd_test::logged_number(log(), "start ");
    const long child = nd_test::logged_number(log(), "child ");
    const auto before = ServiceClock::now();
    m_daemon->stop();
    const double took = std::chrono::duration<double>(ServiceClock::now() - before).count();
    EXPECT_GE(took, 2.9);
    EXPECT_LE(took, 4.0);
    EXPECT_TRUE(nd_test::process_gone(service));
    EXPECT_TRUE(nd_test::wait_until([&] { return nd_test::process_gone(child); }, 1s));
}

TEST_F(ServiceDaemonTest, AServiceToolOutsideAConnectionSaysWhereItIsReached)
{
    start();
    nd_desk::PeerCred self{::getpid(), ::geteuid()};
    const auto r = m_daemon->daemon().handle(w::encode_request(w::Request{"", "svc_echo", json::object()}), self, nullptr, -1);
    EXPECT_TRUE(r.is_error);
    EXPECT_NE(r.text.find("is a service's tool"), std::string::npos) << r.text;
}

} // namespace

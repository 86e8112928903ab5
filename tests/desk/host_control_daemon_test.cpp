// shuttle daemon with the host's control pipe (docs/desk-control.md): the daemon makes the channel
// its desk's confirm provider, the pipe's safety_stop is the daemon's, shutdown ends a pending
// question; and the real `shuttle daemon --control-fd` with its bad values.

#include "desk/desk_test_support.h"
#include "tools/pipe_lines.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <future>

namespace {

using namespace std::chrono_literals;
using nd_test::LineIn;
using nd_test::write_line;
using nlohmann::json;

nd_core::ConfirmRequest typing()
{
    return {.verb = "desk_type", .app = "gedit", .window = "notes.txt", .target = "t", .text_chars = 2, .text_start = "hi",
        .secure = false};
}

TEST(HostControlDaemon, TheDaemonAsksItsHost)
{
    nd_test::TempDir dir;
    int fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    {
        nd_test::MockDaemon daemon(dir.socket(), nd_desk::DeskConfig{}, [&](nd_desk::DaemonOptions& o) {
            o.control = nd_mcp::ControlFds{fds[0], fds[0]};
            o.control_options.liveness_interval = 20ms;
        });
        ASSERT_NE(daemon.daemon().host_control(), nullptr);
        EXPECT_EQ(daemon.daemon().desk().confirm_provider(), daemon.daemon().host_control());
        LineIn host(fds[1]);
        write_line(fds[1], R"({"method":"safety_stop"})");
        EXPECT_EQ(host.next_json()["event"], "ack");
        EXPECT_TRUE(daemon.daemon().desk().safety_stop().stopped());
        write_line(fds[1], R"({"method":"safety_resume"})");
        EXPECT_EQ(host.next_json()["event"], "ack");
        EXPECT_FALSE(daemon.daemon().desk().safety_stop().stopped());
        auto pending = std::async(std::launch::async, [&] {
            return daemon.daemon().desk().confirm_provider()->ask(typing(), {.timeout = 10s, .stopped = {}});
        });
        EXPECT_EQ(host.next_json()["event"], "confirm.request");
        daemon.daemon().request_stop(); // shutdown ends the wait: nobody answers any more
        ASSERT_EQ(pending.wait_for(2s), std::future_status::ready);
        EXPECT_FALSE(pending.get().ok());
    }
    for (int fd : fds)
        ::close(fd);
    // Without --control-fd there is no channel, and the desk asks whom it asked before.
    nd_test::TempDir plain_dir;
    nd_test::MockDaemon plain(plain_dir.socket());
    EXPECT_EQ(plain.daemon().host_control(), nullptr);
}

// Confirm mode answered by the host, end to end: a client's desk_click over the wire waits for the
// host's confirm.answer; allowed it runs, denied it fails with confirm_refused and sends nothing.
TEST(HostControlDaemon, TheHostAnswersConfirmModeForAWireCall)
{
    namespace w = nd_desk::wire;
    nd_test::TempDir dir;
    int fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    nd_desk::DeskConfig config;
    config.confirm = nd_desk::DeskConfig::ConfirmMode::acts;
    nd_test::MockDaemon daemon(dir.socket(), config, [&](nd_desk::DaemonOptions& o) { o.control = nd_mcp::ControlFds{fds[0], fds[0]}; });
    LineIn host(fds[1]);
    auto click = [&] {
        return std::async(std::launch::async, [&] {
            auto client = w::Client::connect(daemon.daemon().endpoint());
            EXPECT_TRUE(client.ok());
            return client->call(w::Request{"", "desk_click", {{"x", 320}, {"y", 252}}}, w::Clock::now() + 10s);
        });
    };
    for (bool allow : {true, false}) {
        auto call = click();
        const auto request = host.next_json();
        ASSERT_EQ(request["event"], "confirm.request") << request.dump();
        EXPECT_EQ(request["verb"], "desk_click");
        EXPECT_EQ(request["target"], "the point (320, 252)");
        EXPECT_EQ(call.wait_for(200ms), std::future_status::timeout) << "the click ran before the host answered";
        write_line(fds[1], json({{"method", "confirm.answer"}, {"params", {{"request", request["request"]}, {"allow", allow}}}}).dump());
        EXPECT_EQ(host.next_json()["event"], "ack");
        auto r = call.get();
        ASSERT_EQ(r.status, w::Client::CallStatus::answered);
        EXPECT_EQ(r.response.is_error, !allow) << r.response.text;
        if (!allow) {
            EXPECT_NE(r.response.text.find("the person refused desk_click"), std::string::npos) << r.response.text;
        }
    }
    ::close(fds[1]);
}

// The real program: --control-fd on a socket pair's end as descriptor 3, close-on-exec.
TEST(HostControlDaemon, ShuttleDaemonControlFd)
{
    nd_test::TempDir dir;
    int fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    const pid_t pid = nd_test::spawn_program(
        {std::string(NISH_BIN_DIR) + "/shuttle", "daemon", "--backend", "mock", "--socket", dir.socket(), "--control-fd", "3,3"},
        {{fds[0], 3}}, {"SHUTTLE_CONFIG=" + dir.path + "/none.toml", "XDG_CONFIG_HOME=" + dir.path});
    ::close(fds[0]);
    ASSERT_GT(pid, 0);
    LineIn host(fds[1]);
    write_line(fds[1], R"({"method":"safety_stop","id":"s"})");
    EXPECT_EQ(host.next_json(), json({{"event", "ack"}, {"method", "safety_stop"}, {"id", "s"}}));
    // The programs the daemon starts never inherit the pipe.
    std::ifstream fdinfo("/proc/" + std::to_string(pid) + "/fdinfo/3");
    std::string key, flags;
    while (fdinfo >> key && key != "flags:") {
    }
    fdinfo >> flags;
    EXPECT_NE(std::stoul(flags, nullptr, 8) & 02000000, 0u) << "flags " << flags;
    ::kill(pid, SIGTERM);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    ::close(fds[1]);

    for (const char* bad : {"3", "3,", "a,b", "0,4", "3,1", "900,901"}) {
        const std::string cmd = std::string(NISH_BIN_DIR) + "/shuttle daemon --backend mock --socket " + dir.socket() +
                                " --control-fd " + bad + " </dev/null >/dev/null 2>&1";
        const int s = std::system(cmd.c_str());
        EXPECT_TRUE(WIFEXITED(s) && WEXITSTATUS(s) == 2) << bad;
    }
}

} // namespace

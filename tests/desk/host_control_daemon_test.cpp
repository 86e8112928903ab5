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

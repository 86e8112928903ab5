// The services' supervision (docs/services.md, "Supervision"), on the test service: what a service
// is started with (its socket in a 0700 directory, the daemon's endpoint, no model key, the home
// directory, a process group of its own), a stale socket removed, the restart waits measured
// (1 s, 2 s, 4 s with the seed's figures; the doubling's cap and the reset after a long run on
// shortened ones), the group killed when the service exits, and the stop: SIGTERM, then the group
// killed 3 s later for a service that ignores it.

#include "desk/desk_test_support.h"
#include "desk/service/service_test_support.h"
#include "desk/services/service_paths.h"
#include "desk/services/service_supervisor.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>

namespace w = nd_desk::wire;
using namespace std::chrono_literals;
using nlohmann::json;
using nd_test::ServiceClock;

namespace {

class ServiceSupervisorTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() { ::setenv("OPENROUTER_API_KEY", "sk-or-secret", 1); }

    void SetUp() override { ::setenv("TEST_MODEL_KEY", "sk-other", 1); }

    nd_desk::ServiceLaunch launch() const { return {m_dir.socket(), m_dir.path, {"OPENROUTER_API_KEY", "TEST_MODEL_KEY"}}; }
    std::string log() const { return m_dir.path + "/service.log"; }

    // Starts the supervisor with one test service and returns it.
    std::unique_ptr<nd_desk::ServiceSupervisor> supervise(std::vector<std::string> options, nd_desk::ServicePolicy policy = {})
    {
        auto s = std::make_unique<nd_desk::ServiceSupervisor>(
            std::vector<nd_desk::Service>{nd_test::test_service("tester", log(), std::move(options))}, launch(), policy,
            [this](const std::string& line) {
                std::lock_guard lock(m_mutex);
                m_logged.push_back(line);
            });
        s->start();
        return s;
    }

    // Calls `tool` straight on the service's socket (no daemon).
    w::Response direct(const std::string& tool)
    {
        const auto socket = nd_desk::service_socket_path(m_dir.socket(), "tester");
        EXPECT_TRUE(nd_test::wait_until([&] { return nd_test::count_prefix(nd_test::log_lines(log()), "listening") > 0; }, 5s));
        auto client = w::Client::connect(socket);
        EXPECT_TRUE(client.ok()) << (client.ok() ? "" : client.error().message);
        if (!client.ok())
            return {};
        auto r = client->call(w::Request{"", tool, json::object()}, w::Clock::now() + 5s);
        EXPECT_EQ(r.status, w::Client::CallStatus::answered) << r.failure;
        return r.response;
    }

    // The times at which the first `n` starts were logged (polled every 5 ms).
    std::vector<ServiceClock::time_point> start_times(std::size_t n, std::chrono::milliseconds limit)
    {
        std::vector<ServiceClock::time_point> times;
        nd_test::wait_until([&] {
            const auto count = nd_test::count_prefix(nd_test::log_lines(log()), "start ");
            while (times.size() < count)
                times.push_back(ServiceClock::now());
            return times.size() >= n;
        }, limit);
        return times;
    }

    std::vector<std::string> daemon_log()
    {
        std::lock_guard lock(m_mutex);
        return m_logged;
    }

    nd_test::TempDir m_dir{"svc"};
    std::mutex m_mutex;
    std::vector<std::string> m_logged;
};

double seconds_between(ServiceClock::time_point a, ServiceClock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

TEST_F(ServiceSupervisorTest, AServiceStartsWithItsSocketTheEndpointAndNoModelKey)
{
    // A file left where the socket goes is removed before the start.
    const auto dir = nd_desk::services_dir(m_dir.socket());
    ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
    std::ofstream(nd_desk::service_socket_path(m_dir.socket(), "tester")) << "stale";
    ::setenv("SHUTTLE_CONFIG", "/somewhere/config.toml", 1);
    auto supervisor = supervise({});
    const auto env = json::parse(direct("svc_env").text);
    ::unsetenv("SHUTTLE_CONFIG");
    EXPECT_EQ(env["service_socket"], nd_desk::service_socket_path(m_dir.socket(), "tester"));
    EXPECT_EQ(env["socket"], m_dir.socket());
    EXPECT_EQ(env["model_key"], "none");
    EXPECT_EQ(env["other_key"], "none");
    EXPECT_EQ(env["config"], "none"); // the daemon's own SHUTTLE_* variables stay its own
    EXPECT_EQ(env["cwd"], m_dir.path);
    EXPECT_EQ(env["pgid"], env["pid"]);
    struct stat st{};
    ASSERT_EQ(::stat(dir.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0700u); // made private, though it was found open
    const auto status = supervisor->status();
    ASSERT_EQ(status.size(), 1u);
    EXPECT_EQ(status[0].pid, env["pid"].get<int>());
    EXPECT_EQ(status[0].starts, 1u);
}

TEST_F(ServiceSupervisorTest, AnUnsafeDirectoryStartsNoService)
{
    std::filesystem::create_directory(m_dir.path + "/elsewhere");
    std::filesystem::create_directory_symlink(m_dir.path + "/elsewhere", nd_desk::services_dir(m_dir.socket()));
    auto supervisor = supervise({});
    std::this_thread::sleep_for(200ms);
    EXPECT_TRUE(nd_test::log_lines(log()).empty());
    const auto lines = daemon_log();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("none started"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find("is not a directory"), std::string::npos) << lines[0];
}

TEST_F(ServiceSupervisorTest, RestartsAfterOneTwoAndFourSeconds)
{
    // The seed's figures: a service that exits at once waits 1 s, then 2 s, then 4 s.
    auto supervisor = supervise({"--exit-after", "0"});
    const auto times = start_times(4, 12s);
    ASSERT_EQ(times.size(), 4u);
    const double expected[] = {1.0, 2.0, 4.0};
    for (int i = 0; i < 3; ++i) {
        const double gap = seconds_between(times[i], times[i + 1]);
        // The wait, plus a process start and the 5 ms poll; a loaded machine adds some.
        EXPECT_GE(gap, expected[i] - 0.02) << "restart " << i + 1;
        EXPECT_LE(gap, expected[i] + 0.5) << "restart " << i + 1;
    }
    const auto lines = daemon_log();
    EXPECT_NE(std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.find("exit status 4 after") != std::string::npos && l.find("starting again in 2.0 s") != std::string::npos;
    }), lines.end());
}

TEST_F(ServiceSupervisorTest, TheWaitDoublesUpToItsCapAndALongRunStartsItAgain)
{
    nd_desk::ServicePolicy policy;
    policy.first_wait = 100ms;
    policy.max_wait = 400ms;
    policy.long_run = 500ms;
    {
        auto supervisor = supervise({"--exit-after", "0"}, policy);
        const auto times = start_times(6, 5s);
        ASSERT_EQ(times.size(), 6u);
        const double expected[] = {0.1, 0.2, 0.4, 0.4, 0.4};
        for (int i = 0; i < 5; ++i) {
            EXPECT_GE(seconds_between(times[i], times[i + 1]), expected[i] - 0.02) << i;
            EXPECT_LE(seconds_between(times[i], times[i + 1]), expected[i] + 0.3) << i;
        }
    }
    std::filesystem::remove(log());
    // Runs of 600 ms (longer than long_run) wait the first wait every time: no doubling.
    auto supervisor = supervise({"--exit-after", "600"}, policy);
    const auto times = start_times(4, 6s);
    ASSERT_EQ(times.size(), 4u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_GE(seconds_between(times[i], times[i + 1]), 0.68) << i;
        EXPECT_LE(seconds_between(times[i], times[i + 1]), 1.0) << i;
    }
}

TEST_F(ServiceSupervisorTest, WhenAServiceExitsTheRestOfItsGroupIsKilled)
{
    nd_desk::ServicePolicy policy;
    policy.first_wait = 5s; // one run is enough
    auto supervisor = supervise({"--child", "--exit-after", "300"}, policy);
    ASSERT_TRUE(nd_test::wait_until([&] { return nd_test::logged_number(log(), "child ") > 0; }, 5s));
    const long child = nd_test::logged_number(log(), "child ");
    EXPECT_FALSE(nd_test::process_gone(child));
    EXPECT_TRUE(nd_test::wait_until([&] { return nd_test::process_gone(child); }, 3s)) << "the service's child outlived it";
}

TEST_F(ServiceSupervisorTest, StopGivesAServiceThatIgnoresSigtermThreeSecondsThenKillsItsGroup)
{
    auto supervisor = supervise({"--ignore-term", "--child"});
    ASSERT_TRUE(nd_test::wait_until([&] { return nd_test::logged_number(log(), "child ") > 0; }, 5s));
    const long child = nd_test::logged_number(log(), "child ");
    const long service = nd_test::logged_number(log(), "start ");
    const auto before = ServiceClock::now();
    supervisor->stop();
    const double took = seconds_between(before, ServiceClock::now());
    EXPECT_GE(took, 2.95);
    EXPECT_LE(took, 4.0);
    EXPECT_TRUE(nd_test::process_gone(service));
    EXPECT_TRUE(nd_test::wait_until([&] { return nd_test::process_gone(child); }, 1s));
    EXPECT_NE(supervisor->status()[0].last_exit.find("signal KILL"), std::string::npos) << supervisor->status()[0].last_exit;
}

TEST_F(ServiceSupervisorTest, StopEndsAServiceThatHeedsSigtermAtOnce)
{
    auto supervisor = supervise({"--child"});
    ASSERT_TRUE(nd_test::wait_until([&] { return nd_test::logged_number(log(), "child ") > 0; }, 5s));
    const long child = nd_test::logged_number(log(), "child ");
    const auto before = ServiceClock::now();
    supervisor->stop();
    EXPECT_LT(seconds_between(before, ServiceClock::now()), 1.0);
    EXPECT_NE(supervisor->status()[0].last_exit.find("signal TERM"), std::string::npos) << supervisor->status()[0].last_exit;
    // Its group goes with it.
    EXPECT_TRUE(nd_test::wait_until([&] { return nd_test::process_gone(child); }, 1s));
}

TEST_F(ServiceSupervisorTest, ABinThatCannotStartIsTriedAgainWithTheSameWaits)
{
    nd_desk::ServicePolicy policy;
    policy.first_wait = 50ms;
    nd_desk::Service missing = nd_test::test_service("tester", log());
    missing.bin = m_dir.path + "/nowhere";
    nd_desk::ServiceSupervisor supervisor({missing}, launch(), policy, {});
    supervisor.start();
    ASSERT_TRUE(nd_test::wait_until([&] { return !supervisor.status()[0].last_exit.empty(); }, 2s));
    EXPECT_NE(supervisor.status()[0].last_exit.find("could not start"), std::string::npos) << supervisor.status()[0].last_exit;
    EXPECT_EQ(supervisor.status()[0].starts, 0u);
}

TEST_F(ServiceSupervisorTest, AProgramOthersMayWriteIsNotStarted)
{
    nd_desk::ServicePolicy policy;
    policy.first_wait = 50ms;
    nd_desk::Service open = nd_test::test_service("tester", log());
    open.bin = m_dir.path + "/open-service";
    std::ofstream(open.bin) << "#!/bin/sh\necho started >> " << log() << "\n";
    ::chmod(open.bin.c_str(), 0777);
    nd_desk::ServiceSupervisor supervisor({open}, launch(), policy, {});
    supervisor.start();
    ASSERT_TRUE(nd_test::wait_until([&] { return !supervisor.status()[0].last_exit.empty(); }, 2s));
    EXPECT_NE(supervisor.status()[0].last_exit.find("could not start: " + open.bin + " may be written by others (mode 0777)"),
        std::string::npos) << supervisor.status()[0].last_exit;
    EXPECT_EQ(supervisor.status()[0].starts, 0u);
    EXPECT_TRUE(nd_test::log_lines(log()).empty());
}

} // namespace

namespace {

// The shipped unit kills the whole cgroup on stop, gives the daemon's 3 s grace room, and runs
// the installed shuttle.
TEST(ServiceUnit, TheSystemdUserUnitKillsTheWholeCgroup)
{
    std::ifstream in(NISH_BIN_DIR "/../share/systemd/user/shuttle.service");
    ASSERT_TRUE(in.good());
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("\nKillMode=control-group\n"), std::string::npos);
    EXPECT_NE(text.find("\nTimeoutStopSec=10\n"), std::string::npos);
    const auto exec = text.find("\nExecStart=/");
    ASSERT_NE(exec, std::string::npos);
    EXPECT_NE(text.find("/shuttle daemon\n", exec), std::string::npos);
    EXPECT_EQ(text.find('@'), std::string::npos) << "an unconfigured variable";
}

} // namespace

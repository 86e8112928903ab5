// The shuttle daemon as a program on the virtual test desktop, driven by its own CLI and by a wire
// client: windows lists a real app, a safety stop from the same user ends a long wait at once and
// refuses calls until resume, a shot goes to a file through the CLI, and a client that hangs up
// during a wait leaves the daemon serving the next one; a script_run finds the check button of a
// real app through desk, presses it and answers its new state.

#include "linux/app_process.h"

#include "desk/wire/client.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <thread>

namespace w = nd_desk::wire;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

class DeskDaemon : public ::testing::Test {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_DESKTOP();
        char tmpl[] = "/tmp/desk-daemon-XXXXXX";
        m_dir = ::mkdtemp(tmpl);
        m_socket = m_dir + "/desk.sock";
        std::vector<std::string> env;
        for (char** e = environ; *e; ++e)
            if (std::strncmp(*e, "SHUTTLE_", 8) != 0)
                env.emplace_back(*e);
        env.push_back("SHUTTLE_SOCKET=" + m_socket);
        env.push_back("SHUTTLE_CONFIG=" + m_dir + "/config.toml");
        m_daemon = nd_test::spawn_in_own_group({NISH_BIN_DIR "/shuttle", "daemon", "--backend", "linux"}, &env, true);
        ASSERT_GT(m_daemon, 0);
        ASSERT_TRUE(nd_test::wait_until([&] { return w::Client::connect(m_socket).ok(); }, 10s)) << "the daemon did not come up";
    }
    void TearDown() override
    {
        if (m_daemon > 0) {
            ::kill(-m_daemon, SIGTERM);
            int status = 0;
            ::waitpid(m_daemon, &status, 0);
            EXPECT_TRUE(WIFEXITED(status)) << "the daemon ends cleanly on SIGTERM";
        }
        if (!m_dir.empty())
            std::filesystem::remove_all(m_dir);
    }

    int cli(const std::string& args, std::string& out)
    {
        out = nd_test::command_output("cd " + m_dir + " && SHUTTLE_SOCKET=" + m_socket + " " NISH_BIN_DIR "/shuttle " + args +
                                      " 2>&1; echo \"rc=$?\"");
        const auto at = out.rfind("rc=");
        const int rc = at == std::string::npos ? -1 : std::atoi(out.c_str() + at + 3);
        out.resize(at == std::string::npos ? out.size() : at);
        return rc;
    }

    w::Client::CallResult call(const std::string& tool, json args, std::chrono::milliseconds timeout = 10s)
    {
        auto client = w::Client::connect(m_socket);
        if (!client.ok())
            return {w::Client::CallStatus::failed, {}, client.error().message};
        return client->call(w::Request{"test", tool, std::move(args)}, w::Clock::now() + timeout);
    }

    std::string m_dir, m_socket;
    pid_t m_daemon = -1;
};

} // namespace

TEST_F(DeskDaemon, WindowsThroughTheCliListsARealApp)
{
    nd_test::AppProcess app({"gtk3-widget-factory"});
    std::string out;
    ASSERT_TRUE(nd_test::wait_until([&] {
        return cli("desk windows", out) == 0 && out.find("gtk3-widget-factory") != std::string::npos;
    }, 20s)) << out;
    auto listed = json::parse(out);
    bool found = false;
    for (const auto& win : listed["windows"])
        if (win.value("app", "") == "gtk3-widget-factory") {
            found = true;
            EXPECT_EQ(win["pid"], app.pid());
            EXPECT_FALSE(win["id"].get<std::string>().empty());
        }
    EXPECT_TRUE(found) << out;
    EXPECT_EQ(cli("desk windows --bogus 1", out), 2) << out;
    EXPECT_NE(out.find("--bogus"), std::string::npos) << out;
}

TEST_F(DeskDaemon, SafetyStopEndsALongWaitAtOnceUntilResume)
{
    auto windows = call("desk_windows", nullptr);
    ASSERT_EQ(windows.status, w::Client::CallStatus::answered) << windows.failure;
    ASSERT_FALSE(windows.response.is_error) << windows.response.text;
    const json since = json::parse(windows.response.text);

    w::Client::CallResult waited;
    std::chrono::steady_clock::time_point returned;
    std::thread waiter([&] {
        waited = call("desk_wait", {{"since", since}, {"timeout_ms", 5000}});
        returned = std::chrono::steady_clock::now();
    });
    std::this_thread::sleep_for(400ms);
    std::string out;
    const auto stopped_at = std::chrono::steady_clock::now();
    ASSERT_EQ(cli("stop", out), 0) << out;
    waiter.join();
    ASSERT_EQ(waited.status, w::Client::CallStatus::answered) << waited.failure;
    EXPECT_TRUE(waited.response.is_error);
    EXPECT_NE(waited.response.text.find("stopped by the user"), std::string::npos) << waited.response.text;
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(returned - stopped_at).count();
    EXPECT_LT(ms, 500) << "the wait ended " << ms << " ms after the stop, not at once";
    std::printf("safety_stop -> wait answered: %lld ms (including the CLI's start)\n", static_cast<long long>(ms));

    EXPECT_EQ(cli("desk screen", out), 1);
    EXPECT_NE(out.find("stopped by the user"), std::string::npos) << out;
    ASSERT_EQ(cli("resume", out), 0) << out;
    EXPECT_EQ(cli("desk screen", out), 0) << out;
}

TEST_F(DeskDaemon, AClientThatHangsUpDuringAWaitIsCancelled)
{
    auto windows = call("desk_windows", nullptr);
    ASSERT_FALSE(windows.response.is_error);
    {
        auto client = w::Client::connect(m_socket);
        ASSERT_TRUE(client.ok());
        // Sends the wait and hangs up without reading the answer.
        const auto payload = w::encode_request(w::Request{"", "desk_wait",
            {{"since", json::parse(windows.response.text)}, {"timeout_ms", 5000}}});
        ASSERT_EQ(w::write_frame(client->fd(), payload, std::nullopt), 0);
        std::this_thread::sleep_for(200ms);
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto screen = call("desk_screen", nullptr, 3s);
    ASSERT_EQ(screen.status, w::Client::CallStatus::answered) << screen.failure;
    EXPECT_FALSE(screen.response.is_error) << screen.response.text;
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
}

TEST_F(DeskDaemon, ShotThroughTheCliWritesAPng)
{
    std::string out;
    ASSERT_EQ(cli("desk shot --out shot.png", out), 0) << out;
    auto result = json::parse(out);
    EXPECT_EQ(result["file"], "shot.png");
    std::ifstream png(m_dir + "/shot.png", std::ios::binary);
    char sig[8] = {};
    png.read(sig, 8);
    EXPECT_EQ(std::string(sig + 1, 3), "PNG");
    EXPECT_GT(result["width"].get<int>(), 0);
}

TEST_F(DeskDaemon, AScriptFindsTheCheckButtonPressesItAndReturnsItsNewState)
{
    nd_test::AppProcess app({"gtk3-widget-factory"});
    std::string out;
    ASSERT_TRUE(nd_test::wait_until([&] {
        return cli("desk windows", out) == 0 && out.find("gtk3-widget-factory") != std::string::npos;
    }, 20s)) << out;
    // One script instead of a find, a press and a read: it answers the state before and after.
    auto r = call("script_run", {{"path", NISH_SOURCE_DIR "/fixtures/scripts/press_check_button.mjs"},
        {"params", {{"app", "gtk3-widget-factory"}}}, {"timeout_s", 30}}, 40s);
    ASSERT_EQ(r.status, w::Client::CallStatus::answered) << r.failure;
    ASSERT_FALSE(r.response.is_error) << r.response.text;
    const auto report = json::parse(r.response.text);
    EXPECT_EQ(report["logs"], "pressed checkbutton\n") << report;
    EXPECT_NE(report["result"]["after"], report["result"]["before"]) << report;
}

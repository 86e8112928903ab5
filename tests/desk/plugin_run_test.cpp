// A plugin's tool through a real daemon on the mock backend (docs/plugins.md): the daemon runs the
// plugin's bin exactly as it runs Node for script_run (the runtime's entry module as the one
// argument, the same SHUTTLE_* variables, no model key, the outcome files, the timeout), answers
// script_run's report, takes its desk calls through the allowlist, and turns it off with
// script_run. The bins are small shell runners this test writes.

#include "desk/desk_test_support.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <sys/stat.h>

namespace w = nd_desk::wire;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

// Reports what it was given: its argument, the run's variables, the model key if it leaked, the
// script and the params, as result.json; logs one line and the script's text.
constexpr const char* ECHO_RUNNER = R"sh(#!/bin/sh
echo "ran $# $1"
cat "$SHUTTLE_SCRIPT"
printf '{"entry":"%s","script":"%s","agent":"%s","run":"%s","flows":"%s","socket":"%s","key":"%s","cwd":"%s","params":%s}' \
  "$1" "$SHUTTLE_SCRIPT" "$SHUTTLE_AGENT" "$SHUTTLE_RUN" "$SHUTTLE_FLOWS" "$SHUTTLE_SOCKET" "${OPENROUTER_API_KEY:-none}" \
  "$(pwd)" "$(cat "$SHUTTLE_RUN/params.json")" > "$SHUTTLE_RUN/result.json"
)sh";

// Leaves neither outcome file: kind exit.
constexpr const char* QUIET_RUNNER = "#!/bin/sh\necho leaving >&2\nexit 3\n";

// Reports a failure the way the runtime does.
constexpr const char* FAILING_RUNNER =
    "#!/bin/sh\nprintf '{\"kind\":\"exception\",\"message\":\"no such row\"}' > \"$SHUTTLE_RUN/error.json\"\n";

// Never ends by itself.
constexpr const char* SLOW_RUNNER = "#!/bin/sh\necho started\nexec sleep 30\n";

// A plugin whose program is Node itself, behind a wrapper: its script reaches the desk on
// SHUTTLE_SOCKET like script_run's.
constexpr const char* NODE_RUNNER = "#!/bin/sh\nexec node \"$@\"\n";

class PluginRunTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        ::setenv("SHUTTLE_RUNTIME", NISH_SOURCE_DIR "/runtime", 1);
        ::setenv("OPENROUTER_API_KEY", "sk-or-secret", 1);
    }

    void SetUp() override
    {
        std::filesystem::create_directory(tools_dir());
        add("echo_run", ECHO_RUNNER);
        add("quiet_run", QUIET_RUNNER);
        add("failing_run", FAILING_RUNNER);
        add("slow_run", SLOW_RUNNER);
        add("node_run", NODE_RUNNER);
        std::ofstream(tools_dir() + "/gone.json")
            << json{{"name", "gone_run"}, {"description", "Its bin is missing."}, {"bin", m_dir.path + "/nowhere"}}.dump();
        std::ofstream(tools_dir() + "/bad.json") << json{{"name", "bad"}, {"description", "x"}, {"bin", "/bin/true"}}.dump();
    }

    std::string tools_dir() const { return m_dir.path + "/tools.d"; }

    void add(const std::string& name, const char* runner)
    {
        const std::string bin = m_dir.path + "/" + name + ".sh";
        std::ofstream(bin) << runner;
        ::chmod(bin.c_str(), 0755);
        std::ofstream(tools_dir() + "/" + name + ".json")
            << json{{"name", name}, {"description", "A test runner."}, {"bin", bin}}.dump();
    }

    void start(nd_desk::DeskConfig config = {})
    {
        config.plugins_dir = tools_dir();
        config.path = m_dir.path + "/config.toml";
        m_daemon = std::make_unique<nd_test::MockDaemon>(m_dir.socket(), std::move(config));
    }

    w::Response call(const std::string& tool, json args, const std::string& agent = "")
    {
        auto client = w::Client::connect(m_dir.socket());
        EXPECT_TRUE(client.ok()) << client.error().message;
        if (!client.ok())
            return w::error_text("no connection");
        auto r = client->call(w::Request{agent, tool, std::move(args)}, w::Clock::now() + 30s);
        EXPECT_EQ(r.status, w::Client::CallStatus::answered) << r.failure;
        return r.response;
    }

    json report(const std::string& tool, json args)
    {
        auto r = call(tool, std::move(args));
        auto parsed = json::parse(r.text, nullptr, false);
        EXPECT_TRUE(parsed.is_object()) << r.text;
        EXPECT_EQ(r.is_error, parsed.contains("error")) << r.text;
        return parsed;
    }

    nd_test::TempDir m_dir{"plugin-run"};
    std::unique_ptr<nd_test::MockDaemon> m_daemon;
};

TEST_F(PluginRunTest, TheBinRunsExactlyAsNodeWouldAndAnswersTheReport)
{
    start();
    auto r = report("echo_run", {{"code", "export function main() {}"}, {"params", {{"n", 1}}}});
    EXPECT_EQ(r["exit_code"], 0) << r;
    const json& got = r["result"];
    EXPECT_EQ(got["entry"], NISH_SOURCE_DIR "/runtime/run.mjs") << r;
    EXPECT_EQ(got["agent"].get<std::string>().rfind("echo_run:", 0), 0u) << r;
    EXPECT_EQ(got["script"], got["run"].get<std::string>() + "/script.mjs");
    EXPECT_EQ(got["run"].get<std::string>().rfind(m_dir.path + "/runs/run-", 0), 0u) << r;
    EXPECT_EQ(got["flows"], m_dir.path + "/flows");
    EXPECT_EQ(got["socket"], m_dir.socket());
    EXPECT_EQ(got["key"], "none");
    EXPECT_EQ(got["params"], json({{"n", 1}}));
    EXPECT_EQ(r["logs"], "ran 1 " NISH_SOURCE_DIR "/runtime/run.mjs\nexport function main() {}");
    // The run directory is gone after the report.
    EXPECT_FALSE(std::filesystem::exists(got["run"].get<std::string>()));

    // A path is handed over as SHUTTLE_SCRIPT as it is.
    auto by_path = report("echo_run", {{"path", "/somewhere/flow.mjs"}});
    EXPECT_EQ(by_path["result"]["script"], "/somewhere/flow.mjs") << by_path;
}

TEST_F(PluginRunTest, FailuresHaveScriptRunsKinds)
{
    start();
    auto quiet = report("quiet_run", {{"code", "x"}});
    EXPECT_EQ(quiet["error"]["kind"], "exit") << quiet;
    EXPECT_EQ(quiet["exit_code"], 3);
    EXPECT_EQ(quiet["stderr"], "leaving\n");
    EXPECT_NE(quiet["error"]["message"].get<std::string>().find("quiet_run.sh exited with code 3"), std::string::npos) << quiet;

    auto failing = report("failing_run", {{"code", "x"}});
    EXPECT_EQ(failing["error"], json({{"kind", "exception"}, {"message", "no such row"}})) << failing;

    auto slow = report("slow_run", {{"code", "x"}, {"timeout_s", 0.5}});
    EXPECT_EQ(slow["error"]["kind"], "timeout") << slow;
    EXPECT_EQ(slow["logs"], "started\n");

    auto gone = call("gone_run", {{"code", "x"}});
    EXPECT_TRUE(gone.is_error);
    EXPECT_EQ(gone.text.rfind("gone_run: " + m_dir.path + "/nowhere could not start", 0), 0u) << gone.text;
}

TEST_F(PluginRunTest, ArgumentsAreScriptRunsAndRefusalsNameThePlugin)
{
    start();
    for (const json& args : {json{{"path", "relative.mjs"}}, json::object(), json{{"code", "x"}, {"bogus", 1}},
             json{{"code", "x"}, {"timeout_s", 111}}}) {
        auto r = call("echo_run", args);
        EXPECT_TRUE(r.is_error) << args;
        EXPECT_EQ(r.text.rfind("echo_run: ", 0), 0u) << r.text;
    }
    // A refused file's tool is unknown.
    auto bad = call("bad", {{"code", "x"}});
    EXPECT_TRUE(bad.is_error);
    EXPECT_EQ(bad.text.rfind("unknown tool bad", 0), 0u) << bad.text;
}

TEST_F(PluginRunTest, DeskCallsFromAPluginGoThroughTheAllowlist)
{
    nd_desk::DeskConfig config;
    config.allow = {"Notes"};
    start(std::move(config));
    auto r = report("node_run", {{"code", R"(export async function main() {
        const { windows } = await desk.windows();
        return [...new Set(windows.map((w) => w.app))];
    })"}});
    EXPECT_EQ(r["result"], json::array({"Notes"})) << r;
}

TEST_F(PluginRunTest, APluginRunOwnsTheDeskAsAScriptDoes)
{
    start();
    auto answer = std::async(std::launch::async, [this] { return report("slow_run", {{"code", "x"}, {"timeout_s", 2}}); });
    std::this_thread::sleep_for(700ms);
    auto second = call("script_run", {{"code", "export function main() {}"}}, "other-agent");
    EXPECT_TRUE(second.is_error);
    EXPECT_NE(second.text.find("the desk is running a script (slow_run:"), std::string::npos) << second.text;
    EXPECT_EQ(answer.get()["error"]["kind"], "timeout");
}

TEST_F(PluginRunTest, ScriptRunOffTurnsThePluginsOff)
{
    nd_desk::DeskConfig config;
    config.script_run = false;
    start(std::move(config));
    auto r = call("echo_run", {{"code", "x"}});
    EXPECT_TRUE(r.is_error);
    EXPECT_EQ(r.text, "echo_run is off: config.toml says [tools] script_run = false, which turns the plugins off with it");
}

} // namespace

namespace {

// A plugin's program that another user could change after the daemon read its file is judged again
// when it is started: the run is refused, nothing starts, and the plugin runs again once it is safe.
TEST_F(PluginRunTest, AProgramThatBecameWritableByOthersIsNotRun)
{
    start();
    const std::string bin = m_dir.path + "/echo_run.sh";
    ::chmod(bin.c_str(), 0757);
    auto refused = call("echo_run", {{"code", "export function main() {}"}});
    EXPECT_TRUE(refused.is_error);
    EXPECT_EQ(refused.text, "echo_run: not run: " + bin + " may be written by others (mode 0757); only a program that "
                            "this user or root alone can change is run (docs/security.md)");
    ::chmod(bin.c_str(), 0755);
    EXPECT_EQ(report("echo_run", {{"code", "export function main() {}"}})["exit_code"], 0);
}

} // namespace

// script_run through a real daemon on the mock backend, with the repository's runtime and Debian's
// Node (docs/script-run.md): a script that reads and acts through `desk` and returns a result;
// every error kind; the timeout's report with its logs and no process of the run left; a safety
// stop and a client that goes away during a run; the 32 KiB caps; the key variables hidden; and who
// owns the desk meanwhile.

#include "desk/desk_test_support.h"
#include "desk/script/script_run.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <future>

namespace w = nd_desk::wire;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

class ScriptRunTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        ::setenv("SHUTTLE_RUNTIME", NISH_SOURCE_DIR "/runtime", 1);
        ::setenv("OPENROUTER_API_KEY", "sk-or-secret", 1);
        ::setenv("TEST_MODEL_KEY", "sk-configured-secret", 1);
        ::setenv("TEST_VISIBLE", "seen", 1);
    }

    void SetUp() override
    {
        nd_desk::DeskConfig config;
        config.models.api_key_env = "TEST_MODEL_KEY";
        m_daemon = std::make_unique<nd_test::MockDaemon>(m_dir.socket(), std::move(config));
    }

    w::Response call(const std::string& tool, json args, const std::string& agent = "", std::chrono::seconds within = 30s)
    {
        auto client = w::Client::connect(m_dir.socket());
        EXPECT_TRUE(client.ok()) << client.error().message;
        if (!client.ok())
            return w::error_text("no connection");
        auto r = client->call(w::Request{agent, tool, std::move(args)}, w::Clock::now() + within);
        EXPECT_EQ(r.status, w::Client::CallStatus::answered) << r.failure;
        return r.response;
    }

    // Runs inline code; the report, parsed.
    json run(const std::string& code, json extra = json::object())
    {
        extra["code"] = code;
        auto r = call("script_run", std::move(extra));
        auto report = json::parse(r.text, nullptr, false);
        EXPECT_TRUE(report.is_object()) << r.text;
        EXPECT_EQ(r.is_error, report.contains("error")) << r.text;
        return report;
    }

    // A process that still runs: a killed one whose parent died too may linger as a zombie until
    // init reaps it, which is not alive.
    static bool alive(pid_t pid)
    {
        if (::kill(pid, 0) != 0)
            return false;
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        std::getline(stat, line);
        const auto close = line.rfind(')');
        return close == std::string::npos || close + 2 >= line.size() || line[close + 2] != 'Z';
    }

    nd_test::TempDir m_dir{"script-run"};
    std::unique_ptr<nd_test::MockDaemon> m_daemon;
};

TEST_F(ScriptRunTest, AScriptReadsAndActsThroughDeskAndReturnsItsResult)
{
    auto report = run(R"(export async function main(params) {
        console.log('looking for', params.name);
        const { windows } = await desk.windows();
        return { windows: windows.length, name: params.name, agent: process.env.SHUTTLE_AGENT };
    })", {{"params", {{"name", "Save"}}}});
    EXPECT_EQ(report["exit_code"], 0) << report;
    EXPECT_GT(report["result"]["windows"].get<int>(), 0) << report;
    EXPECT_EQ(report["result"]["name"], "Save");
    EXPECT_EQ(report["result"]["agent"].get<std::string>().rfind("script_run:", 0), 0u) << report;
    EXPECT_EQ(report["logs"], "looking for Save\n");
    EXPECT_EQ(report["stderr"], "");
    EXPECT_GE(report["duration_ms"].get<int>(), 0);
}

TEST_F(ScriptRunTest, TheModelKeyVariablesNeverReachAScript)
{
    auto report = run(R"(export function main() {
        return { openrouter: process.env.OPENROUTER_API_KEY ?? null, configured: process.env.TEST_MODEL_KEY ?? null,
                 visible: process.env.TEST_VISIBLE ?? null,
                 mentioned: Object.values(process.env).some((v) => v.includes('secret')) };
    })");
    EXPECT_EQ(report["result"], json({{"openrouter", nullptr}, {"configured", nullptr}, {"visible", "seen"}, {"mentioned", false}}))
        << report;
}

TEST_F(ScriptRunTest, EachFailureHasItsKind)
{
    struct Case {
        std::string code;
        std::string kind;
        std::string in_message;
    };
    const std::vector<Case> cases = {
        {"this is not javascript(", "import", "SyntaxError"},
        {"import x from './nowhere.mjs'; export function main() {}", "import", "nowhere"},
        {"export const answer = 42;", "no_main", "answer"},
        {"export async function main() { throw new TypeError('no such row'); }", "exception", "TypeError: no such row"},
        {"export function main() { return 10n; }", "exception", "BigInt"},
        {"export function main() { process.exit(7); }", "exit", "process.exit(7)"},
        {"export function main() { return 'x'.repeat(9 * 1024 * 1024); }", "exception", "at most 8 MiB"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.code);
        auto report = run(c.code);
        ASSERT_TRUE(report.contains("error")) << report;
        EXPECT_EQ(report["error"]["kind"], c.kind) << report;
        EXPECT_NE(report["error"]["message"].get<std::string>().find(c.in_message), std::string::npos) << report;
        EXPECT_TRUE(report["result"].is_null());
    }
    // A path must be absolute on the wire, and exactly one of code and path.
    for (const json& args : {json{{"path", "relative.mjs"}}, json{{"code", "x"}, {"path", "/x.mjs"}}, json::object(),
             json{{"code", "export function main(){}"}, {"timeout_s", 111}}, json{{"code", "x"}, {"bogus", 1}}}) {
        auto r = call("script_run", args);
        EXPECT_TRUE(r.is_error) << args;
        EXPECT_EQ(r.text.rfind("script_run: ", 0), 0u) << r.text;
    }
}

TEST_F(ScriptRunTest, ATimeoutEndsTheWholeGroupAndReportsWithTheLogsAfterTheGrace)
{
    // The script starts a child in its group and ignores SIGTERM: only the SIGKILL 2 s later ends it.
    const auto start = std::chrono::steady_clock::now();
    auto report = run(R"(import { spawn } from 'node:child_process';
        export async function main() {
            process.on('SIGTERM', () => console.log('got TERM, staying'));
            const child = spawn('sleep', ['1000'], { stdio: 'ignore' });
            console.log('child', child.pid);
            await new Promise(() => setInterval(() => {}, 1000));
        })", {{"timeout_s", 1}});
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(report["error"]["kind"], "timeout") << report;
    EXPECT_FALSE(report.contains("exit_code")) << report;
    EXPECT_GE(took, 2900ms);
    EXPECT_LE(took, 5000ms);
    const std::string logs = report["logs"];
    EXPECT_NE(logs.find("got TERM, staying"), std::string::npos) << logs;
    const auto at = logs.find("child ");
    ASSERT_NE(at, std::string::npos) << logs;
    const pid_t child = std::stoi(logs.substr(at + 6));
    EXPECT_FALSE(alive(child)) << "the run's child " << child << " outlived the run";
}

TEST_F(ScriptRunTest, ASafetyStopEndsTheRunAsStopped)
{
    auto answer = std::async(std::launch::async, [this] {
        return run("export async function main() { console.log('started'); await new Promise(() => setInterval(() => {}, 1000)); }");
    });
    std::this_thread::sleep_for(1500ms);
    m_daemon->safety(true);
    auto report = answer.get();
    m_daemon->safety(false);
    EXPECT_EQ(report["error"]["kind"], "stopped") << report;
    EXPECT_FALSE(report.contains("exit_code"));
    EXPECT_EQ(report["logs"], "started\n");
}

TEST_F(ScriptRunTest, AClientThatGoesAwayEndsTheRunAtOnce)
{
    const std::string pid_file = m_dir.path + "/child.pid";
    std::thread caller([&] {
        auto client = w::Client::connect(m_dir.socket());
        ASSERT_TRUE(client.ok());
        // Gives up after 1.5 s: the client closes its connection, the daemon's cancel.
        client->call(w::Request{"", "script_run", {{"code", R"(import { spawn } from 'node:child_process';
            import { writeFileSync } from 'node:fs';
            export async function main(p) {
                process.on('SIGTERM', () => {});
                writeFileSync(p.file, String(spawn('sleep', ['1000'], { stdio: 'ignore' }).pid));
                await new Promise(() => setInterval(() => {}, 1000));
            })"}, {"params", {{"file", pid_file}}}}}, w::Clock::now() + 1500ms);
    });
    caller.join();
    std::this_thread::sleep_for(700ms);
    std::ifstream in(pid_file);
    pid_t child = 0;
    in >> child;
    ASSERT_GT(child, 0);
    EXPECT_FALSE(alive(child)) << "the run outlived its cancelled call";
    // The desk is free again.
    EXPECT_EQ(run("export function main() { return 1; }")["result"], 1);
}

TEST_F(ScriptRunTest, LogsAndStderrKeepTheirFirst32KiB)
{
    auto report = run(R"(export function main() {
        process.stdout.write('é'.repeat(40000));
        process.stderr.write('w'.repeat(50000));
        return 'done';
    })");
    EXPECT_EQ(report["result"], "done");
    const std::string logs = report["logs"], err = report["stderr"];
    EXPECT_LE(logs.size(), nd_desk::RUN_OUTPUT_CAP);
    EXPECT_GE(logs.size(), nd_desk::RUN_OUTPUT_CAP - 1);
    EXPECT_EQ(logs.size() % 2, 0u) << "a character was cut in two";
    EXPECT_EQ(err, std::string(nd_desk::RUN_OUTPUT_CAP, 'w'));
    EXPECT_EQ(report["cut"], json({{"logs", true}, {"stderr", true}, {"cap_bytes", nd_desk::RUN_OUTPUT_CAP}}));
}

TEST_F(ScriptRunTest, WhileARunOwnsTheDeskOthersMayReadButNotAct)
{
    // The script acts itself (its own calls pass) and then waits, holding the desk. Each refusal
    // below comes after the hand-off wait (HANDOFF_WAIT, 1 s).
    auto answer = std::async(std::launch::async, [this] {
        return run(R"(export async function main() {
            const { nodes } = await desk.find({ name: 'Send', window: 'Chatter' });
            const pressed = await desk.press(nodes[0].id);
            await new Promise((r) => setTimeout(r, 4500));
            return pressed.pressed;
        })");
    });
    std::this_thread::sleep_for(1200ms);
    auto found = call("desk_find", {{"name", "Send"}, {"window", "Chatter"}}, "other-agent");
    ASSERT_FALSE(found.is_error) << found.text;
    const std::string id = json::parse(found.text)["nodes"][0]["id"];
    auto press = call("desk_press", {{"id", id}}, "other-agent");
    EXPECT_TRUE(press.is_error);
    EXPECT_NE(press.text.find("the desk is running a script (script_run:"), std::string::npos) << press.text;
    EXPECT_NE(press.text.find("reads pass"), std::string::npos) << press.text;
    auto second = call("script_run", {{"code", "export function main() {}"}}, "other-agent");
    EXPECT_TRUE(second.is_error);
    EXPECT_NE(second.text.find("the desk is running a script"), std::string::npos) << second.text;
    auto report = answer.get();
    // It pressed Send through its own read (its node id names its own snapshot).
    ASSERT_TRUE(report["result"].is_string()) << report;
    EXPECT_EQ(report["result"].get<std::string>().rfind("s", 0), 0u) << report;
    // Free again.
    auto after = call("desk_press", {{"id", id}}, "other-agent");
    EXPECT_FALSE(after.is_error) << after.text;
}

TEST_F(ScriptRunTest, ScriptRunCanBeTurnedOff)
{
    m_daemon.reset();
    nd_desk::DeskConfig config;
    config.script_run = false;
    m_daemon = std::make_unique<nd_test::MockDaemon>(m_dir.socket(), std::move(config));
    auto r = call("script_run", {{"code", "export function main() {}"}});
    EXPECT_TRUE(r.is_error);
    EXPECT_NE(r.text.find("script_run = false"), std::string::npos) << r.text;
}

} // namespace

namespace {

class GuiPlanTest : public ScriptRunTest {};

TEST_F(GuiPlanTest, APlanFindsPressesAndAnswersItsResult)
{
    auto r = call("gui_plan", {{"plan", {{"steps", json::array({
        {{"id", "send"}, {"do", "find"}, {"args", {{"name", "Send"}, {"window", "Chatter"}}},
            {"expect", {{"path", "nodes"}, {"count_at_least", 1}}}},
        {{"id", "pressed"}, {"do", "press"}, {"args", {{"id", "$send.nodes[0].id"}}}},
    })}, {"result", {{"name", "$send.nodes[0].name"}, {"pressed", "$pressed.pressed"}}}}}});
    ASSERT_FALSE(r.is_error) << r.text;
    const auto result = json::parse(r.text);
    EXPECT_EQ(result["name"], "Send") << result;
    EXPECT_TRUE(result["pressed"].is_string()) << result;
}

TEST_F(GuiPlanTest, AFailedStepAndABadPlanAreErrorsNamingTheStep)
{
    auto failed = call("gui_plan", {{"plan", {{"steps", json::array({
        {{"do", "windows"}},
        {{"id", "nothing"}, {"do", "find"}, {"args", {{"name", "No such button anywhere"}}},
            {"expect", {{"path", "nodes"}, {"count_at_least", 1}}}, {"retry", {{"times", 1}, {"delay_ms", 10}}}},
        {{"do", "press"}, {"args", {{"id", "$nothing.nodes[0].id"}}}},
    })}}}});
    ASSERT_TRUE(failed.is_error) << failed.text;
    auto answer = json::parse(failed.text);
    EXPECT_EQ(answer["error"]["step"], 2) << answer;
    EXPECT_EQ(answer["error"]["id"], "nothing");
    EXPECT_EQ(answer["error"]["attempts"], 2);
    EXPECT_NE(answer["error"]["reason"].get<std::string>().find("fewer than 1"), std::string::npos) << answer;
    EXPECT_EQ(answer["steps_done"], 1);

    auto bad = call("gui_plan", {{"plan", {{"steps", json::array({{{"do", "press"}}})}}}});
    ASSERT_TRUE(bad.is_error) << bad.text;
    answer = json::parse(bad.text);
    EXPECT_EQ(answer["error"]["reason"], "step 1: press needs id") << answer;
    EXPECT_EQ(answer["steps_done"], 0);

    auto no_plan = call("gui_plan", json::object());
    EXPECT_TRUE(no_plan.is_error);
    EXPECT_EQ(no_plan.text.rfind("gui_plan: ", 0), 0u) << no_plan.text;
}

} // namespace

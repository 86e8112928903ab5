// The real `nish-driver mcp --backend mock --consent auto --control-fd 3,4` binary, driven over stdio
// MCP with the control lines beside it: acks, errors, the kill switch stopping a typing call,
// revocation, end of file on the control pipe, host approvals, and bad --control-fd values.

#include "pipe_lines.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <signal.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>


namespace {

using nd_test::LineIn;
using nd_test::Pipe;
using nd_test::write_line;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

// The real binary, with stdin/stdout and the control pipe on descriptors 3 and 4.
class Driver {
public:
    explicit Driver(bool with_control = true)
    {
        std::vector<std::string> args = {std::string(NISH_BIN_DIR) + "/nish-driver", "mcp", "--backend", "mock", "--consent", "auto"};
        if (with_control)
            args.insert(args.end(), {"--control-fd", "3,4"});
        m_pid = nd_test::spawn_program(std::move(args),
            {{m_stdin.fd[0], 0}, {m_stdout.fd[1], 1}, {m_ctl_in.fd[0], 3}, {m_ctl_out.fd[1], 4}});
        // Only the child keeps its ends.
        m_stdin.close_read();
        m_stdout.close_write();
        m_ctl_in.close_read();
        m_ctl_out.close_write();
    }
    ~Driver()
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
    }

    json rpc(const json& request)
    {
        write_line(m_stdin.fd[1], request.dump());
        for (;;) {
            auto reply = m_mcp.next_json();
            if (reply.is_discarded() || reply.value("id", json()) == request["id"])
                return reply;
        }
    }
    json tool(const std::string& name, const json& args = json::object())
    {
        return rpc({{"jsonrpc", "2.0"}, {"id", ++m_id}, {"method", "tools/call"},
            {"params", {{"name", name}, {"arguments", args}}}})["result"];
    }
    // The reply to a request already written.
    json rpc_reply(const json& id)
    {
        for (;;) {
            auto reply = m_mcp.next_json();
            if (reply.is_discarded() || reply.value("id", json()) == id)
                return reply;
        }
    }
    int stdin_fd() const { return m_stdin.fd[1]; }
    void control(const std::string& line) { write_line(m_ctl_in.fd[1], line); }
    json control_reply() { return m_host.next_json(); }
    bool control_quiet() { return m_host.quiet(std::chrono::milliseconds(200)); }
    // Starts a tool call without waiting for its reply (rpc_reply(id) reads it).
    void start_tool(int id, const std::string& name, const json& args = json::object())
    {
        write_line(m_stdin.fd[1], json({{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"},
                                          {"params", {{"name", name}, {"arguments", args}}}})
                                      .dump());
    }
    void initialize()
    {
        auto init = rpc({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
            {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                           {"clientInfo", {{"name", "ctl-test"}, {"version", "1"}}}}}});
        ASSERT_TRUE(init.contains("result")) << init.dump();
    }
    void close_control() { m_ctl_in.close_write(); }
    // Closes stdin and returns the exit status, or -1 when the driver did not exit within 5 s.
    int finish()
    {
        m_stdin.close_write();
        for (int i = 0; i < 500; ++i) {
            int status = 0;
            if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_pid = -1;
                return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return -1;
    }

private:
    Pipe m_stdin, m_stdout, m_ctl_in, m_ctl_out;
    pid_t m_pid = -1;
    LineIn m_mcp{m_stdout.fd[0]};
    LineIn m_host{m_ctl_out.fd[0]};
    int m_id = 0;
};

std::string code(const json& result)
{
    const auto& sc = result.contains("structuredContent") ? result["structuredContent"] : json::object();
    return sc.contains("error") && sc["error"].is_object() ? sc["error"].value("code", "") : std::string();
}

TEST(ControlPipeBinary, ResumeRevokeKillSwitchAndErrors)
{
    Driver d;
    auto init = d.rpc({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
        {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                       {"clientInfo", {{"name", "ctl-test"}, {"version", "1"}}}}}});
    ASSERT_TRUE(init.contains("result")) << init.dump();
    auto started = d.tool("start_session", {{"input", "takeover"}});
    ASSERT_EQ(started["isError"], false) << started.dump();
    const auto id = started["structuredContent"]["session"].get<std::string>();
    EXPECT_EQ(id.rfind("mcp:ctl-test:", 0), 0u) << id;
    // This host pre-approves reads (the approvals themselves are tested below).
    d.control(R"({"method":"approvals.configure","params":{"approve_reads":false}})");
    EXPECT_EQ(d.control_reply(), json({{"event", "ack"}, {"method", "approvals.configure"}, {"approve_reads", false}}));

    // Nothing is paused: the ack lists nobody.
    d.control(R"({"method":"takeover.resume","params":{"session":")" + id + R"("}})");
    EXPECT_EQ(d.control_reply(), json({{"event", "ack"}, {"method", "takeover.resume"}, {"resumed", json::array()}}));
    d.control("not json at all");
    EXPECT_EQ(d.control_reply()["error"]["code"], "invalid_arguments");
    d.control(R"({"method":"tools/call","id":"x1"})");
    auto unknown = d.control_reply();
    EXPECT_EQ(unknown["error"]["code"], "unknown_method");
    EXPECT_EQ(unknown["id"], "x1");
    // takeover.resume is not a tool.
    EXPECT_EQ(d.rpc({{"jsonrpc", "2.0"}, {"id", 50}, {"method", "tools/call"},
                  {"params", {{"name", "takeover.resume"}, {"arguments", json::object()}}}})
                  .contains("error"),
        true);

    // The kill switch stops a typing call in progress (it holds the engine), then the session.
    EXPECT_EQ(d.tool("bring_to_front", {{"app", "Settings"}})["isError"], false);
    auto read = d.tool("get_window_state", {{"app", "Settings"}});
    std::string user;
    for (const auto& row : read["structuredContent"]["elements"])
        if (row.value("name", "") == "Username")
            user = row["element_token"];
    ASSERT_FALSE(user.empty()) << read.dump();
    write_line(d.stdin_fd(), json({{"jsonrpc", "2.0"}, {"id", 60}, {"method", "tools/call"},
                                      {"params", {{"name", "type_text"},
                                                     {"arguments", {{"element_token", user}, {"text", std::string(100000, 'k')},
                                                                       {"delivery_mode", "foreground"}}}}}})
                                 .dump());
    const auto t0 = Clock::now();
    d.control(R"({"method":"kill_switch"})");
    auto kill = d.control_reply();
    const auto kill_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
    auto typed = d.rpc_reply(60)["result"];
    // Stopped part way, or refused when the kill switch came first: never all 100000 characters.
    // An optimised build on the mock may finish typing before the kill switch line is read; then
    // the kill switch still stops the session (checked below).
    if (typed.value("isError", false)) {
        EXPECT_EQ(code(typed), "stopped_by_kill_switch") << typed.dump().substr(0, 500);
        const auto& stopped = typed["structuredContent"]["error"];
        if (stopped.value("effect", "") == "stopped") {
            EXPECT_LT(stopped.value("typed_characters", 100000), 100000);
        }
    }
    EXPECT_EQ(kill["event"], "ack");
    EXPECT_EQ(kill["method"], "kill_switch");
    EXPECT_EQ(kill["stopped"], json::array({id}));
    EXPECT_TRUE(kill["at_ms"].is_number_integer());
    EXPECT_LT(kill_ms, 1000);
    RecordProperty("kill_switch_ack_ms", static_cast<int>(kill_ms));
    EXPECT_EQ(code(d.tool("list_windows")), "stopped_by_kill_switch");

    // A new session, revoked by the host.
    auto again = d.tool("start_session");
    ASSERT_EQ(again["isError"], false) << again.dump();
    const auto id2 = again["structuredContent"]["session"].get<std::string>();
    EXPECT_NE(id2, id);
    d.control(R"({"method":"session.revoke","params":{"session":")" + id2 + R"("}})");
    auto revoke = d.control_reply();
    EXPECT_EQ(revoke["event"], "ack");
    EXPECT_EQ(revoke["session"], id2);
    EXPECT_GE(revoke["at_ms"].get<std::int64_t>(), kill["at_ms"].get<std::int64_t>());
    EXPECT_EQ(code(d.tool("list_windows")), "session_revoked");

    // End of file on the control pipe: MCP keeps serving.
    d.close_control();
    auto renewed = d.tool("start_session");
    EXPECT_EQ(renewed["isError"], false) << renewed.dump();
    EXPECT_EQ(d.tool("list_windows")["isError"], false);
    EXPECT_EQ(d.finish(), 0);
}

TEST(ControlPipeBinary, HostApprovals)
{
    Driver d;
    d.initialize();
    auto started = d.tool("start_session", {{"clipboard_read", true}});
    ASSERT_EQ(started["isError"], false) << started.dump();
    const auto sid = started["structuredContent"]["session"].get<std::string>();
    // An act without observe asks nobody.
    EXPECT_EQ(d.tool("clipboard_write", {{"text", "hello"}})["isError"], false);
    EXPECT_TRUE(d.control_quiet());

    // clipboard_read asks every time; approved, it runs.
    d.start_tool(10, "clipboard_read");
    auto ask = d.control_reply();
    EXPECT_EQ(ask["event"], "approval.request");
    EXPECT_EQ(ask["session"], sid);
    EXPECT_EQ(ask["tool"], "clipboard_read");
    EXPECT_EQ(ask["description"], json({{"tool", "clipboard_read"}}));
    const auto n = ask["request"].get<std::int64_t>();
    d.control(json({{"method", "approval.answer"}, {"params", {{"request", n}, {"approve", true}}}}).dump());
    EXPECT_EQ(d.control_reply(), json({{"event", "ack"}, {"method", "approval.answer"}, {"request", n}}));
    auto read = d.rpc_reply(10)["result"];
    ASSERT_EQ(read["isError"], false) << read.dump();
    EXPECT_EQ(read["structuredContent"]["text"], "hello");
    // Answered once only.
    d.control(json({{"method", "approval.answer"}, {"params", {{"request", n}, {"approve", true}}}}).dump());
    EXPECT_EQ(d.control_reply()["error"]["code"], "invalid_arguments");

    // Denied, it fails and reads nothing.
    d.start_tool(11, "clipboard_read");
    ask = d.control_reply();
    d.control(json({{"method", "approval.answer"}, {"params", {{"request", ask["request"]}, {"approve", false}}}}).dump());
    EXPECT_EQ(d.control_reply()["event"], "ack");
    auto denied = d.rpc_reply(11)["result"];
    EXPECT_EQ(code(denied), "approval_denied") << denied.dump();
    EXPECT_FALSE(denied["structuredContent"].contains("text"));

    // Reads ask by default, naming their target.
    d.start_tool(12, "get_window_state", {{"app", "Settings"}});
    ask = d.control_reply();
    EXPECT_EQ(ask["description"], json({{"tool", "get_window_state"}, {"app", "Settings"}}));
    d.control(json({{"method", "approval.answer"}, {"params", {{"request", ask["request"]}, {"approve", true}}}}).dump());
    EXPECT_EQ(d.control_reply()["event"], "ack");
    auto state = d.rpc_reply(12)["result"];
    ASSERT_EQ(state["isError"], false) << state.dump().substr(0, 500);
    std::string user;
    for (const auto& row : state["structuredContent"]["elements"])
        if (row.value("name", "") == "Username")
            user = row["element_token"];
    ASSERT_FALSE(user.empty());

    // An act with observe asks, with observe in the description and never the value it sets.
    d.start_tool(13, "set_value", {{"element_token", user}, {"value", "private words"}, {"observe", {{"tree", true}}}});
    ask = d.control_reply();
    EXPECT_EQ(ask["description"], json({{"tool", "set_value"}, {"element_token", user},
                                      {"observe", {{"tree", true}, {"screenshot", false}}}}));
    EXPECT_EQ(ask.dump().find("private"), std::string::npos);
    d.control(json({{"method", "approval.answer"}, {"params", {{"request", ask["request"]}, {"approve", true}}}}).dump());
    EXPECT_EQ(d.control_reply()["event"], "ack");
    EXPECT_EQ(d.rpc_reply(13)["result"]["isError"], false);

    // Pre-approved reads run without asking; clipboard_read still asks.
    d.control(R"({"method":"approvals.configure","params":{"approve_reads":false}})");
    EXPECT_EQ(d.control_reply()["event"], "ack");
    EXPECT_EQ(d.tool("get_window_state", {{"app", "Settings"}})["isError"], false);
    EXPECT_TRUE(d.control_quiet());

    // The kill switch ends a wait at once.
    d.start_tool(14, "clipboard_read");
    EXPECT_EQ(d.control_reply()["event"], "approval.request");
    const auto t0 = Clock::now();
    d.control(R"({"method":"kill_switch"})");
    EXPECT_EQ(code(d.rpc_reply(14)["result"]), "approval_denied");
    EXPECT_EQ(d.control_reply()["event"], "ack");
    EXPECT_LT(Clock::now() - t0, std::chrono::seconds(2));

    // Once the host's input ends, nothing can approve: clipboard_read fails at once.
    ASSERT_EQ(d.tool("start_session", {{"clipboard_read", true}})["isError"], false);
    d.close_control();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(code(d.tool("clipboard_read")), "approval_denied");
    EXPECT_EQ(d.finish(), 0);
}

TEST(ControlPipeBinary, WithoutPipeClipboardReadIsRefused)
{
    Driver d(false);
    d.initialize();
    ASSERT_EQ(d.tool("start_session", {{"clipboard_read", true}})["isError"], false);
    auto refused = d.tool("clipboard_read");
    EXPECT_EQ(code(refused), "approval_denied") << refused.dump();
    EXPECT_NE(refused["structuredContent"]["error"]["message"].get<std::string>().find("--control-fd"), std::string::npos);
    EXPECT_EQ(d.tool("get_window_state", {{"app", "Settings"}})["isError"], false);
    EXPECT_EQ(d.finish(), 0);
}

TEST(ControlPipeBinary, BadControlFdIsRefused)
{
    for (const char* bad : {"3", "3,", "a,b", "0,4", "3,1", "900,901"}) {
        const std::string cmd = "NISH_AUDIT_LOG= " + std::string(NISH_BIN_DIR) + "/nish-driver mcp --backend mock --control-fd "
            + bad + " </dev/null >/dev/null 2>&1";
        int status = std::system(cmd.c_str());
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << bad;
    }
}

} // namespace

// The control pipe's line handling (ControlCommands) and its event lines, without descriptors:
// bad input of every shape gives an error line, never a crash; the ack shapes of docs/control-pipe.md.

#include "driver/control/control_commands.h"
#include "tool_harness.h"

namespace {

using nd_test::ToolHarness;
using nlohmann::json;

json reply(ToolHarness& h, std::string_view line)
{
    nd_driver::ControlCommands commands(h.engine());
    auto out = commands.handle(line);
    EXPECT_EQ(out.find('\n'), std::string::npos) << out;
    return json::parse(out);
}

void expect_error(const json& r, const std::string& code)
{
    EXPECT_EQ(r["event"], "error") << r.dump();
    EXPECT_EQ(r["error"]["code"], code) << r.dump();
    EXPECT_TRUE(r["error"]["message"].is_string());
    EXPECT_TRUE(r["error"]["suggestion"].is_string());
    EXPECT_EQ(r["error"]["disposition"]["retry"], "never");
}

TEST(ControlCommands, BadLinesGiveErrorLines)
{
    ToolHarness h;
    for (std::string_view bad : {"", "garbage", "{", "[1,2]", "42", "\"takeover.resume\"", "null", "{\"method\":5}",
             "{\"params\":{}}", "{\"method\":\"takeover.resume\",\"params\":[1]}",
             "{\"method\":\"takeover.resume\",\"params\":{\"session\":7}}",
             "{\"method\":\"takeover.resume\",\"params\":{\"session\":\"\"}}", "{\"method\":\"session.revoke\"}",
             "{\"method\":\"session.revoke\",\"params\":{\"session\":\"mcp:nobody:1\"}}", "\xff\xfe{}"}) {
        auto r = reply(h, bad);
        expect_error(r, "invalid_arguments");
    }
}

TEST(ControlCommands, UnknownMethodCarriesTheErrorObject)
{
    ToolHarness h;
    for (std::string_view m : {"resume", "takeover.pause", "tools/call", "start_session", "Takeover.Resume"}) {
        auto r = reply(h, json({{"method", m}, {"id", 9}}).dump());
        expect_error(r, "unknown_method");
        EXPECT_EQ(r["method"], m);
        EXPECT_EQ(r["id"], 9);
        EXPECT_EQ(r["error"]["suggestion"], "Use a method this endpoint lists.");
    }
    // A long method name is echoed cut, never whole.
    auto r = reply(h, json({{"method", std::string(5000, 'x')}}).dump());
    EXPECT_LE(r["method"].get<std::string>().size(), 128u);
}

TEST(ControlCommands, AckShapesEchoTheId)
{
    ToolHarness h;
    auto resume = reply(h, R"({"method":"takeover.resume","id":"r1"})");
    EXPECT_EQ(resume, json({{"event", "ack"}, {"method", "takeover.resume"}, {"id", "r1"}, {"resumed", json::array()}}));
    auto id = h.start().structured["session"].get<std::string>();
    auto revoke = reply(h, json({{"method", "session.revoke"}, {"params", {{"session", id}}}}).dump());
    EXPECT_EQ(revoke["event"], "ack");
    EXPECT_EQ(revoke["method"], "session.revoke");
    EXPECT_EQ(revoke["session"], id);
    EXPECT_TRUE(revoke["at_ms"].is_number_integer());
    EXPECT_GE(revoke["at_ms"].get<std::int64_t>(), 0);
    // Revoking twice: the session is no longer live.
    expect_error(reply(h, json({{"method", "session.revoke"}, {"params", {{"session", id}}}}).dump()),
        "invalid_arguments");
    auto kill = reply(h, R"({"method":"kill_switch","params":null})");
    EXPECT_EQ(kill["event"], "ack");
    EXPECT_EQ(kill["stopped"], json::array()); // the only session was already revoked
}

TEST(ControlCommands, KillSwitchStopsTheLiveSession)
{
    ToolHarness h;
    auto id = h.start({{"input", "takeover"}}).structured["session"].get<std::string>();
    auto kill = reply(h, R"({"method":"kill_switch"})");
    EXPECT_EQ(kill["stopped"], json::array({id}));
    EXPECT_FALSE(h.mock().indicator_shown());
    EXPECT_EQ(h.call("list_windows").code(), "stopped_by_kill_switch");
}

TEST(ControlCommands, EventLines)
{
    EXPECT_EQ(json::parse(nd_driver::paused_event_line("mcp:host:4242", "pointer_moved", 18234)),
        json({{"event", "takeover.paused"}, {"session", "mcp:host:4242"}, {"reason", "pointer_moved"},
            {"at_ms", 18234}}));
    EXPECT_EQ(json::parse(nd_driver::resumed_event_line("mcp:host:4242", nd_core::ResumeBy::indicator, 21007)),
        json({{"event", "takeover.resumed"}, {"session", "mcp:host:4242"}, {"by", "indicator"}, {"at_ms", 21007}}));
    EXPECT_EQ(json::parse(nd_driver::resumed_event_line("s", nd_core::ResumeBy::host, 1))["by"], "host");
    auto too_long = json::parse(nd_driver::ControlCommands::line_too_long(65536));
    EXPECT_EQ(too_long["error"]["code"], "invalid_arguments");
    EXPECT_TRUE(too_long["method"].is_null());
}

TEST(ControlCommands, ApprovalVerbs)
{
    ToolHarness h;
    std::vector<std::string> sent;
    nd_driver::ApprovalBroker broker([&](std::string_view line) { sent.emplace_back(line); return true; });
    nd_driver::ControlCommands commands(h.engine(), &broker);
    auto handle = [&](std::string_view line) { return json::parse(commands.handle(line)); };
    for (std::string_view bad : {R"({"method":"approval.answer"})", R"({"method":"approval.answer","params":{"request":1}})",
             R"({"method":"approval.answer","params":{"request":"1","approve":true}})",
             R"({"method":"approval.answer","params":{"request":1,"approve":"yes"}})",
             R"({"method":"approval.answer","params":{"request":1,"approve":true}})", // nothing is waiting
             R"({"method":"approvals.configure"})", R"({"method":"approvals.configure","params":{"approve_reads":0}})"})
        expect_error(handle(bad), "invalid_arguments");
    EXPECT_TRUE(broker.approve_reads());
    EXPECT_EQ(handle(R"({"method":"approvals.configure","id":3,"params":{"approve_reads":false}})"),
        json({{"event", "ack"}, {"method", "approvals.configure"}, {"id", 3}, {"approve_reads", false}}));
    EXPECT_FALSE(broker.approve_reads());
    // Without a broker the approval verbs are not there.
    expect_error(reply(h, R"({"method":"approvals.configure","params":{"approve_reads":false}})"), "unknown_method");
    EXPECT_TRUE(sent.empty());
}

} // namespace

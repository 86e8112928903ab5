// The daemon's host control channel (desk/daemon/host_control.h, docs/desk-control.md) over a socket
// pair: the confirm.request line, allow, deny, no answer, a stop, the host gone (end of file on IN, a
// closed OUT), bad lines, safety_stop / safety_resume. host_control_daemon_test.cpp wires it into
// the daemon.

#include "desk/daemon/host_control.h"
#include "tools/pipe_lines.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <memory>

namespace {

using namespace std::chrono_literals;
using nd_core::ConfirmOutcome;
using nd_core::ConfirmRequest;
using nd_core::ConfirmWait;
using nd_desk::HostControl;
using nd_test::LineIn;
using nd_test::write_line;
using nlohmann::json;
using Clock = std::chrono::steady_clock;
using Answer = nd_core::Result<ConfirmOutcome>;

nd_desk::HostControlOptions fast() { return {.liveness_interval = 20ms}; }

// The daemon's end (both IN and OUT on one descriptor) and the host's end of a socket pair.
struct Channel {
    int daemon_fd = -1;
    int host_fd = -1;
    std::unique_ptr<LineIn> host;
    std::unique_ptr<HostControl> control;
    std::atomic<int> safety_calls{0};
    std::atomic<bool> safety_stopped{false};

    explicit Channel(bool with_safety = true)
    {
        int fds[2];
        EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
        daemon_fd = fds[0];
        host_fd = fds[1];
        host = std::make_unique<LineIn>(host_fd);
        HostControl::SafetyHook hook;
        if (with_safety)
            hook = [this](bool stop) {
                ++safety_calls;
                safety_stopped = stop;
            };
        control = std::make_unique<HostControl>(daemon_fd, daemon_fd, hook, fast());
        EXPECT_TRUE(control->start().ok());
    }
    ~Channel()
    {
        control.reset();
        for (int fd : {daemon_fd, host_fd})
            if (fd >= 0)
                ::close(fd);
    }
    std::future<Answer> ask(ConfirmRequest req = typing(), ConfirmWait wait = {.timeout = 5s, .stopped = {}})
    {
        return std::async(std::launch::async, [this, req = std::move(req), wait = std::move(wait)] { return control->ask(req, wait); });
    }
    json reply(const std::string& line)
    {
        write_line(host_fd, line);
        return host->next_json();
    }
    json answer(std::int64_t request, bool allow)
    {
        return reply(json({{"method", "confirm.answer"}, {"params", {{"request", request}, {"allow", allow}}}}).dump());
    }

    static ConfirmRequest typing()
    {
        return {.verb = "desk_type", .app = "gedit", .window = "notes.txt", .target = "the element “Text” (text)",
            .text_chars = 42, .text_start = "Dear Sir or ", .secure = false};
    }
};

void expect_error(const json& r, const std::string& code)
{
    EXPECT_EQ(r["event"], "error") << r.dump();
    EXPECT_EQ(r["error"]["code"], code) << r.dump();
    EXPECT_TRUE(r["error"]["message"].is_string()) << r.dump();
}

TEST(HostControl, RequestLineAndAllow)
{
    Channel c;
    EXPECT_EQ(c.control->name(), "host");
    auto pending = c.ask();
    auto request = c.host->next_json();
    ASSERT_TRUE(request["request"].is_number_integer()) << request.dump();
    const auto n = request["request"].get<std::int64_t>();
    EXPECT_EQ(request, json({{"event", "confirm.request"}, {"request", n}, {"verb", "desk_type"}, {"app", "gedit"},
                           {"window", "notes.txt"}, {"target", "the element “Text” (text)"}, {"text_chars", 42},
                           {"text_start", "Dear Sir or "}, {"secure", false}}));
    EXPECT_EQ(c.reply(json({{"method", "confirm.answer"}, {"id", "a1"}, {"params", {{"request", n}, {"allow", true}}}}).dump()),
        json({{"event", "ack"}, {"method", "confirm.answer"}, {"id", "a1"}, {"request", n}}));
    auto answer = pending.get();
    ASSERT_TRUE(answer.ok()) << answer.error().message;
    EXPECT_EQ(*answer, ConfirmOutcome::allowed);
    // Answered once: a second answer names no waiting request.
    expect_error(c.answer(n, true), "invalid_arguments");
}

TEST(HostControl, RequestLineLeavesOutWhatItMustNot)
{
    // A click: no text fields at all.
    EXPECT_EQ(json::parse(nd_desk::confirm_request_line(3, {.verb = "desk_click", .app = "", .window = "", .target = "the point (120, 340)"})),
        json({{"event", "confirm.request"}, {"request", 3}, {"verb", "desk_click"}, {"app", ""}, {"window", ""},
            {"target", "the point (120, 340)"}, {"secure", false}}));
    // A password field: its length, never its characters, even if a request held some.
    auto secure = json::parse(nd_desk::confirm_request_line(4,
        {.verb = "desk_type", .app = "x", .window = "Login", .target = "t", .text_chars = 8, .text_start = "hunter2", .secure = true}));
    EXPECT_EQ(secure["text_chars"], 8);
    EXPECT_FALSE(secure.contains("text_start"));
    EXPECT_EQ(secure["secure"], true);
    // Typed text with no start shown (empty): text_chars only.
    auto empty = json::parse(nd_desk::confirm_request_line(5, {.verb = "desk_type", .text_chars = 0}));
    EXPECT_EQ(empty["text_chars"], 0);
    EXPECT_FALSE(empty.contains("text_start"));
}

TEST(HostControl, DenyRefuses)
{
    Channel c;
    auto first = c.ask();
    const auto n = c.host->next_json()["request"].get<std::int64_t>();
    auto second = c.ask();
    const auto m = c.host->next_json()["request"].get<std::int64_t>();
    EXPECT_NE(n, m);
    EXPECT_EQ(c.answer(m, false)["event"], "ack");
    EXPECT_EQ(*second.get(), ConfirmOutcome::refused);
    EXPECT_EQ(first.wait_for(50ms), std::future_status::timeout) << "one answer ends one request";
    EXPECT_EQ(c.answer(n, false)["request"], n);
    EXPECT_EQ(*first.get(), ConfirmOutcome::refused);
}

TEST(HostControl, NoAnswerTimesOut)
{
    Channel c;
    const auto t0 = Clock::now();
    auto pending = c.ask(Channel::typing(), {.timeout = 100ms, .stopped = {}});
    const auto n = c.host->next_json()["request"].get<std::int64_t>();
    auto answer = pending.get();
    const auto took = Clock::now() - t0;
    ASSERT_TRUE(answer.ok());
    EXPECT_EQ(*answer, ConfirmOutcome::timed_out);
    EXPECT_GE(took, 100ms);
    EXPECT_LT(took, 2s);
    expect_error(c.answer(n, true), "invalid_arguments"); // too late
}

TEST(HostControl, AStopEndsTheWait)
{
    Channel c;
    std::atomic<bool> stopped{false};
    auto pending = c.ask(Channel::typing(), {.timeout = 10s, .stopped = [&] { return stopped.load(); }});
    c.host->next_json();
    const auto t0 = Clock::now();
    stopped = true;
    EXPECT_EQ(*pending.get(), ConfirmOutcome::stopped);
    EXPECT_LT(Clock::now() - t0, 1s);
    // A stop raised before the question: nothing is written.
    EXPECT_EQ(*c.control->ask(Channel::typing(), {.timeout = 10s, .stopped = [] { return true; }}), ConfirmOutcome::stopped);
    EXPECT_TRUE(c.host->quiet(50ms));
}

TEST(HostControl, EndOfFileOnInFailsPendingAndLaterAsks)
{
    Channel c;
    auto pending = c.ask();
    c.host->next_json();
    ::shutdown(c.host_fd, SHUT_WR);
    ASSERT_EQ(pending.wait_for(2s), std::future_status::ready);
    auto answer = pending.get();
    ASSERT_FALSE(answer.ok());
    EXPECT_EQ(answer.error().code, nd_core::ErrorCode::backend_unavailable);
    EXPECT_EQ(answer.error().message, "the host's control pipe is closed; nothing can answer confirm mode");
    const auto t0 = Clock::now();
    EXPECT_FALSE(c.control->ask(Channel::typing(), {.timeout = 10s, .stopped = {}}).ok());
    EXPECT_LT(Clock::now() - t0, 1s);
}

TEST(HostControl, AClosedOutFailsTheWait)
{
    nd_test::Pipe in, out;
    HostControl control(in.fd[0], out.fd[1], {}, fast());
    ASSERT_TRUE(control.start().ok());
    auto pending = std::async(std::launch::async, [&] { return control.ask(Channel::typing(), {.timeout = 10s, .stopped = {}}); });
    LineIn host(out.fd[0]);
    EXPECT_EQ(host.next_json()["event"], "confirm.request");
    out.close_read(); // the host stops reading; IN stays open
    ASSERT_EQ(pending.wait_for(2s), std::future_status::ready);
    EXPECT_FALSE(pending.get().ok());
    EXPECT_FALSE(control.ask(Channel::typing(), {.timeout = 10s, .stopped = {}}).ok());
}

TEST(HostControl, StopEndsEveryWait)
{
    Channel c;
    auto pending = c.ask();
    c.host->next_json();
    c.control->stop();
    EXPECT_FALSE(pending.get().ok());
}

TEST(HostControl, BadLinesGiveErrorLines)
{
    Channel c;
    for (std::string bad : {"garbage", "{", "[1,2]", "42", "null", "{\"method\":5}", "{\"params\":{}}",
             "{\"method\":\"confirm.answer\",\"params\":[1]}", "{\"method\":\"confirm.answer\"}",
             "{\"method\":\"confirm.answer\",\"params\":{\"request\":1}}",
             "{\"method\":\"confirm.answer\",\"params\":{\"request\":\"1\",\"allow\":true}}",
             "{\"method\":\"confirm.answer\",\"params\":{\"request\":1,\"allow\":\"yes\"}}",
             "{\"method\":\"confirm.answer\",\"params\":{\"request\":1,\"allow\":true}}", // nothing waits
             "\xff\xfe{}"})
        expect_error(c.reply(bad), "invalid_arguments");
    auto unknown = c.reply(R"({"method":"approval.answer","id":9})");
    expect_error(unknown, "unknown_method");
    EXPECT_EQ(unknown["method"], "approval.answer");
    EXPECT_EQ(unknown["id"], 9);
    // Blank lines get no reply; a line over the cap is skipped whole and the next one is answered.
    write_line(c.host_fd, "");
    write_line(c.host_fd, "  \t");
    EXPECT_TRUE(c.host->quiet(100ms));
    write_line(c.host_fd, std::string(70000, 'x'));
    auto too_long = c.host->next_json();
    expect_error(too_long, "invalid_arguments");
    EXPECT_TRUE(too_long["method"].is_null());
    expect_error(c.reply(R"({"method":"what"})"), "unknown_method");
}

TEST(HostControl, SafetyStopAndResume)
{
    Channel c;
    auto pending = c.ask();
    c.host->next_json();
    EXPECT_EQ(c.reply(R"({"method":"safety_stop","id":1})"), json({{"event", "ack"}, {"method", "safety_stop"}, {"id", 1}}));
    EXPECT_TRUE(c.safety_stopped.load());
    EXPECT_EQ(*pending.get(), ConfirmOutcome::stopped) << "a safety stop ends the waits at once";
    EXPECT_EQ(c.reply(R"({"method":"safety_resume"})"), json({{"event", "ack"}, {"method", "safety_resume"}}));
    EXPECT_FALSE(c.safety_stopped.load());
    EXPECT_EQ(c.safety_calls.load(), 2);

    Channel without(false);
    expect_error(without.reply(R"({"method":"safety_stop"})"), "unknown_method");
}

} // namespace

// The host control pipe over real pipes in this process: events from the mock's person and
// Continue click, acks, a line over the cap, end of file on IN, and a host that stops reading.
// control_pipe_cli_test.cpp runs the real binary.

#include "driver/control/control_pipe.h"
#include "pipe_lines.h"
#include "tool_harness.h"

#include <chrono>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace {

using nd_test::LineIn;
using nd_test::Pipe;
using nd_test::ToolHarness;
using nd_test::write_line;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr std::int64_t SETTINGS = 52428801;

TEST(ControlPipe, EventsAndAcksOnRealPipes)
{
    ToolHarness h;
    Pipe in, out;
    {
        nd_driver::ControlPipe pipe(h.engine(), in.fd[0], out.fd[1]);
        ASSERT_TRUE(pipe.start().ok());
        LineIn host(out.fd[0]);
        auto id = h.start({{"input", "takeover"}}).structured["session"].get<std::string>();
        h.mock().raise(SETTINGS);
        auto user = h.token("Settings", "Username");
        h.mock().inject_person_input(nd_core::PersonInput::button_pressed);
        EXPECT_EQ(h.call("type_text", {{"element_token", user}, {"text", "hi"}, {"delivery_mode", "foreground"}}).code(),
            "user_took_over");
        auto paused = host.next_json();
        EXPECT_EQ(paused["event"], "takeover.paused");
        EXPECT_EQ(paused["session"], id);
        EXPECT_EQ(paused["reason"], "button_pressed");
        EXPECT_TRUE(paused["at_ms"].is_number_integer());

        // The person clicks Continue on the indicator: an event, no ack.
        ASSERT_TRUE(h.mock().click_continue());
        auto resumed = host.next_json();
        EXPECT_EQ(resumed["event"], "takeover.resumed");
        EXPECT_EQ(resumed["by"], "indicator");
        EXPECT_GE(resumed["at_ms"].get<std::int64_t>(), paused["at_ms"].get<std::int64_t>());

        // Paused again, resumed by the host: the event, then the ack.
        h.mock().inject_person_input(nd_core::PersonInput::key_pressed);
        h.call("type_text", {{"element_token", h.token("Settings", "Username")}, {"text", "hi"},
                                {"delivery_mode", "foreground"}});
        EXPECT_EQ(host.next_json()["reason"], "key_pressed");
        write_line(in.fd[1], R"({"method":"takeover.resume","params":{"session":")" + id + R"("}})");
        auto by_host = host.next_json();
        EXPECT_EQ(by_host["event"], "takeover.resumed");
        EXPECT_EQ(by_host["by"], "host");
        EXPECT_EQ(host.next_json(), json({{"event", "ack"}, {"method", "takeover.resume"}, {"resumed", {id}}}));

        // A line over the cap is skipped whole; the next one is answered.
        write_line(in.fd[1], std::string(70000, 'x'));
        EXPECT_EQ(host.next_json()["error"]["code"], "invalid_arguments");
        write_line(in.fd[1], R"({"method":"what"})");
        EXPECT_EQ(host.next_json()["error"]["code"], "unknown_method");

        // End of file on IN: the reader ends quietly; the tools and the events carry on.
        in.close_write();
        EXPECT_TRUE(host.quiet(std::chrono::milliseconds(100)));
        h.mock().inject_person_input(nd_core::PersonInput::pointer_moved);
        h.call("type_text", {{"element_token", h.token("Settings", "Username")}, {"text", "hi"},
                                {"delivery_mode", "foreground"}});
        EXPECT_EQ(host.next_json()["event"], "takeover.paused");
    }
    // The pipe is gone: the engine sends no more events and does not crash.
    ASSERT_TRUE(h.mock().click_continue());
    EXPECT_FALSE(h.call("get_session_state").structured["takeover"]["paused"].get<bool>());
}

TEST(ControlPipe, AHostThatStopsReadingNeverHoldsTheEngine)
{
    ToolHarness h;
    Pipe in, out;
    nd_driver::ControlPipeOptions options;
    options.write_timeout = std::chrono::milliseconds(100);
    nd_driver::ControlPipe pipe(h.engine(), in.fd[0], out.fd[1], options);
    ASSERT_TRUE(pipe.start().ok());
    // Nobody reads OUT: fill it, then every further write gives up within the timeout.
    std::string big(4000, 'e');
    while (pipe.send(big)) {
    }
    h.start();
    const auto t0 = Clock::now();
    EXPECT_FALSE(pipe.send("{}"));
    write_line(in.fd[1], R"({"method":"kill_switch"})");
    // The command still runs although its ack cannot be written.
    for (int i = 0; i < 200 && h.call("list_windows").code() != "stopped_by_kill_switch"; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(h.call("list_windows").code(), "stopped_by_kill_switch");
    EXPECT_LT(Clock::now() - t0, std::chrono::seconds(3));
}

} // namespace

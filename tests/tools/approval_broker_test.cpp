// The host-approval broker on its own (driver/control/approval_broker.h): an answered, denied and
// unanswered request, a kill switch or revocation while a call waits, the host gone, and which
// calls need an approval at all (driver/approvals.h).

#include "driver/approvals.h"
#include "driver/control/approval_broker.h"
#include "driver/tool_registry.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;
using nd_driver::ApprovalAsk;
using nd_driver::ApprovalBroker;
using nd_driver::ApprovalOutcome;
using nlohmann::json;

// The host side: records the request lines the broker writes.
struct Host {
    std::mutex mutex;
    std::vector<json> lines;
    std::atomic<bool> writable{true};
    std::atomic<bool> alive{true};

    ApprovalBroker broker(std::chrono::milliseconds timeout = 5000ms)
    {
        return ApprovalBroker(
            [this](std::string_view line) {
                std::lock_guard lock(mutex);
                lines.push_back(json::parse(line));
                return writable.load();
            },
            [this] { return alive.load(); }, {.timeout = timeout, .liveness_interval = 20ms});
    }
    // The number of the request written, waiting up to 5 s for it.
    std::int64_t request(std::size_t index = 0)
    {
        for (int i = 0; i < 500; ++i) {
            {
                std::lock_guard lock(mutex);
                if (lines.size() > index)
                    return lines[index]["request"].get<std::int64_t>();
            }
            std::this_thread::sleep_for(10ms);
        }
        ADD_FAILURE() << "no approval request was written";
        return -1;
    }
};

ApprovalAsk ask(std::string session = "mcp:t:1")
{
    return {.session = std::move(session), .tool = "clipboard_read", .description = {{"tool", "clipboard_read"}}, .stopped = {}};
}

TEST(ApprovalBroker, ApproveAndDeny)
{
    Host host;
    auto broker = host.broker();
    auto approved = std::async(std::launch::async, [&] { return broker.ask(ask()); });
    const auto n = host.request();
    EXPECT_TRUE(broker.answer(n, true));
    EXPECT_EQ(approved.get(), ApprovalOutcome::approved);
    EXPECT_FALSE(broker.answer(n, true)) << "an answered request is gone";
    {
        std::lock_guard lock(host.mutex);
        EXPECT_EQ(host.lines[0], json({{"event", "approval.request"}, {"request", n}, {"session", "mcp:t:1"},
                                     {"tool", "clipboard_read"}, {"description", {{"tool", "clipboard_read"}}}}));
    }
    auto denied = std::async(std::launch::async, [&] { return broker.ask(ask("")); });
    const auto m = host.request(1);
    EXPECT_NE(m, n);
    EXPECT_FALSE(broker.answer(m + 100, true));
    EXPECT_TRUE(broker.answer(m, false));
    EXPECT_EQ(denied.get(), ApprovalOutcome::denied);
    std::lock_guard lock(host.mutex);
    EXPECT_TRUE(host.lines[1]["session"].is_null());
}

TEST(ApprovalBroker, NoAnswerTimesOut)
{
    Host host;
    auto broker = host.broker(100ms);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(broker.ask(ask()), ApprovalOutcome::timed_out);
    const auto took = std::chrono::steady_clock::now() - t0;
    EXPECT_GE(took, 100ms);
    EXPECT_LT(took, 2000ms);
    EXPECT_FALSE(broker.answer(host.request(), true)) << "a timed-out request cannot be answered";
}

TEST(ApprovalBroker, KillSwitchAndRevokeEndTheWait)
{
    Host host;
    auto broker = host.broker();
    auto other = std::async(std::launch::async, [&] { return broker.ask(ask("mcp:t:2")); });
    host.request(0);
    auto revoked = std::async(std::launch::async, [&] { return broker.ask(ask("mcp:t:1")); });
    host.request(1);
    broker.cancel("mcp:t:1"); // a revocation ends only its session's wait
    EXPECT_EQ(revoked.get(), ApprovalOutcome::stopped);
    EXPECT_EQ(other.wait_for(50ms), std::future_status::timeout);
    const auto t0 = std::chrono::steady_clock::now();
    broker.cancel(); // the kill switch ends every wait
    EXPECT_EQ(other.get(), ApprovalOutcome::stopped);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 1000ms);
    // A stop raised before the call asked is seen without writing a request.
    auto a = ask();
    a.stopped = [] { return true; };
    EXPECT_EQ(broker.ask(a), ApprovalOutcome::stopped);
    std::lock_guard lock(host.mutex);
    EXPECT_EQ(host.lines.size(), 2u);
}

TEST(ApprovalBroker, HostGoneFailsPendingAndLaterAsks)
{
    Host host;
    auto broker = host.broker();
    auto pending = std::async(std::launch::async, [&] { return broker.ask(ask()); });
    host.request();
    broker.close(); // end of file on the pipe's input
    EXPECT_EQ(pending.get(), ApprovalOutcome::no_host);
    EXPECT_EQ(broker.ask(ask()), ApprovalOutcome::no_host);

    Host unwritable;
    unwritable.writable = false;
    auto b2 = unwritable.broker();
    EXPECT_EQ(b2.ask(ask()), ApprovalOutcome::no_host);

    Host hung_up;
    auto b3 = hung_up.broker();
    auto waiting = std::async(std::launch::async, [&] { return b3.ask(ask()); });
    hung_up.request();
    hung_up.alive = false; // the host closed its reading end after the request went out
    EXPECT_EQ(waiting.wait_for(2s), std::future_status::ready);
    EXPECT_EQ(waiting.get(), ApprovalOutcome::no_host);
}

TEST(ApprovalPolicy, WhichCallsAsk)
{
    auto description = [](std::string_view tool, const json& args, bool approve_reads) {
        const auto* def = nd_driver::find_tool(tool);
        EXPECT_NE(def, nullptr) << tool;
        return nd_driver::approval_description(*def, nd_driver::Args(args), approve_reads);
    };
    EXPECT_EQ(description("clipboard_read", json::object(), false), json({{"tool", "clipboard_read"}}));
    EXPECT_EQ(description("get_window_state", {{"app", "Settings"}, {"skeleton", true}}, true),
        json({{"tool", "get_window_state"}, {"app", "Settings"}}));
    EXPECT_FALSE(description("get_window_state", {{"app", "Settings"}}, false));
    EXPECT_EQ(description("type_text", {{"element_token", "s1:2"}, {"text", "secret words"}, {"observe", {{"tree", true}}}}, true),
        json({{"tool", "type_text"}, {"element_token", "s1:2"}, {"observe", {{"tree", true}, {"screenshot", false}}}}));
    EXPECT_FALSE(description("type_text", {{"element_token", "s1:2"}, {"text", "x"}}, true));
    EXPECT_FALSE(description("click", {{"element_token", "s1:2"}, {"observe", {{"tree", false}}}}, true));
    for (auto tool : {"start_session", "end_session", "get_session_state", "health_report"})
        EXPECT_FALSE(description(tool, json::object(), true)) << tool;
}

} // namespace

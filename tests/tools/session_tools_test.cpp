// Sessions and the takeover on the mock (§4, §4.3): consent grants, lease, the indicator's life,
// hand-back on the person's input, the paused state, kill switch and revocation.

#include "tool_harness.h"

namespace {

using nd_test::ToolHarness;
using nlohmann::json;

TEST(SessionTools, NothingWorksBeforeConsent)
{
    ToolHarness h;
    auto r = h.call("list_windows");
    EXPECT_EQ(r.code(), "not_consented");
    EXPECT_EQ(r.text.rfind("not_consented: ", 0), 0u);
    EXPECT_FALSE(h.call("health_report").is_error);
    auto state = h.call("get_session_state");
    EXPECT_TRUE(state.structured["session"].is_null());
}

TEST(SessionTools, ScriptedConsentDeniesAndGrantsPart)
{
    ToolHarness h(false);
    auto denied = h.call("start_session", {{"apps", {"Settings"}}});
    EXPECT_EQ(denied.code(), "consent_denied");
    h.scripted().push({true, {"Settings"}, false, false});
    auto part = h.call("start_session", {{"apps", {"Settings", "Chatter"}}, {"input", "takeover"},
                                             {"clipboard_read", true}});
    ASSERT_FALSE(part.is_error) << part.text;
    EXPECT_EQ(part.structured["apps"], json::array({"settings"}));
    EXPECT_EQ(part.structured["input"], "headless");
    EXPECT_EQ(part.structured["takeover"]["on"], false);
    EXPECT_EQ(part.structured["takeover"]["reason"], "the person did not allow takeover");
    EXPECT_EQ(part.structured["clipboard_read"], false);
    EXPECT_FALSE(h.mock().indicator_shown());
    auto requests = h.scripted().requests();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_TRUE(requests[1].takeover);
    EXPECT_TRUE(requests[1].clipboard_read);
    EXPECT_EQ(h.call("get_window_state", {{"app", "Chatter"}}).code(), "window_target_not_found");
    // Asking again for what is already granted asks no one.
    auto again = h.call("start_session", {{"apps", {"Settings"}}});
    EXPECT_FALSE(again.is_error);
    EXPECT_EQ(h.scripted().requests().size(), 2u);
}

TEST(SessionTools, IndicatorFollowsTheTakeover)
{
    ToolHarness h;
    auto on = h.start({{"input", "takeover"}});
    EXPECT_EQ(on.structured["input"], "takeover");
    EXPECT_EQ(on.structured["takeover"]["on"], true);
    EXPECT_EQ(on.structured["takeover"]["indicator"], true);
    EXPECT_TRUE(h.mock().indicator_shown());
    auto headless = h.start({{"input", "headless"}});
    EXPECT_EQ(headless.structured["takeover"]["on"], false);
    EXPECT_FALSE(h.mock().indicator_shown());
    h.start({{"input", "takeover"}});
    EXPECT_TRUE(h.mock().indicator_shown());
    h.call("end_session");
    EXPECT_FALSE(h.mock().indicator_shown());
    h.start({{"input", "takeover"}});
    h.dispatcher().connection_closed();
    EXPECT_FALSE(h.mock().indicator_shown());
}

TEST(SessionTools, NoIndicatorNoTakeover)
{
    ToolHarness h;
    h.mock().fail_indicator(true);
    auto r = h.start({{"input", "takeover"}});
    EXPECT_EQ(r.structured["input"], "headless");
    EXPECT_EQ(r.structured["takeover"]["on"], false);
    EXPECT_EQ(r.structured["takeover"]["reason"], "the takeover indicator could not be shown: the mock takeover indicator could not be shown");
    EXPECT_EQ(h.call("press_key", {{"key", "a"}}).code(), "requires_takeover");
}

TEST(SessionTools, DestroyedIndicatorEndsTheTakeover)
{
    ToolHarness h;
    h.start({{"input", "takeover"}});
    h.mock().destroy_indicator();
    auto state = h.call("get_session_state");
    EXPECT_EQ(state.structured["takeover"]["on"], false);
    EXPECT_EQ(state.structured["takeover"]["reason"], "the takeover indicator was closed by another program");
    EXPECT_EQ(h.call("press_key", {{"key", "a"}}).code(), "requires_takeover");
    EXPECT_TRUE(h.mock().synthetic_log().empty());
}

TEST(SessionTools, LeaseExpiry)
{
    ToolHarness h;
    h.start({{"input", "takeover"}, {"lease_s", 60}});
    h.engine().advance_clock(std::chrono::seconds(61));
    auto r = h.call("list_windows");
    EXPECT_EQ(r.code(), "consent_expired");
    EXPECT_EQ(r.retry(), "after_refresh");
    EXPECT_FALSE(h.mock().indicator_shown());
    auto renewed = h.start();
    EXPECT_FALSE(renewed.is_error);
    EXPECT_FALSE(h.call("list_windows").is_error);
}

TEST(SessionTools, PersonKeyPressStopsTypingAndPauses)
{
    ToolHarness h;
    h.start({{"input", "takeover"}});
    h.mock().raise(52428801);
    auto user = h.token("Settings", "Username");
    auto reads = h.token("Settings", "Remember me");
    h.mock().inject_person_input(nd_core::PersonInput::key_pressed);
    auto r = h.call("type_text", {{"element_token", user}, {"text", "hello"}, {"delivery_mode", "foreground"}});
    EXPECT_EQ(r.code(), "user_took_over") << r.text;
    EXPECT_EQ(r.retry(), "never");
    EXPECT_EQ(r.structured["error"]["effect"], "stopped");
    EXPECT_EQ(r.structured["error"]["paused_reason"], "key_pressed");
    EXPECT_EQ(r.structured["error"]["suggestion"],
        "The person took control. Wait for them to click Continue, then start again.");
    EXPECT_TRUE(h.mock().indicator_paused());

    auto state = h.call("get_session_state");
    EXPECT_EQ(state.structured["takeover"]["paused"], true);
    EXPECT_EQ(state.structured["takeover"]["paused_reason"], "key_pressed");
    // Acts are refused before anything is sent; reads still work.
    h.mock().clear_logs();
    auto refused = h.call("click", {{"element_token", reads}});
    EXPECT_EQ(refused.code(), "user_took_over");
    EXPECT_EQ(refused.structured["error"]["effect"], "refused");
    EXPECT_TRUE(h.mock().synthetic_log().empty());
    EXPECT_TRUE(h.mock().semantic_log().empty());
    EXPECT_FALSE(h.call("get_window_state", {{"app", "Settings"}}).is_error);
    // Nothing the model can send resumes: not start_session, not a new takeover.
    h.start({{"input", "takeover"}});
    EXPECT_EQ(h.call("click", {{"element_token", h.token("Settings", "Remember me")}}).code(), "user_took_over");
    h.start({{"input", "headless"}});
    EXPECT_FALSE(h.mock().indicator_shown());
    EXPECT_EQ(h.call("click", {{"element_token", h.token("Settings", "Remember me")}}).code(), "user_took_over");
}

TEST(SessionTools, TypingInterruptedReportsTypedCharacters)
{
    ToolHarness h;
    h.start({{"input", "takeover"}});
    h.mock().raise(52428801);
    auto user = h.token("Settings", "Username");
    // The person grabs the mouse after the click: the pointer is far from where the driver put it.
    std::thread person([&] {
        for (int i = 0; i < 2000 && h.mock().synthetic_log().size() < 6; ++i)
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        h.mock().set_person_pointer({5, 5});
    });
    std::string text(100000, 'x');
    auto r = h.call("type_text", {{"element_token", user}, {"text", text}, {"delivery_mode", "foreground"}});
    person.join();
    ASSERT_EQ(r.code(), "user_took_over") << r.text;
    EXPECT_EQ(r.structured["error"]["paused_reason"], "pointer_moved");
    const auto typed = r.structured["error"]["typed_characters"].get<int>();
    EXPECT_GT(typed, 0);
    EXPECT_LT(typed, 100000);
    // Counted as sent, not from the log, which keeps only the latest events.
    EXPECT_EQ(h.mock().chars_typed(), static_cast<std::size_t>(typed));
}

TEST(SessionTools, KillSwitchAndRevoke)
{
    ToolHarness h;
    h.start({{"input", "takeover"}});
    {
        std::lock_guard lock(h.engine().mutex());
        h.engine().kill_switch();
    }
    EXPECT_FALSE(h.mock().indicator_shown());
    EXPECT_EQ(h.call("list_windows").code(), "stopped_by_kill_switch");
    ToolHarness g;
    auto s = g.start();
    {
        std::lock_guard lock(g.engine().mutex());
        ASSERT_TRUE(g.engine().revoke(s.structured["session"].get<std::string>()).ok());
    }
    EXPECT_EQ(g.call("list_windows").code(), "session_revoked");
}

} // namespace

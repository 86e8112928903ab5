// Resuming a paused takeover (§4.3) on the mock: by the host's takeover.resume on the control pipe
// and by the indicator's Continue; tokens go stale, acts work again, the events and nothing else.

#include "driver/control/control_commands.h"
#include "driver/tool_registry.h"
#include "tool_harness.h"

#include <vector>

namespace {

using nd_test::ToolHarness;
using nlohmann::json;

constexpr std::int64_t SETTINGS = 52428801;

struct Recorded {
    std::string kind, session, detail;
    std::int64_t at_ms = 0;
};

class RecordingEvents final : public nd_core::EngineEvents {
public:
    void takeover_paused(std::string_view session, std::string_view reason, std::int64_t at_ms) override
    {
        events.push_back({"paused", std::string(session), std::string(reason), at_ms});
    }
    void takeover_resumed(std::string_view session, nd_core::ResumeBy by, std::int64_t at_ms) override
    {
        events.push_back({"resumed", std::string(session), std::string(nd_core::resume_by_name(by)), at_ms});
    }
    std::vector<Recorded> events;
};

// Starts a takeover and lets the person's key press stop a typing call; returns the session id.
std::string pause_by_person(ToolHarness& h)
{
    auto started = h.start({{"input", "takeover"}});
    h.mock().raise(SETTINGS);
    auto user = h.token("Settings", "Username");
    h.mock().inject_person_input(nd_core::PersonInput::key_pressed);
    auto r = h.call("type_text", {{"element_token", user}, {"text", "hi"}, {"delivery_mode", "foreground"}});
    EXPECT_EQ(r.code(), "user_took_over") << r.text;
    EXPECT_TRUE(h.mock().indicator_paused());
    return started.structured["session"].get<std::string>();
}

bool paused(ToolHarness& h) { return h.call("get_session_state").structured["takeover"]["paused"].get<bool>(); }

json control(ToolHarness& h, const json& request)
{
    nd_driver::ControlCommands commands(h.engine());
    return json::parse(commands.handle(request.dump()));
}

TEST(ResumeTools, HostResumeMakesOldTokensStaleAndActsWorkAgain)
{
    ToolHarness h;
    RecordingEvents rec;
    h.engine().set_events(&rec);
    auto id = pause_by_person(h);
    auto old = h.token("Settings", "Remember me");
    EXPECT_EQ(h.call("click", {{"element_token", old}}).code(), "user_took_over");

    auto ack = control(h, {{"method", "takeover.resume"}, {"params", {{"session", id}}}});
    EXPECT_EQ(ack, json({{"event", "ack"}, {"method", "takeover.resume"}, {"resumed", {id}}}));
    EXPECT_FALSE(paused(h));
    EXPECT_FALSE(h.call("get_session_state").structured["takeover"].contains("paused_reason"));
    EXPECT_FALSE(h.mock().indicator_paused());
    EXPECT_TRUE(h.mock().indicator_shown());

    auto stale = h.call("click", {{"element_token", old}});
    EXPECT_EQ(stale.code(), "stale_element_token") << stale.text;
    EXPECT_EQ(stale.retry(), "after_refresh");
    auto fresh = h.call("click", {{"element_token", h.token("Settings", "Remember me")}});
    EXPECT_FALSE(fresh.is_error) << fresh.text;

    ASSERT_EQ(rec.events.size(), 2u);
    EXPECT_EQ(rec.events[0].kind, "paused");
    EXPECT_EQ(rec.events[0].session, id);
    EXPECT_EQ(rec.events[0].detail, "key_pressed");
    EXPECT_EQ(rec.events[1].kind, "resumed");
    EXPECT_EQ(rec.events[1].detail, "host");
    EXPECT_LE(rec.events[0].at_ms, rec.events[1].at_ms);
    EXPECT_LE(rec.events[1].at_ms, h.engine().now_ms());
    h.engine().set_events(nullptr);
}

TEST(ResumeTools, IndicatorContinueResumes)
{
    ToolHarness h;
    RecordingEvents rec;
    h.engine().set_events(&rec);
    // No Continue button before a pause.
    h.start({{"input", "takeover"}});
    EXPECT_FALSE(h.mock().click_continue());
    auto id = pause_by_person(h);
    EXPECT_TRUE(h.mock().click_continue());
    EXPECT_FALSE(paused(h));
    EXPECT_FALSE(h.mock().indicator_paused());
    ASSERT_EQ(rec.events.size(), 2u);
    EXPECT_EQ(rec.events[1].kind, "resumed");
    EXPECT_EQ(rec.events[1].session, id);
    EXPECT_EQ(rec.events[1].detail, "indicator");
    // Typing works again; the person's input during the pause does not pause it again.
    auto user = h.token("Settings", "Username");
    auto typed = h.call("type_text", {{"element_token", user}, {"text", "ok"}, {"delivery_mode", "foreground"}});
    EXPECT_FALSE(typed.is_error) << typed.text;
    h.engine().set_events(nullptr);
}

TEST(ResumeTools, ResumeWithoutSessionResumesThePausedOne)
{
    ToolHarness h;
    auto id = pause_by_person(h);
    EXPECT_EQ(control(h, {{"method", "takeover.resume"}})["resumed"], json::array({id}));
    // Again: nothing is paused now.
    EXPECT_EQ(control(h, {{"method", "takeover.resume"}})["resumed"], json::array());
}

TEST(ResumeTools, WrongSessionOrNothingPausedResumesNothing)
{
    ToolHarness h;
    EXPECT_EQ(control(h, {{"method", "takeover.resume"}})["resumed"], json::array()); // no session at all
    h.start({{"input", "takeover"}});
    EXPECT_EQ(control(h, {{"method", "takeover.resume"}})["resumed"], json::array());
    auto id = pause_by_person(h);
    auto other = control(h, {{"method", "takeover.resume"}, {"params", {{"session", id + "x"}}}});
    EXPECT_EQ(other["resumed"], json::array());
    EXPECT_TRUE(paused(h));
}

TEST(ResumeTools, KillSwitchAndRevocationAreNeverUndone)
{
    ToolHarness h;
    auto id = pause_by_person(h);
    auto killed = control(h, {{"method", "kill_switch"}});
    EXPECT_EQ(killed["stopped"], json::array({id}));
    EXPECT_TRUE(killed["at_ms"].is_number_integer());
    EXPECT_EQ(control(h, {{"method", "takeover.resume"}})["resumed"], json::array());
    EXPECT_FALSE(h.mock().click_continue());
    EXPECT_EQ(h.call("list_windows").code(), "stopped_by_kill_switch");

    ToolHarness g;
    auto gid = pause_by_person(g);
    auto revoked = control(g, {{"method", "session.revoke"}, {"params", {{"session", gid}}}});
    EXPECT_EQ(revoked["event"], "ack");
    EXPECT_EQ(revoked["session"], gid);
    EXPECT_EQ(control(g, {{"method", "takeover.resume"}, {"params", {{"session", gid}}}})["resumed"], json::array());
    EXPECT_EQ(g.call("list_windows").code(), "session_revoked");
}

TEST(ResumeTools, LeaseEndedDuringThePauseStaysPausedUntilTheClick)
{
    ToolHarness h;
    h.start({{"input", "takeover"}, {"lease_s", 60}});
    pause_by_person(h);
    h.engine().advance_clock(std::chrono::seconds(61));
    EXPECT_EQ(control(h, {{"method", "takeover.resume"}})["resumed"], json::array());
    EXPECT_EQ(h.call("list_windows").code(), "consent_expired");
    // A new consent renews the lease, not the pause.
    h.start({{"input", "takeover"}});
    EXPECT_TRUE(paused(h));
    EXPECT_TRUE(h.mock().indicator_paused()); // the new indicator comes up paused
    EXPECT_EQ(h.call("click", {{"element_token", h.token("Settings", "Remember me")}}).code(), "user_took_over");
    EXPECT_TRUE(h.mock().click_continue());
    EXPECT_FALSE(paused(h));
}

TEST(ResumeTools, NothingTheModelSendsResumes)
{
    ToolHarness h;
    pause_by_person(h);
    // Every tool, with and without arguments: none resumes.
    for (const auto& def : nd_driver::all_tools()) {
        if (def.decl.name == "end_session")
            continue;
        h.call(def.decl.name, json::object());
        h.call(def.decl.name, {{"resume", true}, {"takeover.resume", true}});
        ASSERT_TRUE(paused(h)) << def.decl.name;
    }
    h.start({{"input", "takeover"}});
    EXPECT_TRUE(paused(h));
    h.start({{"input", "headless"}});
    EXPECT_TRUE(paused(h));
    // Ending the session and starting a new one (a new consent) keeps the pause.
    EXPECT_FALSE(h.call("end_session").is_error);
    h.start({{"input", "takeover"}});
    EXPECT_TRUE(paused(h));
    EXPECT_EQ(h.call("click", {{"element_token", h.token("Settings", "Remember me")}}).code(), "user_took_over");
    // Only the person's click does.
    EXPECT_TRUE(h.mock().click_continue());
    EXPECT_FALSE(paused(h));
}

TEST(ResumeTools, HeadlessWhilePausedThenHostResume)
{
    ToolHarness h;
    auto id = pause_by_person(h);
    h.start({{"input", "headless"}});
    EXPECT_FALSE(h.mock().indicator_shown());
    EXPECT_TRUE(paused(h));
    EXPECT_FALSE(h.mock().click_continue()); // no indicator, no button
    EXPECT_EQ(control(h, {{"method", "takeover.resume"}})["resumed"], json::array({id}));
    auto r = h.call("click", {{"element_token", h.token("Settings", "Remember me")}});
    EXPECT_FALSE(r.is_error) << r.text;
}

TEST(ResumeTools, KillSwitchInterruptsACallInProgressAndReleasesKeys)
{
    ToolHarness h;
    h.start({{"input", "takeover"}});
    h.mock().raise(SETTINGS);
    auto user = h.token("Settings", "Username");
    // What the control pipe does first, before it waits for the engine's lock.
    h.engine().interrupt();
    auto r = h.call("type_text", {{"element_token", user}, {"text", "hello"}, {"delivery_mode", "foreground"}});
    EXPECT_EQ(r.code(), "stopped_by_kill_switch") << r.text;
    auto keys = h.call("hotkey", {{"keys", {"ctrl", "a"}}});
    EXPECT_EQ(keys.code(), "stopped_by_kill_switch") << keys.text;
    int downs = 0;
    for (const auto& e : h.mock().synthetic_log())
        if (e.kind == nd_mock::SyntheticEvent::Kind::key || e.kind == nd_mock::SyntheticEvent::Kind::button)
            downs += e.press ? 1 : -1;
    EXPECT_EQ(downs, 0);
    // A revocation interrupt names its session only.
    h.engine().clear_interrupt();
    h.engine().interrupt("someone-else");
    EXPECT_FALSE(h.engine().interrupted(h.engine().session()->id).has_value());
    h.engine().interrupt(h.engine().session()->id);
    EXPECT_EQ(h.engine().interrupted(h.engine().session()->id)->code, nd_core::ErrorCode::session_revoked);
    h.engine().clear_interrupt();
    EXPECT_FALSE(h.call("type_text", {{"element_token", h.token("Settings", "Username")}, {"text", "x"},
                                         {"delivery_mode", "foreground"}})
                     .is_error);
}

} // namespace

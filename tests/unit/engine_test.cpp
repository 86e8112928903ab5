// The engine on the mock desktop (docs/mock.md fixtures: Chatter, two Notes windows, Settings,
// Calculator): sessions and consent, the takeover and its indicator, window targeting (§2.3) and
// token resolution.

#include "core/engine/engine.h"

#include "backend/mock/mock_backend.h"
#include "backend/mock/mock_tree_reader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <set>

using namespace nd_core;
using nd_mock::MockBackend;

namespace {

constexpr std::int64_t CHATTER = 41943047;
constexpr std::int64_t NOTES_GROCERIES = 41943112;
constexpr std::int64_t NOTES_IDEAS = 41943113;
constexpr std::int64_t SETTINGS = 52428801;
constexpr std::int64_t CALCULATOR = 62914561;
constexpr std::int64_t NOTES_PID = 5120;
constexpr std::int64_t SETTINGS_PID = 6001;
constexpr std::int64_t CHATTER_PID = 4242;

class EngineTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        auto loaded = MockBackend::load(MockBackend::default_fixture_dir());
        ASSERT_TRUE(loaded.ok()) << loaded.error().text();
        mock = std::move(loaded).value();
    }

    Engine& engine_with(ConsentProvider& consent)
    {
        engine = std::make_unique<Engine>(*mock, consent, audit);
        return *engine;
    }

    static SessionRequest request(std::vector<std::string> apps, InputMode input = InputMode::headless)
    {
        SessionRequest r;
        r.apps = std::move(apps);
        r.input = input;
        return r;
    }

    // A live session over Notes, Settings and Calculator (not Chatter), granted by AutoConsent.
    Session& approved_session()
    {
        auto& e = engine_with(auto_consent);
        auto started = e.start_session(request({"Notes", "Settings", "Calculator"}));
        EXPECT_TRUE(started.ok()) << started.error().text();
        auto live = e.live_session();
        EXPECT_TRUE(live.ok());
        return **live;
    }

    std::int32_t index_of(const Snapshot& s, std::string_view key)
    {
        for (std::int32_t i = 0; i < s.size(); ++i)
            if (s.elements[static_cast<std::size_t>(i)].key == key)
                return i;
        ADD_FAILURE() << "no element " << key;
        return -1;
    }

    std::unique_ptr<MockBackend> mock;
    AutoConsent auto_consent;
    ScriptedConsent scripted;
    AuditLog audit{""};
    std::unique_ptr<Engine> engine;
};

std::set<std::int64_t> candidate_ids(const Error& e)
{
    std::set<std::int64_t> ids;
    for (const auto& c : e.candidates)
        ids.insert(c.window_id);
    return ids;
}

} // namespace

// Sessions and consent.

TEST_F(EngineTest, NoSessionBeforeStartSession)
{
    auto& e = engine_with(auto_consent);
    EXPECT_EQ(e.session(), nullptr);
    auto live = e.live_session();
    ASSERT_FALSE(live.ok());
    EXPECT_EQ(live.error().code, ErrorCode::not_consented);
}

TEST_F(EngineTest, StartSessionGrantsWhatIsAsked)
{
    auto& e = engine_with(auto_consent);
    auto started = e.start_session(request({"Notes", "Settings"}));
    ASSERT_TRUE(started.ok()) << started.error().text();
    const Session& s = **started;
    EXPECT_TRUE(s.id.starts_with("mcp:host:")) << s.id;
    EXPECT_TRUE(s.scope.allows("Notes"));
    EXPECT_TRUE(s.scope.allows("settings")); // app names compare case-insensitively
    EXPECT_FALSE(s.scope.allows("Chatter"));
    EXPECT_EQ(s.input, InputMode::headless);
    EXPECT_FALSE(s.takeover.on);
    EXPECT_FALSE(s.clipboard_read);
    EXPECT_FALSE(mock->indicator_shown());
    EXPECT_GE(s.lease_expires_ms - s.started_ms, DEFAULT_LEASE_S * 1000);
    auto live = e.live_session();
    ASSERT_TRUE(live.ok());
    EXPECT_EQ(*live, e.session());
}

TEST_F(EngineTest, WithoutAppsEveryAppWithAWindowIsAskedForOnce)
{
    auto& e = engine_with(scripted);
    scripted.push({true, {"Chatter", "Notes", "Settings", "Calculator"}, false, false});
    SessionRequest r;
    auto started = e.start_session(r);
    ASSERT_TRUE(started.ok()) << started.error().text();
    const auto requests = scripted.requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].apps.size(), 4u); // two Notes windows, one app
    EXPECT_EQ(std::set<std::string>(requests[0].apps.begin(), requests[0].apps.end()),
        (std::set<std::string>{"Chatter", "Notes", "Settings", "Calculator"}));
    EXPECT_FALSE(requests[0].takeover);
    EXPECT_EQ(requests[0].lease_s, DEFAULT_LEASE_S);
}

TEST_F(EngineTest, ScriptedPartialGrant)
{
    auto& e = engine_with(scripted);
    scripted.push({true, {"Notes"}, false, false});
    auto r = request({"Notes", "Settings"});
    r.clipboard_read = true;
    auto started = e.start_session(r);
    ASSERT_TRUE(started.ok()) << started.error().text();
    EXPECT_TRUE((*started)->scope.allows("Notes"));
    EXPECT_FALSE((*started)->scope.allows("Settings"));
    EXPECT_FALSE((*started)->clipboard_read);
    const auto requests = scripted.requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].apps, (std::vector<std::string>{"Notes", "Settings"}));
    EXPECT_TRUE(requests[0].clipboard_read);
}

TEST_F(EngineTest, AGrantNeverWidensWhatWasAsked)
{
    auto& e = engine_with(scripted);
    scripted.push({true, {"Notes", "Chatter"}, true, true});
    auto started = e.start_session(request({"Notes"}));
    ASSERT_TRUE(started.ok()) << started.error().text();
    EXPECT_TRUE((*started)->scope.allows("Notes"));
    EXPECT_FALSE((*started)->scope.allows("Chatter"));
    EXPECT_FALSE((*started)->clipboard_read);
    EXPECT_FALSE((*started)->takeover.on);
    EXPECT_FALSE(mock->indicator_shown());
}

TEST_F(EngineTest, TheReaderPreparesOnlyOnceASessionIsGranted)
{
    // A reader that listens to the apps' events may begin at a granted session, never before.
    auto& e = engine_with(scripted);
    const auto* reader = dynamic_cast<nd_mock::MockTreeReader*>(mock->trees());
    ASSERT_NE(reader, nullptr);
    EXPECT_FALSE(e.start_session(request({"Notes"})).ok()); // an empty queue denies
    EXPECT_EQ(reader->prepared(), 0);
    scripted.push({true, {"Notes"}, false, false});
    ASSERT_TRUE(e.start_session(request({"Notes"})).ok());
    EXPECT_EQ(reader->prepared(), 1);
}

TEST_F(EngineTest, ScriptedDenial)
{
    auto& e = engine_with(scripted); // an empty queue denies
    auto started = e.start_session(request({"Notes"}));
    ASSERT_FALSE(started.ok());
    EXPECT_EQ(started.error().code, ErrorCode::consent_denied);
    EXPECT_EQ(e.session(), nullptr);
    EXPECT_EQ(e.live_session().error().code, ErrorCode::not_consented);

    // Allowed, but with none of the apps asked for: still a denial.
    scripted.push({true, {"Chatter"}, false, false});
    started = e.start_session(request({"Notes"}));
    ASSERT_FALSE(started.ok());
    EXPECT_EQ(started.error().code, ErrorCode::consent_denied);
    EXPECT_EQ(e.session(), nullptr);
}

TEST_F(EngineTest, LeaseValidation)
{
    auto& e = engine_with(scripted);
    for (std::int64_t lease : {std::int64_t{-1}, std::int64_t{0}, MIN_LEASE_S - 1, MAX_LEASE_S + 1}) {
        auto r = request({"Notes"});
        r.lease_s = lease;
        auto started = e.start_session(r);
        ASSERT_FALSE(started.ok()) << lease;
        EXPECT_EQ(started.error().code, ErrorCode::invalid_arguments) << lease;
    }
    EXPECT_TRUE(scripted.requests().empty()) << "the person was asked despite a bad lease";

    for (std::int64_t lease : {MIN_LEASE_S, MAX_LEASE_S}) {
        auto& fresh = engine_with(auto_consent);
        auto r = request({"Notes"});
        r.lease_s = lease;
        auto started = fresh.start_session(r);
        ASSERT_TRUE(started.ok()) << lease;
        EXPECT_GE((*started)->lease_expires_ms - (*started)->started_ms, lease * 1000);
        EXPECT_LE((*started)->lease_expires_ms - (*started)->started_ms, lease * 1000 + 1000);
    }
}

TEST_F(EngineTest, AnEmptyAppListIsRefused)
{
    auto& e = engine_with(auto_consent);
    auto started = e.start_session(request({}));
    ASSERT_FALSE(started.ok());
    EXPECT_EQ(started.error().code, ErrorCode::invalid_arguments);
}

TEST_F(EngineTest, ALiveSessionIsReusedAndAsksOnlyForWhatIsNew)
{
    auto& e = engine_with(scripted);
    scripted.push({true, {"Notes"}, false, false});
    auto first = e.start_session(request({"Notes"}));
    ASSERT_TRUE(first.ok());
    const std::string id = (*first)->id;

    // The same request again asks nobody.
    auto again = e.start_session(request({"Notes"}));
    ASSERT_TRUE(again.ok());
    EXPECT_EQ((*again)->id, id);
    EXPECT_EQ(scripted.requests().size(), 1u);

    // A new app: only that app is asked for; the scope grows.
    scripted.push({true, {"Settings"}, false, false});
    auto wider = e.start_session(request({"Notes", "Settings"}));
    ASSERT_TRUE(wider.ok());
    EXPECT_EQ((*wider)->id, id);
    ASSERT_EQ(scripted.requests().size(), 2u);
    EXPECT_EQ(scripted.requests()[1].apps, (std::vector<std::string>{"Settings"}));
    EXPECT_TRUE((*wider)->scope.allows("Notes"));
    EXPECT_TRUE((*wider)->scope.allows("Settings"));
}

TEST_F(EngineTest, EndKillAndRevoke)
{
    auto& e = engine_with(auto_consent);
    ASSERT_TRUE(e.start_session(request({"Notes"})).ok());
    ASSERT_TRUE(e.end_session().ok());
    EXPECT_EQ(e.live_session().error().code, ErrorCode::not_consented);

    auto& k = engine_with(auto_consent);
    ASSERT_TRUE(k.start_session(request({"Notes"}, InputMode::takeover)).ok());
    EXPECT_TRUE(mock->indicator_shown());
    k.kill_switch();
    EXPECT_FALSE(mock->indicator_shown());
    EXPECT_EQ(k.live_session().error().code, ErrorCode::stopped_by_kill_switch);

    auto& r = engine_with(auto_consent);
    auto started = r.start_session(request({"Notes"}));
    ASSERT_TRUE(started.ok());
    const std::string id = (*started)->id;
    EXPECT_EQ(r.revoke("mcp:someone:1").error().code, ErrorCode::invalid_arguments);
    EXPECT_TRUE(r.live_session().ok());
    EXPECT_TRUE(r.revoke(id).ok());
    EXPECT_EQ(r.live_session().error().code, ErrorCode::session_revoked);
}

// The takeover and its indicator (§4.2).

TEST_F(EngineTest, TakeoverShowsTheIndicator)
{
    auto& e = engine_with(auto_consent);
    auto started = e.start_session(request({"Notes"}, InputMode::takeover));
    ASSERT_TRUE(started.ok()) << started.error().text();
    const Session& s = **started;
    EXPECT_TRUE(s.takeover.on);
    EXPECT_TRUE(s.takeover.indicator);
    EXPECT_FALSE(s.takeover.paused);
    EXPECT_FALSE(s.takeover.reason.has_value());
    EXPECT_TRUE(s.takeover_granted);
    EXPECT_EQ(s.input, InputMode::takeover);
    EXPECT_TRUE(s.pointer_anchor.has_value());
    EXPECT_TRUE(mock->indicator_shown());
    EXPECT_FALSE(mock->indicator_paused());
}

TEST_F(EngineTest, TakeoverTheMockPersonDidNotAllow)
{
    auto& e = engine_with(scripted);
    scripted.push({true, {"Notes"}, false, false});
    auto started = e.start_session(request({"Notes"}, InputMode::takeover));
    ASSERT_TRUE(started.ok()) << started.error().text();
    const Session& s = **started;
    ASSERT_EQ(scripted.requests().size(), 1u);
    EXPECT_TRUE(scripted.requests()[0].takeover);
    EXPECT_FALSE(s.takeover.on);
    EXPECT_FALSE(s.takeover_granted);
    EXPECT_EQ(s.input, InputMode::headless);
    ASSERT_TRUE(s.takeover.reason.has_value());
    EXPECT_FALSE(s.takeover.reason->empty());
    EXPECT_FALSE(mock->indicator_shown());
    EXPECT_TRUE(s.scope.allows("Notes"));
}

TEST_F(EngineTest, NoIndicatorNoTakeover)
{
    mock->fail_indicator(true);
    auto& e = engine_with(auto_consent);
    auto started = e.start_session(request({"Notes"}, InputMode::takeover));
    ASSERT_TRUE(started.ok()) << started.error().text();
    const Session& s = **started;
    EXPECT_FALSE(s.takeover.on);
    EXPECT_FALSE(s.takeover.indicator);
    EXPECT_FALSE(s.takeover_granted);
    EXPECT_EQ(s.input, InputMode::headless);
    ASSERT_TRUE(s.takeover.reason.has_value());
    EXPECT_NE(s.takeover.reason->find("indicator"), std::string::npos) << *s.takeover.reason;
    EXPECT_FALSE(mock->indicator_shown());

    // Once the indicator can be shown, asking again grants it.
    mock->fail_indicator(false);
    auto again = e.start_session(request({"Notes"}, InputMode::takeover));
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE((*again)->takeover.on);
    EXPECT_TRUE(mock->indicator_shown());
}

TEST_F(EngineTest, ADestroyedIndicatorEndsTheTakeover)
{
    auto& e = engine_with(auto_consent);
    ASSERT_TRUE(e.start_session(request({"Notes"}, InputMode::takeover)).ok());
    mock->destroy_indicator();
    auto live = e.live_session();
    ASSERT_TRUE(live.ok()) << "the session itself stays";
    const Session& s = **live;
    EXPECT_FALSE(s.takeover.on);
    EXPECT_FALSE(s.takeover.indicator);
    EXPECT_FALSE(s.takeover_granted);
    EXPECT_EQ(s.input, InputMode::headless);
    ASSERT_TRUE(s.takeover.reason.has_value());
    EXPECT_NE(s.takeover.reason->find("indicator"), std::string::npos) << *s.takeover.reason;
    EXPECT_FALSE(mock->indicator_shown());
}

TEST_F(EngineTest, SwitchingToHeadlessEndsTheTakeover)
{
    auto& e = engine_with(scripted);
    scripted.push({true, {"Notes"}, true, false});
    auto started = e.start_session(request({"Notes"}, InputMode::takeover));
    ASSERT_TRUE(started.ok());
    ASSERT_TRUE((*started)->takeover.on);
    auto headless = e.start_session(request({"Notes"}));
    ASSERT_TRUE(headless.ok());
    EXPECT_FALSE((*headless)->takeover.on);
    EXPECT_EQ((*headless)->input, InputMode::headless);
    EXPECT_TRUE((*headless)->takeover.reason.has_value());
    EXPECT_FALSE(mock->indicator_shown());
    EXPECT_EQ(scripted.requests().size(), 1u) << "going headless needs no consent";
}

// Window targeting (§2.3).

TEST_F(EngineTest, ResolveByWindowIdAndPid)
{
    auto& s = approved_session();
    auto by_id = engine->resolve_window(s, {std::nullopt, SETTINGS, std::nullopt});
    ASSERT_TRUE(by_id.ok()) << by_id.error().text();
    EXPECT_EQ(by_id->window_id, SETTINGS);
    EXPECT_EQ(by_id->app, "Settings");

    auto both = engine->resolve_window(s, {SETTINGS_PID, SETTINGS, std::nullopt});
    ASSERT_TRUE(both.ok());
    EXPECT_EQ(both->window_id, SETTINGS);

    auto by_pid = engine->resolve_window(s, {SETTINGS_PID, std::nullopt, std::nullopt});
    ASSERT_TRUE(by_pid.ok());
    EXPECT_EQ(by_pid->window_id, SETTINGS);
}

TEST_F(EngineTest, PidAloneTakesThatPidsTopmostWindow)
{
    auto& s = approved_session();
    ASSERT_TRUE(mock->raise(NOTES_IDEAS));
    auto top = engine->resolve_window(s, {NOTES_PID, std::nullopt, std::nullopt});
    ASSERT_TRUE(top.ok());
    EXPECT_EQ(top->window_id, NOTES_IDEAS);
    ASSERT_TRUE(mock->raise(NOTES_GROCERIES));
    top = engine->resolve_window(s, {NOTES_PID, std::nullopt, std::nullopt});
    ASSERT_TRUE(top.ok());
    EXPECT_EQ(top->window_id, NOTES_GROCERIES);
}

TEST_F(EngineTest, ResolveByAppFragment)
{
    auto& s = approved_session();
    auto calc = engine->resolve_window(s, {std::nullopt, std::nullopt, "calc"});
    ASSERT_TRUE(calc.ok()) << calc.error().text();
    EXPECT_EQ(calc->window_id, CALCULATOR);
    auto upper = engine->resolve_window(s, {std::nullopt, std::nullopt, "CALCULATOR"});
    ASSERT_TRUE(upper.ok());
    EXPECT_EQ(upper->window_id, CALCULATOR);
    // A fragment of a title picks one of two windows of the same app.
    auto ideas = engine->resolve_window(s, {std::nullopt, std::nullopt, "ideas"});
    ASSERT_TRUE(ideas.ok()) << ideas.error().text();
    EXPECT_EQ(ideas->window_id, NOTES_IDEAS);
}

TEST_F(EngineTest, AmbiguousAppGivesCandidates)
{
    auto& s = approved_session();
    auto notes = engine->resolve_window(s, {std::nullopt, std::nullopt, "Notes"});
    ASSERT_FALSE(notes.ok());
    const Error& e = notes.error();
    EXPECT_EQ(e.code, ErrorCode::ambiguous_target);
    EXPECT_EQ(error_info(e.code).retry, Retry::never);
    EXPECT_EQ(candidate_ids(e), (std::set<std::int64_t>{NOTES_GROCERIES, NOTES_IDEAS}));
    for (const auto& c : e.candidates) {
        EXPECT_EQ(c.pid, NOTES_PID);
        EXPECT_EQ(c.app, "Notes");
    }
    EXPECT_FALSE(e.candidates_truncated);
    EXPECT_TRUE(e.text().starts_with("ambiguous_target: 2 approved windows match app [retry: never] ")) << e.text();
}

TEST_F(EngineTest, NoTargetGivesTheApprovedWindowsAsCandidates)
{
    auto& s = approved_session();
    auto none = engine->resolve_window(s, {});
    ASSERT_FALSE(none.ok());
    const Error& e = none.error();
    EXPECT_EQ(e.code, ErrorCode::ambiguous_window_target);
    EXPECT_EQ(candidate_ids(e), (std::set<std::int64_t>{NOTES_GROCERIES, NOTES_IDEAS, SETTINGS, CALCULATOR}));
    EXPECT_FALSE(e.candidates_truncated);
}

TEST_F(EngineTest, CandidatesAreCappedAtEight)
{
    nlohmann::json doc = {{"app", "Many"}, {"pid", 9000}, {"windows", nlohmann::json::array()}};
    for (int i = 0; i < 10; ++i)
        doc["windows"].push_back({{"id", 90000001 + i},
            {"title", "Many " + std::to_string(i)},
            {"frame", {0, 0, 100, 100}},
            {"root", {{"role", "frame"}, {"id", "many.window"}, {"name", "Many"}, {"states", {"enabled", "showing"}}}}});
    auto added = mock->add_app(doc);
    ASSERT_TRUE(added.ok()) << added.error().text();
    auto& e = engine_with(auto_consent);
    ASSERT_TRUE(e.start_session(request({"Many"})).ok());
    auto live = e.live_session();
    ASSERT_TRUE(live.ok());
    auto many = e.resolve_window(**live, {std::nullopt, std::nullopt, "many"});
    ASSERT_FALSE(many.ok());
    EXPECT_EQ(many.error().code, ErrorCode::ambiguous_target);
    EXPECT_EQ(many.error().candidates.size(), MAX_CANDIDATES);
    EXPECT_TRUE(many.error().candidates_truncated);
}

TEST_F(EngineTest, TargetsThatMatchNothing)
{
    auto& s = approved_session();
    const WindowTarget targets[] = {
        {std::nullopt, 12345, std::nullopt},        // no such window
        {99999, std::nullopt, std::nullopt},        // no such pid
        {std::nullopt, std::nullopt, "zzz"},        // no such fragment
        {NOTES_PID, SETTINGS, std::nullopt},        // the window is not that pid's
        {std::nullopt, std::nullopt, "Chatter"},    // only approved apps are considered
    };
    for (const auto& t : targets) {
        auto r = engine->resolve_window(s, t);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, ErrorCode::window_target_not_found) << r.error().text();
        EXPECT_TRUE(r.error().candidates.empty());
    }
}

TEST_F(EngineTest, UnapprovedAppsAreOutOfScope)
{
    auto& s = approved_session();
    auto by_id = engine->resolve_window(s, {std::nullopt, CHATTER, std::nullopt});
    ASSERT_FALSE(by_id.ok());
    EXPECT_EQ(by_id.error().code, ErrorCode::app_out_of_scope);
    auto by_pid = engine->resolve_window(s, {CHATTER_PID, std::nullopt, std::nullopt});
    ASSERT_FALSE(by_pid.ok());
    EXPECT_EQ(by_pid.error().code, ErrorCode::app_out_of_scope);
    // The message names no app text.
    EXPECT_EQ(by_id.error().message.find("Chatter"), std::string::npos);
}

TEST_F(EngineTest, WindowsInScope)
{
    auto& s = approved_session();
    auto windows = engine->windows_in_scope(s);
    ASSERT_TRUE(windows.ok());
    std::set<std::int64_t> ids;
    for (const auto& w : *windows)
        ids.insert(w.window_id);
    EXPECT_EQ(ids, (std::set<std::int64_t>{NOTES_GROCERIES, NOTES_IDEAS, SETTINGS, CALCULATOR}));
}

// Tokens.

TEST_F(EngineTest, ATokenResolvesWhileTheStructureHolds)
{
    auto& s = approved_session();
    auto window = engine->resolve_window(s, {std::nullopt, SETTINGS, std::nullopt});
    ASSERT_TRUE(window.ok());
    auto snap = engine->read_window(s, *window);
    ASSERT_TRUE(snap.ok()) << snap.error().text();
    const auto index = index_of(**snap, "settings.sign_in");
    const auto token = format_token((*snap)->id, index);

    auto ref = engine->resolve_token(s, token);
    ASSERT_TRUE(ref.ok()) << ref.error().text();
    EXPECT_EQ(ref->index, index);
    EXPECT_EQ(ref->element().key, "settings.sign_in");
    EXPECT_EQ(ref->window().window_id, SETTINGS);

    // A change of name is not structure: the token still works and sees the new name.
    ASSERT_TRUE(mock->mutate(SETTINGS, "settings.sign_in", {{"name", "Log in"}}).ok());
    ref = engine->resolve_token(s, token);
    ASSERT_TRUE(ref.ok()) << ref.error().text();
    EXPECT_EQ(ref->element().name, "Log in");
}

TEST_F(EngineTest, AStructuralChangeMakesTokensStale)
{
    auto& s = approved_session();
    auto window = engine->resolve_window(s, {std::nullopt, SETTINGS, std::nullopt});
    ASSERT_TRUE(window.ok());
    auto snap = engine->read_window(s, *window);
    ASSERT_TRUE(snap.ok());
    const auto token = format_token((*snap)->id, index_of(**snap, "settings.sign_in"));

    nlohmann::json patch = {{"append", {{"role", "label"}, {"id", "settings.banner"}, {"name", "Saved"}}}};
    auto mutated = mock->mutate(SETTINGS, "settings.page.general", patch);
    ASSERT_TRUE(mutated.ok()) << mutated.error().text();

    auto ref = engine->resolve_token(s, token);
    ASSERT_FALSE(ref.ok());
    EXPECT_EQ(ref.error().code, ErrorCode::stale_element_token);
    EXPECT_EQ(error_info(ref.error().code).retry, Retry::after_refresh);

    // A fresh read gives a new id whose tokens work.
    auto fresh = engine->read_window(s, *window);
    ASSERT_TRUE(fresh.ok());
    EXPECT_NE((*fresh)->id, (*snap)->id);
    auto again = engine->resolve_token(s, format_token((*fresh)->id, index_of(**fresh, "settings.sign_in")));
    ASSERT_TRUE(again.ok()) << again.error().text();
    EXPECT_EQ(again->element().key, "settings.sign_in");
    // The old token stays stale.
    EXPECT_EQ(engine->resolve_token(s, token).error().code, ErrorCode::stale_element_token);
}

TEST_F(EngineTest, BadTokens)
{
    auto& s = approved_session();
    auto window = engine->resolve_window(s, {std::nullopt, CALCULATOR, std::nullopt});
    ASSERT_TRUE(window.ok());
    auto snap = engine->read_window(s, *window);
    ASSERT_TRUE(snap.ok());

    for (std::string_view malformed : {"", "s1", "s1:", ":3", "S1:3", "s1:-1", "s1:3:4"}) {
        auto r = engine->resolve_token(s, malformed);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, ErrorCode::invalid_arguments) << malformed;
    }
    auto never_issued = engine->resolve_token(s, "zz999999:1");
    ASSERT_FALSE(never_issued.ok());
    EXPECT_EQ(never_issued.error().code, ErrorCode::stale_element_token);

    auto past_the_end = engine->resolve_token(s, format_token((*snap)->id, (*snap)->size()));
    ASSERT_FALSE(past_the_end.ok());
    EXPECT_EQ(past_the_end.error().code, ErrorCode::element_not_found);
}

TEST_F(EngineTest, ATokenOfAClosedWindow)
{
    auto& s = approved_session();
    auto window = engine->resolve_window(s, {std::nullopt, CALCULATOR, std::nullopt});
    ASSERT_TRUE(window.ok());
    auto snap = engine->read_window(s, *window);
    ASSERT_TRUE(snap.ok());
    const auto token = format_token((*snap)->id, 1);
    ASSERT_TRUE(mock->close_window(CALCULATOR));
    auto r = engine->resolve_token(s, token);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::window_target_not_found);
    // The window's snapshot is forgotten: the token is stale from now on.
    EXPECT_EQ(engine->resolve_token(s, token).error().code, ErrorCode::stale_element_token);
}

TEST_F(EngineTest, InvalidatingTheSessionsSnapshotsMakesTokensStaleButKeepsRows)
{
    auto& s = approved_session();
    auto window = engine->resolve_window(s, {std::nullopt, SETTINGS, std::nullopt});
    ASSERT_TRUE(window.ok());
    auto snap = engine->read_window(s, *window);
    ASSERT_TRUE(snap.ok());
    const auto index = index_of(**snap, "settings.remember");
    const auto token = format_token((*snap)->id, index);

    s.snapshots.invalidate_all(); // what a resumed takeover does
    EXPECT_EQ(engine->resolve_token(s, token).error().code, ErrorCode::stale_element_token);
    auto fresh = engine->read_window(s, *window);
    ASSERT_TRUE(fresh.ok());
    EXPECT_NE((*fresh)->id, (*snap)->id);
    EXPECT_EQ(index_of(**fresh, "settings.remember"), index);
}

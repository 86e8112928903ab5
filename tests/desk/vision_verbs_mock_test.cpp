// The vision verbs where no screen is (the mock backend): each says so instead of failing some
// other way, their arguments are checked before anything runs, the allowlist refuses all six, and
// sessions end and refuse their names without a screen.

#include "backend/mock/mock_backend.h"
#include "desk/desk.h"
#include "desk/verbs/verbs.h"

#include <gtest/gtest.h>

namespace {

using nlohmann::json;

class VisionMock : public ::testing::Test {
protected:
    void SetUp() override { make_desk({}); }

    void make_desk(std::vector<std::string> allow)
    {
        m_desk.reset();
        auto loaded = nd_mock::MockBackend::load(nd_mock::MockBackend::default_fixture_dir());
        ASSERT_TRUE(loaded) << loaded.error().text();
        m_backend = std::move(loaded).value();
        nd_desk::DeskConfig config;
        config.allow = std::move(allow);
        m_desk = std::make_unique<nd_desk::Desk>(*m_backend, config);
    }

    // The error text, or "" when the call succeeded.
    std::string refusal(std::string_view verb, const json& args = json::object(), std::string agent = "agent")
    {
        const auto* def = nd_desk::find_verb("desk_" + std::string(verb));
        EXPECT_NE(def, nullptr) << verb;
        if (!def)
            return "no such verb";
        nd_desk::CallScope scope{std::move(agent), nd_desk::SafetyStopToken(m_desk->safety_stop(), nullptr)};
        auto out = nd_desk::call_verb(*m_desk, *def, scope, args);
        return out ? std::string() : std::string(nd_core::error_name(out.error().code)) + ": " + out.error().message;
    }

    std::unique_ptr<nd_mock::MockBackend> m_backend;
    std::unique_ptr<nd_desk::Desk> m_desk;
};

TEST_F(VisionMock, WithoutAScreenEachSaysSo)
{
    EXPECT_NE(refusal("computer_state").find("unsupported: this desk has no screen"), std::string::npos);
    EXPECT_NE(refusal("look").find("no screen"), std::string::npos);
    EXPECT_NE(refusal("title_at", {{"x", 1}, {"y", 2}}).find("no screen"), std::string::npos);
    EXPECT_NE(refusal("computer_act", {{"action", "wait"}, {"seconds", 0}}).find("no screen"), std::string::npos);
    EXPECT_NE(refusal("computer_scale").find("call computer_state first"), std::string::npos);
}

TEST_F(VisionMock, ArgumentsAreCheckedFirst)
{
    EXPECT_NE(refusal("computer_state", {{"max_edge", -1}}).find("max_edge"), std::string::npos);
    EXPECT_NE(refusal("computer_state", {{"pid", "12"}}).find("pid"), std::string::npos);
    EXPECT_NE(refusal("computer_state", {{"frobnicate", true}}).find("frobnicate"), std::string::npos);
    EXPECT_NE(refusal("computer_act", json::object()).find("action: required"), std::string::npos);
    EXPECT_NE(refusal("computer_act", {{"action", "click"}, {"x", 1}}).find("y: required"), std::string::npos);
    EXPECT_NE(refusal("computer_act", {{"action", "click"}, {"x", 1}, {"y", 1}, {"scale", 0}}).find("scale"), std::string::npos);
    EXPECT_NE(refusal("look", {{"region", {{"x", 1}, {"y", 1}, {"w", 0}, {"h", 5}}}}).find("region"), std::string::npos);
    EXPECT_NE(refusal("look", {{"region", {{"x", 1}, {"y", 1}, {"w", 5}}}}).find("region.h: required"), std::string::npos);
    EXPECT_NE(refusal("look", {{"region", {{"x", 1}, {"y", 1}, {"w", 5}, {"h", 5}, {"z", 1}}}}).find("region: has z"),
        std::string::npos);
    EXPECT_NE(refusal("title_at", {{"x", 1}}).find("y"), std::string::npos);
    EXPECT_NE(refusal("computer_end", json::object()).find("session"), std::string::npos);
    EXPECT_NE(refusal("computer_state", {{"session", std::string(300, 's')}}).find("session"), std::string::npos);
}

TEST_F(VisionMock, TheAllowlistRefusesAllSix)
{
    make_desk({"gedit"});
    for (const auto& [verb, args] : std::vector<std::pair<std::string, json>>{{"computer_state", json::object()},
             {"computer_act", {{"action", "wait"}}}, {"computer_end", {{"session", "s"}}}, {"computer_scale", json::object()},
             {"look", json::object()}, {"title_at", {{"x", 1}, {"y", 1}}}})
        EXPECT_NE(refusal(verb, args).find("app_out_of_scope"), std::string::npos) << verb << ": " << refusal(verb, args);
}

TEST_F(VisionMock, AnEndedSessionIsRefusedEvenWithoutAScreen)
{
    EXPECT_EQ(refusal("computer_end", {{"session", "s1"}}), "");
    EXPECT_NE(refusal("computer_state", {{"session", "s1"}}).find("was ended"), std::string::npos);
    EXPECT_NE(refusal("computer_act", {{"session", "s1"}, {"action", "wait"}}).find("was ended"), std::string::npos);
    EXPECT_NE(refusal("look", {{"session", "s1"}}).find("was ended"), std::string::npos);
}

} // namespace

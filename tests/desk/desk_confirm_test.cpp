// Confirm mode on the mock backend, with a scripted answerer in the dialog's place: "acts" asks
// before each verb that changes the desktop and never before a read, "all" before every call; a
// no, a timeout, a stop or nothing to ask with refuse the call before anything is sent, and the
// person is shown the verb, the window, the element or point and, for typing, the text's length
// and first characters, which a password field never shows.

#include "backend/mock/mock_backend.h"
#include "desk/desk.h"
#include "desk/desk_confirm.h"
#include "desk/verbs/verbs.h"

#include <gtest/gtest.h>

namespace {

using nd_core::ConfirmOutcome;
using nd_mock::MockBackend;
using nlohmann::json;
using Mode = nd_desk::DeskConfig::ConfirmMode;

constexpr std::int64_t SETTINGS = 52428801;

struct Reply {
    bool ok = false;
    json result;
    std::string error;
};

class DeskConfirm : public ::testing::Test {
protected:
    void make_desk(Mode mode, bool with_provider = true)
    {
        m_desk.reset();
        auto loaded = MockBackend::load(MockBackend::default_fixture_dir());
        ASSERT_TRUE(loaded) << loaded.error().text();
        m_backend = std::move(loaded).value();
        ASSERT_TRUE(m_backend->raise(SETTINGS));
        nd_desk::DeskConfig config;
        config.confirm = mode;
        config.confirm_timeout_s = 7;
        m_desk = std::make_unique<nd_desk::Desk>(*m_backend, config);
        if (with_provider)
            m_desk->set_confirm_provider(&m_answers);
    }

    Reply call(std::string_view verb, const json& args)
    {
        const auto* def = nd_desk::find_verb("desk_" + std::string(verb));
        EXPECT_NE(def, nullptr);
        Reply r;
        if (!def)
            return r;
        nd_desk::CallScope scope{"test", nd_desk::SafetyStopToken(m_desk->safety_stop(), nullptr)};
        auto out = nd_desk::call_verb(*m_desk, *def, scope, args);
        if (!out) {
            r.error = std::string(nd_core::error_name(out.error().code)) + ": " + out.error().message;
            return r;
        }
        r.ok = true;
        r.result = out->result;
        return r;
    }

    // The node id of the element whose backend key is `key`, from a read that asks nothing.
    std::string id_of(const std::string& key)
    {
        auto all = m_desk->all_windows();
        EXPECT_TRUE(all);
        for (const auto& w : *all) {
            if (w.window_id != SETTINGS)
                continue;
            auto snap = m_desk->read(w);
            EXPECT_TRUE(snap);
            for (std::int32_t i = 0; snap && i < (*snap)->size(); ++i)
                if ((*snap)->elements[static_cast<std::size_t>(i)].key == key)
                    return nd_core::format_token((*snap)->id, i);
        }
        ADD_FAILURE() << key;
        return {};
    }

    bool checked(const std::string& key)
    {
        auto all = m_desk->all_windows();
        for (const auto& w : *all)
            if (w.window_id == SETTINGS)
                for (const auto& e : (*m_desk->read(w))->elements)
                    if (e.key == key)
                        return e.is(nd_core::STATE_CHECKED);
        return false;
    }

    nd_core::ScriptedConfirm m_answers;
    std::unique_ptr<MockBackend> m_backend;
    std::unique_ptr<nd_desk::Desk> m_desk;
};

TEST_F(DeskConfirm, OffAsksNothing)
{
    make_desk(Mode::off);
    ASSERT_TRUE(call("press", {{"id", id_of("settings.remember")}}).ok);
    EXPECT_TRUE(m_answers.requests().empty());
}

TEST_F(DeskConfirm, ActsAsksBeforeAnActAndSendsItOnlyWhenAllowed)
{
    make_desk(Mode::acts);
    const auto id = id_of("settings.remember");
    auto refused = call("press", {{"id", id}});
    EXPECT_FALSE(refused.ok);
    EXPECT_NE(refused.error.find("confirm_refused: the person refused desk_press"), std::string::npos) << refused.error;
    EXPECT_FALSE(checked("settings.remember")) << "a refused press was sent";

    m_answers.push(ConfirmOutcome::allowed);
    auto pressed = call("press", {{"id", id_of("settings.remember")}});
    ASSERT_TRUE(pressed.ok) << pressed.error;
    EXPECT_TRUE(checked("settings.remember"));

    const auto asked = m_answers.requests();
    ASSERT_EQ(asked.size(), 2u);
    EXPECT_EQ(asked[1].verb, "desk_press");
    EXPECT_EQ(asked[1].window, "Settings");
    EXPECT_FALSE(asked[1].app.empty());
    EXPECT_EQ(asked[1].target, "the check box \u201cRemember me\u201d");
    EXPECT_FALSE(asked[1].text_chars);
}

TEST_F(DeskConfirm, ActsNeverAsksBeforeAReadAllDoes)
{
    make_desk(Mode::acts);
    EXPECT_TRUE(call("windows", json::object()).ok);
    EXPECT_TRUE(call("snapshot", {{"window", "Settings"}}).ok);
    EXPECT_TRUE(m_answers.requests().empty());

    make_desk(Mode::all);
    auto listed = call("windows", json::object());
    EXPECT_FALSE(listed.ok);
    EXPECT_NE(listed.error.find("confirm_refused"), std::string::npos) << listed.error;
    m_answers.push(ConfirmOutcome::allowed);
    EXPECT_TRUE(call("windows", json::object()).ok);
    EXPECT_EQ(m_answers.requests().size(), 2u);
}

TEST_F(DeskConfirm, TypingShowsTheLengthAndFirstCharactersButNeverForAPasswordField)
{
    make_desk(Mode::acts);
    m_answers.push(ConfirmOutcome::allowed);
    ASSERT_TRUE(call("act", {{"id", id_of("settings.username")}, {"action", "focus"}}).ok);
    m_answers.push(ConfirmOutcome::allowed);
    ASSERT_TRUE(call("type", {{"text", "ada lovelace, countess"}}).ok);
    auto asked = m_answers.requests();
    ASSERT_EQ(asked.size(), 2u);
    EXPECT_EQ(asked[1].verb, "desk_type");
    EXPECT_EQ(asked[1].text_chars, 22);
    EXPECT_EQ(asked[1].text_start, "ada lovelace");
    EXPECT_FALSE(asked[1].secure);

    m_answers.push(ConfirmOutcome::allowed);
    ASSERT_TRUE(call("act", {{"id", id_of("settings.password")}, {"action", "focus"}}).ok);
    m_answers.push(ConfirmOutcome::allowed);
    auto typed = call("type", {{"text", "hunter2"}});
    EXPECT_NE(typed.error.find("secure_field_refused"), std::string::npos) << typed.error;
    m_answers.push(ConfirmOutcome::allowed);
    (void)call("key", {{"keys", "x"}});
    asked = m_answers.requests();
    ASSERT_EQ(asked.size(), 5u);
    EXPECT_TRUE(asked[3].secure);
    EXPECT_EQ(asked[3].text_chars, 7);
    EXPECT_EQ(asked[3].text_start, "") << "the first characters of a password were shown";
    EXPECT_TRUE(asked[4].secure);
    EXPECT_EQ(asked[4].target.find('x'), std::string::npos) << asked[4].target;
    EXPECT_EQ(m_backend->secret(SETTINGS, "settings.password"), "correct-horse-battery-staple");
}

TEST_F(DeskConfirm, APointIsNamed)
{
    make_desk(Mode::acts);
    (void)call("click", {{"x", 320}, {"y", 252}});
    auto asked = m_answers.requests();
    ASSERT_EQ(asked.size(), 1u);
    EXPECT_EQ(asked[0].target, "the point (320, 252)");
}

TEST_F(DeskConfirm, ATimeoutAStopAndNothingToAskWithRefuse)
{
    make_desk(Mode::acts);
    m_answers.push(ConfirmOutcome::timed_out);
    auto late = call("press", {{"id", id_of("settings.remember")}});
    EXPECT_NE(late.error.find("did not answer the confirm dialog within 7 s"), std::string::npos) << late.error;
    m_answers.push(ConfirmOutcome::stopped);
    auto stopped = call("press", {{"id", id_of("settings.remember")}});
    EXPECT_NE(stopped.error.find("safety_stop"), std::string::npos) << stopped.error;
    EXPECT_FALSE(checked("settings.remember"));

    make_desk(Mode::acts, false); // the mock backend has no dialog of its own
    auto nobody = call("press", {{"id", id_of("settings.remember")}});
    EXPECT_NE(nobody.error.find("confirm_refused: confirm mode is on, but nothing here can ask"), std::string::npos)
        << nobody.error;
    EXPECT_FALSE(checked("settings.remember"));
}

} // namespace

// The desk's acting verbs on the mock backend (fixtures/mock), where the whole desktop is scripted
// and every effect can be read back: press clicks a check box or selects a tab, act focus moves
// the focus (the mock's grab_focus), type goes to the focused field and refuses a password field,
// the allowlist gates a point, a window shot has its password field black, a stale id says to
// read again, and a desk without a screen answers still with a clear error.

#include "backend/mock/mock_backend.h"
#include "core/encode/base64.h"
#include "desk/desk.h"
#include "desk/verbs/verbs.h"
#include "tools/png_decode.h"

#include <gtest/gtest.h>

namespace {

using nd_mock::MockBackend;
using nlohmann::json;

constexpr std::int64_t SETTINGS = 52428801;

struct Reply {
    bool ok = false;
    json result;
    std::string error;
    std::optional<std::string> png_b64;
};

class DeskActMock : public ::testing::Test {
protected:
    void SetUp() override { make_desk({}); }

    void make_desk(std::vector<std::string> allow)
    {
        m_desk.reset();
        auto loaded = MockBackend::load(MockBackend::default_fixture_dir());
        ASSERT_TRUE(loaded) << loaded.error().text();
        m_backend = std::move(loaded).value();
        ASSERT_TRUE(m_backend->raise(SETTINGS));
        nd_desk::DeskConfig config;
        config.allow = std::move(allow);
        m_desk = std::make_unique<nd_desk::Desk>(*m_backend, config);
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
        r.png_b64 = out->png_b64;
        return r;
    }

    nd_core::WindowInfo settings()
    {
        auto all = m_desk->all_windows();
        EXPECT_TRUE(all);
        for (const auto& w : *all)
            if (w.window_id == SETTINGS)
                return w;
        ADD_FAILURE() << "no Settings window";
        return {};
    }

    // The row whose backend key is `key` in a fresh read, and the read.
    std::pair<nd_core::SnapshotPtr, std::int32_t> row(const std::string& key)
    {
        auto snap = m_desk->read(settings());
        EXPECT_TRUE(snap) << snap.error().text();
        if (!snap)
            return {nullptr, -1};
        for (std::int32_t i = 0; i < (*snap)->size(); ++i)
            if ((*snap)->elements[static_cast<std::size_t>(i)].key == key)
                return {*snap, i};
        return {*snap, -1};
    }
    std::string id_of(const std::string& key)
    {
        auto [snap, i] = row(key);
        EXPECT_GE(i, 0) << key;
        return i >= 0 ? nd_core::format_token(snap->id, i) : std::string();
    }
    const nd_core::Element element(const std::string& key)
    {
        auto [snap, i] = row(key);
        return i >= 0 ? snap->elements[static_cast<std::size_t>(i)] : nd_core::Element{};
    }

    std::unique_ptr<MockBackend> m_backend;
    std::unique_ptr<nd_desk::Desk> m_desk;
};

TEST_F(DeskActMock, PressClicksACheckBoxAtItsCentre)
{
    ASSERT_FALSE(element("settings.remember").is(nd_core::STATE_CHECKED));
    auto pressed = call("press", {{"id", id_of("settings.remember")}});
    ASSERT_TRUE(pressed.ok) << pressed.error;
    EXPECT_EQ(pressed.result["how"], "click");
    EXPECT_EQ(pressed.result["x"], 220 + 100);
    EXPECT_EQ(pressed.result["y"], 240 + 12);
    EXPECT_TRUE(element("settings.remember").is(nd_core::STATE_CHECKED));
}

TEST_F(DeskActMock, PressSelectsATab)
{
    auto pressed = call("press", {{"id", id_of("settings.tab.advanced")}});
    ASSERT_TRUE(pressed.ok) << pressed.error;
    EXPECT_EQ(pressed.result["how"], "selected");
    EXPECT_TRUE(element("settings.tab.advanced").is(nd_core::STATE_SELECTED));
    EXPECT_FALSE(element("settings.tab.general").is(nd_core::STATE_SELECTED));
}

TEST_F(DeskActMock, PressRefusesDisabledAndSecureNodes)
{
    auto disabled = call("press", {{"id", id_of("settings.disabled")}});
    EXPECT_FALSE(disabled.ok);
    EXPECT_NE(disabled.error.find("not sent: the node (push_button) is disabled; wait until desk_snapshot shows it enabled"),
        std::string::npos) << disabled.error;
    auto secure = call("press", {{"id", id_of("settings.password")}});
    EXPECT_FALSE(secure.ok);
    EXPECT_NE(secure.error.find("secure_field_refused"), std::string::npos) << secure.error;
}

TEST_F(DeskActMock, AStaleIdSaysToReadAgain)
{
    const auto old = id_of("settings.remember");
    // Switching the page changes the window's structure: the old id goes stale.
    ASSERT_TRUE(call("act", {{"id", id_of("settings.tab.advanced")}, {"action", "select"}}).ok);
    auto stale = call("press", {{"id", old}});
    EXPECT_FALSE(stale.ok);
    EXPECT_NE(stale.error.find("read the window again with desk_snapshot"), std::string::npos) << stale.error;
}

TEST_F(DeskActMock, ActFocusThenTypeFillsTheField)
{
    auto focused = call("act", {{"id", id_of("settings.username")}, {"action", "focus"}});
    ASSERT_TRUE(focused.ok) << focused.error;
    EXPECT_TRUE(element("settings.username").is(nd_core::STATE_FOCUSED));
    auto typed = call("type", {{"text", "ada"}});
    ASSERT_TRUE(typed.ok) << typed.error;
    EXPECT_EQ(typed.result["typed"], 3);
    EXPECT_EQ(element("settings.username").value, "ada");
    // A node that cannot take the focus is refused.
    auto tab_list = call("act", {{"id", id_of("settings.page_host")}, {"action", "focus"}});
    EXPECT_FALSE(tab_list.ok);
}

TEST_F(DeskActMock, TypeRefusesAFocusedPasswordField)
{
    ASSERT_TRUE(call("act", {{"id", id_of("settings.password")}, {"action", "focus"}}).ok);
    ASSERT_TRUE(element("settings.password").is(nd_core::STATE_FOCUSED));
    auto typed = call("type", {{"text", "hunter2"}});
    EXPECT_FALSE(typed.ok);
    EXPECT_NE(typed.error.find("secure_field_refused"), std::string::npos) << typed.error;
    // A printable key or a paste would type into it as well; a Tab moves on and is let through.
    for (const char* keys : {"x", "shift+x", "ctrl+v"}) {
        auto key = call("key", {{"keys", keys}});
        EXPECT_FALSE(key.ok) << keys;
        EXPECT_NE(key.error.find("secure_field_refused"), std::string::npos) << key.error;
    }
    EXPECT_EQ(m_backend->secret(SETTINGS, "settings.password"), "correct-horse-battery-staple");
    EXPECT_TRUE(call("key", {{"keys", "Tab"}}).ok);
    // A Tab typed into an ordinary field moves nothing in the mock, so the text after it lands too;
    // the check after the Tab ran and let it through.
    ASSERT_TRUE(call("act", {{"id", id_of("settings.username")}, {"action", "focus"}}).ok);
    auto after_tab = call("type", {{"text", "a\tb"}});
    ASSERT_TRUE(after_tab.ok) << after_tab.error;
}

TEST_F(DeskActMock, TheAllowlistGatesThePointAndTheWindow)
{
    make_desk({"Notes"});
    auto clicked = call("click", {{"x", 300}, {"y", 300}});
    EXPECT_FALSE(clicked.ok);
    EXPECT_NE(clicked.error.find("app_out_of_scope"), std::string::npos) << clicked.error;
    auto keys = call("key", {{"keys", "Return"}});
    EXPECT_FALSE(keys.ok);
    EXPECT_NE(keys.error.find("app_out_of_scope"), std::string::npos) << keys.error;
    EXPECT_TRUE(m_backend->synthetic_log().empty()) << "input was sent to an app outside the allowlist";
}

TEST_F(DeskActMock, AWindowShotHasItsPasswordFieldBlack)
{
    auto shot = call("shot", {{"window", "Settings"}});
    ASSERT_TRUE(shot.ok) << shot.error;
    std::string png;
    ASSERT_TRUE(nd_core::base64_decode(shot.png_b64.value_or(""), png));
    nd_test::Pixels px;
    ASSERT_TRUE(nd_test::decode_png(png, px));
    EXPECT_EQ(px.width, 640);
    EXPECT_EQ(px.height, 520);
    // The password field: (220, 200) 400x28 on the screen, the window at (200, 80).
    for (int y = 120; y < 148; y += 3)
        for (int x = 20; x < 420; x += 7) {
            const auto* p = px.at(x, y);
            ASSERT_TRUE(p[0] == 0 && p[1] == 0 && p[2] == 0) << x << "," << y;
        }
    auto cropped = call("shot", {{"window", "Settings"}, {"x", 20}, {"y", 120}, {"w", 100}, {"h", 10}});
    ASSERT_TRUE(cropped.ok) << cropped.error;
    EXPECT_EQ(cropped.result["origin"], json::array({20, 120}));
    EXPECT_EQ(cropped.result["width"], 100);
}

TEST_F(DeskActMock, ADeskWithoutAScreenSaysSo)
{
    auto still = call("still", json::object());
    EXPECT_FALSE(still.ok);
    EXPECT_NE(still.error.find("no screen"), std::string::npos) << still.error;
    auto too_long = call("still", {{"timeout_ms", 6000}});
    EXPECT_FALSE(too_long.ok);
    EXPECT_NE(too_long.error.find("timeout_ms"), std::string::npos) << too_long.error;
}

} // namespace

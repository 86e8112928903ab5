// The desk never sends input onto nish-driver's own surfaces (core/engine/own_surface_guard.h): desk click,
// drag and scroll at a point under one (a MockBackend hook places it), and a press or act click at
// a node under one, are refused with reserved_for_person before the allowlist is asked, with and
// without an allowlist, and nothing is sent; keys wait while a surface holds the focus; desk at
// names the surface as covering the point. Also over the wire, through a daemon on the mock.

#include "desk/desk_test_support.h"
#include "desk/desk.h"
#include "desk/verbs/verbs.h"

#include <gtest/gtest.h>

namespace {

using nd_mock::MockBackend;
using nlohmann::json;

constexpr std::int64_t SETTINGS = 52428801;
const nd_core::Frame SETTINGS_FRAME{200, 80, 640, 520};
// The message every refusal carries (the desk's answer is the message alone).
constexpr std::string_view ONLY_THE_PERSON = "only the person may answer it";

struct Reply {
    bool ok = false;
    json result;
    std::string code, error;
};

class DeskOwnSurface : public ::testing::Test {
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
            r.code = nd_core::error_name(out.error().code);
            r.error = out.error().message;
            return r;
        }
        r.ok = true;
        r.result = out->result;
        return r;
    }

    std::string id_of(const std::string& key)
    {
        auto all = m_desk->all_windows();
        EXPECT_TRUE(all);
        for (const auto& w : *all)
            if (w.window_id == SETTINGS) {
                auto snap = m_desk->read(w);
                EXPECT_TRUE(snap);
                for (std::int32_t i = 0; snap && i < (*snap)->size(); ++i)
                    if ((*snap)->elements[static_cast<std::size_t>(i)].key == key)
                        return nd_core::format_token((*snap)->id, i);
            }
        ADD_FAILURE() << "no node " << key;
        return {};
    }

    void expect_reserved(const Reply& r, std::string_view surface)
    {
        EXPECT_FALSE(r.ok);
        EXPECT_EQ(r.code, "reserved_for_person") << r.error;
        EXPECT_NE(r.error.find(surface), std::string::npos) << r.error;
        EXPECT_NE(r.error.find(ONLY_THE_PERSON), std::string::npos) << r.error;
        EXPECT_TRUE(m_backend->synthetic_log().empty()) << "input was sent onto our own surface";
    }

    std::unique_ptr<MockBackend> m_backend;
    std::unique_ptr<nd_desk::Desk> m_desk;
};

TEST_F(DeskOwnSurface, ClickIsRefusedWithAndWithoutAnAllowlist)
{
    m_backend->place_own_surface("consent_dialog", SETTINGS_FRAME);
    expect_reserved(call("click", {{"x", 300}, {"y", 300}}), "consent dialog (consent_dialog)");
    // Settings is not allowed: still reserved_for_person, since the click would reach the dialog.
    make_desk({"Notes"});
    m_backend->place_own_surface("consent_dialog", SETTINGS_FRAME);
    expect_reserved(call("click", {{"x", 300}, {"y", 300}}), "(300, 300)");
    // Without the dialog the allowlist answers.
    m_backend->clear_own_surfaces();
    EXPECT_EQ(call("click", {{"x", 300}, {"y", 300}}).code, "app_out_of_scope");
}

TEST_F(DeskOwnSurface, ClickElsewhereIsSent)
{
    m_backend->place_own_surface("continue_button", {0, 0, 100, 40});
    auto r = call("click", {{"x", 300}, {"y", 300}});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_FALSE(m_backend->synthetic_log().empty());
}

TEST_F(DeskOwnSurface, DragAndScrollAreRefused)
{
    m_backend->place_own_surface("continue_button", {600, 500, 100, 40});
    expect_reserved(call("drag", {{"x", 300}, {"y", 300}, {"to_x", 650}, {"to_y", 520}}), "Continue button");
    expect_reserved(call("scroll", {{"direction", "down"}, {"x", 650}, {"y", 520}}), "(650, 520)");
    // Without a point the front window's centre (520, 340) is the point.
    m_backend->place_own_surface("takeover_indicator", {500, 330, 40, 20});
    expect_reserved(call("scroll", {{"direction", "down"}}), "front window's centre");
}

TEST_F(DeskOwnSurface, PressAndActClickAreRefusedWithoutFallingBack)
{
    // The check box's centre (320, 252) is under the dialog: no click, and no action in its place.
    m_backend->place_own_surface("consent_dialog", SETTINGS_FRAME);
    expect_reserved(call("press", {{"id", id_of("settings.remember")}}), "node's centre");
    expect_reserved(call("act", {{"id", id_of("settings.remember")}, {"action", "click"}}), "node's centre");
    EXPECT_TRUE(m_backend->semantic_log().empty());
}

TEST_F(DeskOwnSurface, KeysAndTextAreRefusedWhileASurfaceHoldsTheFocus)
{
    m_backend->place_own_surface("consent_dialog", {1000, 600, 200, 100});
    ASSERT_TRUE(m_backend->focus_own_surface("consent_dialog"));
    expect_reserved(call("key", {{"keys", "Return"}}), "keyboard focus");
    expect_reserved(call("type", {{"text", "ada"}}), "keyboard focus");
    m_backend->clear_own_surfaces();
    EXPECT_TRUE(call("key", {{"keys", "Return"}}).ok);
}

TEST_F(DeskOwnSurface, ABackendThatCannotTellRefuses)
{
    m_backend->fail_own_surfaces(true);
    auto r = call("click", {{"x", 300}, {"y", 300}});
    EXPECT_EQ(r.code, "timed_out") << r.error;
    EXPECT_NE(r.error.find("nothing was sent"), std::string::npos) << r.error;
    EXPECT_TRUE(m_backend->synthetic_log().empty());
}

TEST_F(DeskOwnSurface, AtNamesTheSurfaceAsCovering)
{
    auto plain = call("at", {{"x", 320}, {"y", 252}});
    ASSERT_TRUE(plain.ok) << plain.error;
    EXPECT_FALSE(plain.result.contains("covered")) << plain.result.dump();
    m_backend->place_own_surface("consent_dialog", {300, 200, 100, 100});
    auto covered = call("at", {{"x", 320}, {"y", 252}});
    ASSERT_TRUE(covered.ok) << covered.error;
    EXPECT_EQ(covered.result["covered"]["surface"], "consent_dialog") << covered.result.dump();
    EXPECT_EQ(covered.result["covered"]["reserved_for_person"], true);
    EXPECT_EQ(covered.result["covered"]["bounds"], (json{{"x", 300}, {"y", 200}, {"w", 100}, {"h", 100}}));
    EXPECT_EQ(covered.result["window"]["title"], "Settings") << covered.result.dump();
}

// Over the wire, as `shuttle desk click` sends it: the refusal is the answer's text.
std::string click_over_the_wire(const std::string& socket)
{
    namespace w = nd_desk::wire;
    auto client = w::Client::connect(socket);
    EXPECT_TRUE(client.ok());
    if (!client)
        return {};
    auto r = client->call(w::Request{"", "desk_click", json{{"x", 300}, {"y", 300}}}, w::Clock::now() + std::chrono::seconds(5));
    EXPECT_EQ(r.status, w::Client::CallStatus::answered);
    EXPECT_TRUE(r.response.is_error) << r.response.text;
    return r.response.text;
}

TEST(DeskOwnSurfaceDaemon, DeskClickIsRefusedWithAndWithoutAnAllowlist)
{
    for (const auto& allow : {std::vector<std::string>{}, std::vector<std::string>{"Notes"}}) {
        nd_test::TempDir dir("desk-own");
        nd_test::MockDaemon daemon(dir.socket(), allow);
        ASSERT_TRUE(daemon.backend().raise(SETTINGS));
        daemon.backend().place_own_surface("consent_dialog", SETTINGS_FRAME);
        const auto text = click_over_the_wire(dir.socket());
        EXPECT_NE(text.find("consent dialog"), std::string::npos) << text;
        EXPECT_NE(text.find(ONLY_THE_PERSON), std::string::npos) << text;
        EXPECT_TRUE(daemon.backend().synthetic_log().empty());
    }
}

} // namespace

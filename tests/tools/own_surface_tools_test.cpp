// Our own input never lands on our approval surfaces (core/engine/own_surface_guard.h): a takeover's
// click, scroll and drag at a point under one of nish-driver's surfaces (the consent dialog, the
// indicator, its Continue button; a MockBackend hook places one) is refused with
// reserved_for_person and sends nothing, keys are refused while a surface holds the focus, and a
// backend that cannot tell refuses too. Without the surface the same calls go through.

#include "tool_harness.h"

namespace {

using nd_test::ToolHarness;
using nlohmann::json;

constexpr std::int64_t SETTINGS = 52428801;
const nd_core::Frame SETTINGS_FRAME{200, 80, 640, 520};

// A takeover session with Settings in front, and a fresh log.
void settings_in_front(ToolHarness& h)
{
    h.start({{"input", "takeover"}});
    auto raised = h.call("bring_to_front", {{"app", "Settings"}});
    ASSERT_FALSE(raised.is_error) << raised.text;
    h.mock().clear_logs();
}

TEST(OwnSurfaceTools, ClickUnderTheConsentDialogIsRefusedAndSendsNothing)
{
    ToolHarness h;
    settings_in_front(h);
    // The dialog covers the whole window, so the check box's centre (320, 252) lies under it.
    h.mock().place_own_surface("consent_dialog", SETTINGS_FRAME);
    auto r = h.call("click", {{"element_token", h.token("Settings", "Remember me")}, {"delivery_mode", "foreground"}});
    ASSERT_TRUE(r.is_error);
    EXPECT_EQ(r.code(), "reserved_for_person") << r.text;
    EXPECT_EQ(r.retry(), "never");
    EXPECT_EQ(r.structured["error"]["effect"], "refused");
    const auto message = r.structured["error"]["message"].get<std::string>();
    EXPECT_NE(message.find("consent dialog (consent_dialog)"), std::string::npos) << message;
    EXPECT_NE(message.find("(320, 252)"), std::string::npos) << message;
    EXPECT_NE(message.find("only the person"), std::string::npos) << message;
    EXPECT_TRUE(h.mock().synthetic_log().empty());
    EXPECT_TRUE(h.mock().semantic_log().empty());

    // The same click once the dialog is gone: sent, and the box toggles.
    h.mock().clear_own_surfaces();
    auto ok = h.call("click", {{"element_token", h.token("Settings", "Remember me")}, {"delivery_mode", "foreground"}});
    ASSERT_FALSE(ok.is_error) << ok.text;
    EXPECT_FALSE(h.mock().synthetic_log().empty());
}

TEST(OwnSurfaceTools, OnlyTheSurfaceItselfIsReserved)
{
    ToolHarness h;
    settings_in_front(h);
    // A Continue button elsewhere on the screen does not stop a click at the check box.
    h.mock().place_own_surface("continue_button", {0, 0, 100, 40});
    auto r = h.call("click", {{"element_token", h.token("Settings", "Remember me")}, {"delivery_mode", "foreground"}});
    ASSERT_FALSE(r.is_error) << r.text;
    // One on the check box does, whichever kind it is.
    h.mock().place_own_surface("takeover_indicator", {300, 240, 60, 30});
    h.mock().clear_logs();
    r = h.call("double_click", {{"element_token", h.token("Settings", "Remember me")}, {"delivery_mode", "foreground"}});
    EXPECT_EQ(r.code(), "reserved_for_person") << r.text;
    EXPECT_NE(r.text.find("takeover indicator"), std::string::npos) << r.text;
    EXPECT_TRUE(h.mock().synthetic_log().empty());
}

TEST(OwnSurfaceTools, ScrollAndEitherEndOfADragAreRefused)
{
    ToolHarness h;
    h.start({{"input", "takeover"}});
    h.mock().raise(62914561); // Calculator
    auto one = h.token("Calculator", "1");
    auto two = h.token("Calculator", "2");
    h.mock().clear_logs();
    // Only the end (key 2's centre, 1020, 395) is under the surface: nothing moves at all.
    h.mock().place_own_surface("continue_button", {990, 380, 40, 40});
    auto drag = h.call("drag", {{"element_token", one}, {"to_token", two}});
    EXPECT_EQ(drag.code(), "reserved_for_person") << drag.text;
    EXPECT_NE(drag.text.find("drag's end"), std::string::npos) << drag.text;
    EXPECT_TRUE(h.mock().synthetic_log().empty());

    h.mock().clear_own_surfaces();
    h.mock().place_own_surface("consent_dialog", {900, 100, 320, 420});
    auto scroll = h.call("scroll", {{"app", "Calculator"}, {"direction", "down"}, {"amount", 2}});
    EXPECT_EQ(scroll.code(), "reserved_for_person") << scroll.text;
    EXPECT_TRUE(h.mock().synthetic_log().empty());

    h.mock().clear_own_surfaces();
    EXPECT_FALSE(h.call("drag", {{"element_token", h.token("Calculator", "1")}, {"to_token", h.token("Calculator", "2")}}).is_error);
}

TEST(OwnSurfaceTools, KeysAreRefusedWhileASurfaceHoldsTheFocus)
{
    ToolHarness h;
    settings_in_front(h);
    h.mock().place_own_surface("consent_dialog", {1000, 600, 300, 200});
    ASSERT_TRUE(h.mock().focus_own_surface("consent_dialog"));
    auto typed = h.call("type_text",
        {{"element_token", h.token("Settings", "Username")}, {"text", "ada"}, {"delivery_mode", "foreground"}});
    EXPECT_EQ(typed.code(), "reserved_for_person") << typed.text;
    EXPECT_NE(typed.text.find("keyboard focus"), std::string::npos) << typed.text;
    auto keys = h.call("hotkey", {{"keys", {"ctrl", "a"}}, {"app", "Settings"}});
    EXPECT_EQ(keys.code(), "reserved_for_person") << keys.text;
    for (const auto& e : h.mock().synthetic_log())
        EXPECT_NE(e.kind, nd_mock::SyntheticEvent::Kind::key) << e.to_string();
    for (const auto& e : h.mock().synthetic_log())
        EXPECT_NE(e.kind, nd_mock::SyntheticEvent::Kind::type_char) << e.to_string();

    h.mock().clear_own_surfaces();
    auto ok = h.call("hotkey", {{"keys", {"ctrl", "a"}}, {"app", "Settings"}});
    EXPECT_FALSE(ok.is_error) << ok.text;
}

TEST(OwnSurfaceTools, ABackendThatCannotTellRefusesTheInput)
{
    ToolHarness h;
    settings_in_front(h);
    h.mock().fail_own_surfaces(true);
    auto r = h.call("click", {{"element_token", h.token("Settings", "Remember me")}, {"delivery_mode", "foreground"}});
    EXPECT_EQ(r.code(), "timed_out") << r.text;
    EXPECT_NE(r.text.find("nothing was sent"), std::string::npos) << r.text;
    EXPECT_TRUE(h.mock().synthetic_log().empty());
    auto typed = h.call("type_text",
        {{"element_token", h.token("Settings", "Username")}, {"text", "ada"}, {"delivery_mode", "foreground"}});
    EXPECT_EQ(typed.code(), "timed_out") << typed.text;
    // Headless acts send no input and need no answer.
    EXPECT_FALSE(h.call("click", {{"element_token", h.token("Settings", "Remember me")}}).is_error);
    (void)SETTINGS;
}

} // namespace

// Acts through the dispatcher on the mock: act results (§1), set_value readback (§7.2), observe
// (§7.1), secure fields, headless refusals (§4.1) and takeover input with its checks (§4.2).

#include "tool_harness.h"

namespace {

using nd_test::ToolHarness;
using nlohmann::json;

constexpr std::int64_t SETTINGS = 52428801;

TEST(ActTools, ClickConfirmsWithADiff)
{
    ToolHarness h;
    h.start();
    auto r = h.call("click", {{"element_token", h.token("Settings", "Remember me")}});
    ASSERT_FALSE(r.is_error) << r.text;
    const auto& s = r.structured;
    EXPECT_EQ(s["effect"], "confirmed");
    EXPECT_EQ(s["verified"], true);
    EXPECT_EQ(s["path"], "semantic");
    EXPECT_EQ(s["took_cursor"], false);
    EXPECT_TRUE(s["escalation"].is_null());
    EXPECT_EQ(s["diff"]["changed"], 1);
    EXPECT_EQ(s["diff"]["entries"][0]["field"], "states");
    EXPECT_NE(s["diff"]["entries"][0]["to"].get<std::string>().find("checked"), std::string::npos);
    EXPECT_TRUE(s["settle"]["settled"].get<bool>());
    EXPECT_NE(r.text.find("~ ["), std::string::npos) << r.text;
    EXPECT_TRUE(h.mock().synthetic_log().empty());
}

TEST(ActTools, DisabledAndActionlessElements)
{
    ToolHarness h;
    h.start();
    // Refused before anything was sent: the disposition says so (wait and read again, or pick
    // another element), never the `unsafe` of an act that may have half happened.
    auto disabled = h.call("click", {{"element_token", h.token("Settings", "Disabled action")}});
    EXPECT_EQ(disabled.code(), "element_not_ready");
    EXPECT_EQ(disabled.retry(), "after_refresh");
    EXPECT_NE(disabled.text.find("[retry: after_refresh] Nothing was sent; wait until the element is enabled"),
        std::string::npos) << disabled.text;
    auto menu = h.call("right_click", {{"element_token", h.token("Settings", "Sign in")}});
    EXPECT_EQ(menu.code(), "action_not_offered");
    EXPECT_EQ(menu.retry(), "never");
    EXPECT_EQ(menu.structured["error"]["escalation"]["recommend"], "takeover");
    // A model that reads only the text learns the way on too: the contract's line, then the escalation's.
    EXPECT_EQ(menu.text.find("action_not_offered: "), 0u) << menu.text;
    EXPECT_NE(menu.text.find("\nescalation: takeover (a foreground right_click in a takeover session may work)"),
        std::string::npos) << menu.text;
    EXPECT_EQ(disabled.text.find('\n'), std::string::npos) << "no escalation, no second line: " << disabled.text;
    auto label = h.call("type_text", {{"element_token", h.token("Settings", "Sign in")}, {"text", "x"}});
    EXPECT_EQ(label.code(), "action_not_offered") << label.text;
    EXPECT_TRUE(h.mock().semantic_log().empty()) << "a refusal sent something";
}

// A terminal (VTE, Konsole) is not editable text: typing into it headless is refused, and the
// refusal recommends the takeover whose keys it does take. Other elements that are not editable
// get no such advice.
TEST(ActTools, TypingIntoATerminalRecommendsATakeover)
{
    ToolHarness h;
    ASSERT_TRUE(h.mock().add_app(nlohmann::json::parse(R"json({
  "app": "Terminal", "pid": 8201,
  "windows": [{"id": 82010001, "title": "Terminal", "frame": [100, 100, 600, 400],
    "root": {"role": "frame", "id": "term.window", "name": "Terminal", "states": ["enabled", "showing"],
      "children": [{"role": "terminal", "id": "term.screen", "name": "Screen", "frame": [100, 130, 600, 370],
        "states": ["enabled", "focusable", "focused", "showing"]}]}}]
})json")));
    h.start();
    auto typed = h.call("type_text", {{"element_token", h.token("Terminal", "Screen")}, {"text", "ls"}});
    EXPECT_EQ(typed.code(), "action_not_offered") << typed.text;
    EXPECT_NE(typed.text.find("element 1 (terminal) is not editable"), std::string::npos) << typed.text;
    EXPECT_EQ(typed.structured["error"]["escalation"]["recommend"], "takeover") << typed.text;
    auto button = h.call("type_text", {{"element_token", h.token("Settings", "Sign in")}, {"text", "x"}});
    EXPECT_EQ(button.code(), "action_not_offered");
    EXPECT_TRUE(button.structured["error"]["escalation"].is_null()) << button.text;
    EXPECT_EQ(button.text.find("escalation"), std::string::npos) << button.text;
    EXPECT_NE(typed.text.find("\nescalation: takeover (a terminal takes keys"), std::string::npos) << typed.text;
    EXPECT_TRUE(h.mock().semantic_log().empty()) << "a refusal sent something";
}

// A dialog whose OK closes it (its close_window effect as `close`) and whose Help does nothing.
nlohmann::json closing_dialog(const std::string& close)
{
    return nlohmann::json::parse(R"json({
  "app": "Confirm", "pid": 8301,
  "windows": [{"id": 83010001, "title": "Delete?", "frame": [100, 100, 300, 120],
    "root": {"role": "dialog", "id": "dlg", "name": "Delete?", "states": ["enabled", "showing"],
      "children": [
        {"role": "push_button", "id": "dlg.ok", "name": "OK", "frame": [110, 180, 80, 30], "actions": ["click"],
         "states": ["enabled", "focusable", "showing"], "effects": {"click": [)json" + close + R"json(]}},
        {"role": "push_button", "id": "dlg.help", "name": "Help", "frame": [210, 180, 80, 30], "actions": ["click"],
         "states": ["enabled", "focusable", "showing"]}]}}]
})json");
}

// OK, confirmed as having closed its window, which is no longer listed.
void expect_closed_by_ok(ToolHarness& h)
{
    auto ok = h.call("click", {{"element_token", h.token("Confirm", "OK")}});
    ASSERT_FALSE(ok.is_error) << ok.text;
    EXPECT_EQ(ok.structured["effect"], "confirmed") << ok.text;
    EXPECT_EQ(ok.structured["verified"], true);
    EXPECT_EQ(ok.structured["window_closed"], true) << ok.text;
    EXPECT_TRUE(ok.structured["escalation"].is_null()) << ok.text;
    EXPECT_EQ(ok.structured["diff"]["entries"].size(), 0u);
    EXPECT_NE(ok.text.find("; the window closed"), std::string::npos) << ok.text;
    auto windows = h.call("list_windows", {});
    EXPECT_EQ(windows.text.find("Delete?"), std::string::npos) << windows.text;
}

// A dialog's OK that closes its window: nothing is left to read back, and the window going is the
// act's effect. A button that does nothing visible in the same dialog still recommends a takeover.
TEST(ActTools, AnActThatClosesItsWindowIsConfirmed)
{
    ToolHarness h;
    ASSERT_TRUE(h.mock().add_app(closing_dialog(R"({"close_window": true})")));
    h.start();
    auto help = h.call("click", {{"element_token", h.token("Confirm", "Help")}});
    ASSERT_FALSE(help.is_error) << help.text;
    EXPECT_EQ(help.structured["effect"], "dispatched");
    EXPECT_FALSE(help.structured.contains("window_closed"));
    EXPECT_EQ(help.structured["escalation"]["recommend"], "takeover");
    expect_closed_by_ok(h);
}

// An app that is closing drops its accessible window before the window system drops its window
// (zenity under load): the act still reads as having closed it, once the window goes within the
// settle's time (this harness's: 100 ms).
TEST(ActTools, AWindowThatGoesAfterItsTreeIsStillClosedByTheAct)
{
    ToolHarness h;
    ASSERT_TRUE(h.mock().add_app(closing_dialog(R"({"close_window": true, "listed_ms": 40})")));
    h.start();
    expect_closed_by_ok(h);
}

TEST(ActTools, SetValueReadback)
{
    ToolHarness h;
    h.start();
    auto phone = h.call("set_value", {{"element_token", h.token("Settings", "Phone")}, {"value", "555-1234"}});
    ASSERT_FALSE(phone.is_error) << phone.text;
    EXPECT_EQ(phone.structured["readback"], "mismatch");
    EXPECT_EQ(phone.structured["verified"], false);
    EXPECT_NE(phone.structured["effect"], "confirmed");
    auto user = h.call("set_value", {{"element_token", h.token("Settings", "Username")}, {"value", "grace"}});
    EXPECT_EQ(user.structured["readback"], "match");
    EXPECT_EQ(user.structured["effect"], "confirmed");
    EXPECT_EQ(user.structured["verified"], true);
    auto volume = h.call("set_value", {{"element_token", h.token("Settings", "Volume")}, {"value", "55"}});
    EXPECT_EQ(volume.structured["readback"], "match") << volume.text;
    auto out_of_range = h.call("set_value", {{"element_token", h.token("Settings", "Volume")}, {"value", "500"}});
    EXPECT_EQ(out_of_range.code(), "invalid_arguments");
}

TEST(ActTools, SecureFieldsAreNeverTypedInto)
{
    ToolHarness h;
    h.start({{"input", "takeover"}});
    const auto before = h.mock().secret(SETTINGS, "settings.password");
    for (auto tool : {"type_text", "set_value"}) {
        json args = {{"element_token", h.token("Settings", "Password")}, {"text", "hunter2"}, {"value", "hunter2"}};
        auto r = h.call(tool, args);
        EXPECT_EQ(r.code(), "secure_field_refused") << tool << ": " << r.text;
    }
    h.mock().raise(SETTINGS);
    auto fg = h.call("type_text",
        {{"element_token", h.token("Settings", "Password")}, {"text", "hunter2"}, {"delivery_mode", "foreground"}});
    EXPECT_EQ(fg.code(), "secure_field_refused");
    EXPECT_EQ(h.mock().secret(SETTINGS, "settings.password"), before);
    EXPECT_TRUE(h.mock().synthetic_log().empty());
}

TEST(ActTools, ObserveTreeAndScreenshot)
{
    ToolHarness h;
    h.start();
    auto r = h.call("type_text", {{"element_token", h.token("Settings", "Username")}, {"text", "ada"},
                                     {"observe", {{"tree", true}, {"screenshot", true}}}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(r.structured["typed_characters"], 3);
    const auto& o = r.structured["observe"];
    EXPECT_EQ(o["snapshot_id"], r.structured["snapshot_id"]);
    EXPECT_FALSE(o["elements"].empty());
    EXPECT_LE(o["elements"].size(), 250u);
    EXPECT_FALSE(o["tree_text"].get<std::string>().empty());
    EXPECT_EQ(o["screenshot"]["mime_type"], "image/png");
    EXPECT_TRUE(r.has_image);
    for (const auto& row : o["elements"])
        if (row["role"] == "password_text") {
            EXPECT_FALSE(row.contains("value"));
        }
}

TEST(ActTools, ObserveErrorsNeverFailTheAct)
{
    ToolHarness h;
    h.start();
    for (int i = 0; i < 5; ++i)
        h.call("get_window_state", {{"app", "Calculator"}, {"include_screenshot", true}});
    auto r = h.call("click", {{"element_token", h.token("Calculator", "7")}, {"observe", {{"screenshot", true}}}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(r.structured["observe"]["screenshot_error"]["code"], "capture_rate_limited");
    EXPECT_FALSE(r.structured["observe"]["screenshot_error"].contains("ok"));
    EXPECT_FALSE(r.has_image);
}

TEST(ActTools, HeadlessRefusesSyntheticInputBeforeSendingAnything)
{
    ToolHarness h;
    h.start();
    auto token = h.token("Settings", "Remember me");
    struct Call {
        const char* tool;
        json args;
    };
    for (const auto& c : std::vector<Call>{
             {"click", {{"element_token", token}, {"delivery_mode", "foreground"}}},
             {"double_click", {{"element_token", token}, {"delivery_mode", "foreground"}}},
             {"right_click", {{"element_token", token}, {"delivery_mode", "foreground"}}},
             {"type_text", {{"element_token", token}, {"text", "x"}, {"delivery_mode", "foreground"}}},
             {"press_key", {{"key", "Return"}}},
             {"hotkey", {{"keys", {"ctrl", "s"}}}},
             {"scroll", {{"app", "Settings"}, {"direction", "down"}}},
             {"drag", {{"element_token", token}, {"to_token", token}}},
             {"bring_to_front", {{"app", "Settings"}}},
             {"move_cursor", {{"x", 1}, {"y", 1}, {"scope", "desktop"}}},
             {"move_cursor", {{"app", "Settings"}, {"x", 1}, {"y", 1}, {"delivery_mode", "foreground"}}},
         }) {
        auto r = h.call(c.tool, c.args);
        EXPECT_EQ(r.code(), "requires_takeover") << c.tool << ": " << r.text;
    }
    EXPECT_TRUE(h.mock().synthetic_log().empty());
    EXPECT_TRUE(h.mock().semantic_log().empty());
    auto virt = h.call("move_cursor", {{"app", "Settings"}, {"x", 5}, {"y", 6}});
    ASSERT_FALSE(virt.is_error) << virt.text;
    EXPECT_EQ(virt.structured["path"], "virtual");
    EXPECT_TRUE(h.mock().synthetic_log().empty());
}

TEST(ActTools, TakeoverClicksTypesAndChecksFocusAndOcclusion)
{
    ToolHarness h;
    h.start({{"input", "takeover"}});
    EXPECT_TRUE(h.mock().indicator_shown());
    // Settings is behind Chatter: not active, so keys are refused, and its centre is covered.
    auto user = h.token("Settings", "Username");
    auto typed = h.call("type_text", {{"element_token", user}, {"text", "ada"}, {"delivery_mode", "foreground"}});
    EXPECT_EQ(typed.code(), "focus_changed") << typed.text;
    EXPECT_EQ(typed.retry(), "safe");
    auto covered = h.call("click", {{"element_token", user}, {"delivery_mode", "foreground"}});
    EXPECT_EQ(covered.code(), "target_occluded") << covered.text;
    EXPECT_TRUE(h.mock().synthetic_log().empty());

    auto raised = h.call("bring_to_front", {{"app", "Settings"}});
    ASSERT_FALSE(raised.is_error) << raised.text;
    user = h.token("Settings", "Username");
    typed = h.call("type_text", {{"element_token", user}, {"text", "ada"}, {"delivery_mode", "foreground"}});
    ASSERT_FALSE(typed.is_error) << typed.text;
    EXPECT_EQ(typed.structured["path"], "synthetic");
    EXPECT_EQ(typed.structured["took_cursor"], true);
    EXPECT_EQ(typed.structured["typed_characters"], 3);
    std::vector<std::string> log;
    for (const auto& e : h.mock().synthetic_log())
        log.push_back(e.to_string());
    ASSERT_GE(log.size(), 5u);
    EXPECT_EQ(log[0], "raise 52428801");
    EXPECT_EQ(log[1].rfind("move ", 0), 0u);
    auto keys = h.call("hotkey", {{"keys", {"ctrl", "a"}}, {"app", "Settings"}});
    ASSERT_FALSE(keys.is_error) << keys.text;
    log.clear();
    for (const auto& e : h.mock().synthetic_log())
        log.push_back(e.to_string());
    const std::vector<std::string> tail(log.end() - 4, log.end());
    EXPECT_EQ(tail, (std::vector<std::string>{"key Control_L press", "key a press", "key a release",
                        "key Control_L release"}));
    EXPECT_EQ(h.call("press_key", {{"key", "no such key!"}}).code(), "invalid_arguments");
}

TEST(ActTools, ScrollDragAndGlide)
{
    ToolHarness h;
    h.start({{"input", "takeover"}});
    auto scroll = h.call("scroll", {{"app", "Chatter"}, {"direction", "down"}, {"amount", 2}});
    ASSERT_FALSE(scroll.is_error) << scroll.text;
    h.mock().raise(62914561);
    auto one = h.token("Calculator", "1");
    auto two = h.token("Calculator", "2");
    auto drag = h.call("drag", {{"element_token", one}, {"to_token", two}});
    ASSERT_FALSE(drag.is_error) << drag.text;
    h.mock().clear_logs();
    auto glide = h.call("move_cursor", {{"app", "Chatter"}, {"x", 100}, {"y", 100}, {"duration_ms", 50}});
    ASSERT_FALSE(glide.is_error) << glide.text;
    EXPECT_EQ(h.mock().synthetic_log().size(), 5u); // 50 ms in 10 ms steps
}

TEST(ActTools, TimedOutRead)
{
    ToolHarness h;
    h.start();
    h.mock().set_answer_time(SETTINGS, std::chrono::seconds(10));
    auto r = h.call("get_window_state", {{"app", "Settings"}});
    EXPECT_EQ(r.code(), "timed_out") << r.text;
    EXPECT_EQ(r.retry(), "unsafe");
    h.mock().set_answer_time(SETTINGS, std::chrono::milliseconds(0));
    EXPECT_FALSE(h.call("get_window_state", {{"app", "Settings"}}).is_error);
}

TEST(ActTools, Clipboard)
{
    ToolHarness h;
    h.start();
    EXPECT_FALSE(h.call("clipboard_write", {{"text", "hello"}}).is_error);
    EXPECT_EQ(h.mock().clipboard_text(), "hello");
    EXPECT_EQ(h.call("clipboard_read").code(), "capability_not_consented");
    h.start({{"clipboard_read", true}});
    auto read = h.call("clipboard_read");
    ASSERT_FALSE(read.is_error) << read.text;
    EXPECT_EQ(read.structured["text"], "hello");
    h.mock().set_clipboard_text("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
    EXPECT_EQ(h.call("clipboard_read").code(), "secure_field_refused");
    EXPECT_EQ(h.call("clipboard_write", {{"text", "password=hunter2"}}).code(), "secure_field_refused");
    EXPECT_EQ(h.mock().clipboard_text(), "ghp_abcdefghijklmnopqrstuvwxyz0123456789");
}

} // namespace

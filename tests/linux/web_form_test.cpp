// set_value and type_text on every editable kind of a web form (fixtures/web/settings-form.html)
// in Chromium, headless: number and range inputs through Value, the select by its option's
// name, check boxes and radios by click, each read back; text-like inputs, the textarea, the
// contenteditable region and the date input have no headless route in Chromium and fail saying
// so, with the takeover as escalation; the password field stays refused. Save then makes the page
// write its own confirmation from the DOM values, which the test reads: the page, not the tool,
// says what was filled. A second test fills the text kinds the way the escalation says, with a
// foreground type_text in a takeover session, and reads the confirmation again.

#include "browser_acts.h"

#include <chrono>
#include <filesystem>

namespace {

using namespace std::chrono_literals;
using nd_test::json;

class WebForm : public nd_test::BrowserActs {
protected:
    // Opens the form in "chromium" or "firefox".
    void open(const std::string& browser)
    {
        if (browser == "chromium")
            open_chromium("settings-form.html", 40, "1000,900");
        else
            open_firefox("settings-form.html", 40, "1000", "900");
        if (HasFatalFailure())
            return;
        // The document loads after the browser's frame: wait for the form's last control.
        ASSERT_TRUE(nd_test::wait_until([&] { return !find_row(read_all(m_window), "push_button", "Save").is_null(); }, 10s));
        // Gecko keeps adding rows for a while after the first ones: wait until two reads agree.
        std::string last;
        (void)nd_test::wait_until([&] {
            const auto id = read_all(m_window)["snapshot_id"].get<std::string>();
            const bool still = id == last;
            last = id;
            return still;
        }, 5s);
    }

    // One act on the row of `role` and `name`, from a fresh read; a stale token (the page changed
    // between the read and the act) is read again and tried again, as the error says to.
    nd_test::ToolReply act(const std::string& tool, const std::string& role, const std::string& name, json args)
    {
        nd_test::ToolReply r;
        for (int attempt = 0; attempt < 3; ++attempt) {
            args["element_token"] = row(role, name)["element_token"];
            r = call(tool, args);
            if (!r.is_error || r.code() != "stale_element_token")
                break;
        }
        return r;
    }

    // The row of `role` and `name` in a fresh read. Right after an act the page may still be
    // updating: read again for a moment before calling it missing (and say so); a row that stays
    // missing still fails.
    json row(const std::string& role, const std::string& name)
    {
        json r;
        int reads = 0;
        (void)nd_test::wait_until([&] { ++reads; r = find_row(read_all(m_window), role, name); return !r.is_null(); }, 3s);
        EXPECT_FALSE(r.is_null()) << role << " \"" << name << "\" is not in the read";
        if (!r.is_null() && reads > 1)
            std::printf("%s \"%s\" came into the read after %d reads\n", role.c_str(), name.c_str(), reads);
        return r;
    }

    nd_test::ToolReply set(const std::string& role, const std::string& name, const std::string& value)
    {
        return act("set_value", role, name, {{"value", value}});
    }

    void set_ok(const std::string& role, const std::string& name, const std::string& value)
    {
        auto r = set(role, name, value);
        ASSERT_FALSE(r.is_error) << role << " \"" << name << "\": " << r.text;
        EXPECT_EQ(r.s["path"], "semantic");
        EXPECT_EQ(r.s["readback"], "match") << r.text;
        EXPECT_EQ(r.s["effect"], "confirmed") << r.text;
    }

    // A kind without a headless route: an error that says so and recommends the takeover;
    // action_not_offered when the element had no route to try (nothing sent), action_failed when
    // the route was tried and did nothing.
    void no_route(const nd_test::ToolReply& r, const std::string& what, const char* code)
    {
        ASSERT_TRUE(r.is_error) << what << " was not refused: " << r.text;
        EXPECT_EQ(r.code(), code) << what << ": " << r.text;
        const auto message = r.s["error"]["message"].get<std::string>();
        EXPECT_NE(message.find("no headless route"), std::string::npos) << what << ": " << message;
        EXPECT_EQ(r.s["error"]["escalation"]["recommend"], "takeover") << what << ": " << r.text;
        std::printf("%s: %s\n", what.c_str(), message.c_str());
    }

    void click(const std::string& role, const std::string& name)
    {
        auto r = act("click", role, name, json::object());
        ASSERT_FALSE(r.is_error) << role << " \"" << name << "\": " << r.text;
    }

    // The page's status line (the page labels it with its own text).
    std::string status()
    {
        auto bar = find_row(read_all(m_window), "status_bar");
        return bar.is_null() ? "" : bar.value("name", "");
    }

    // Presses Save and waits for the page's confirmation.
    std::string save()
    {
        click("push_button", "Save");
        std::string last;
        nd_test::wait_until([&] { last = status(); return last.rfind("Saved:", 0) == 0; }, 5s);
        return last;
    }

    // The engine cuts long names (with "…"): a cut confirmation must match up to the cut.
    static void expect_saved(const std::string& got, const std::string& expected)
    {
        const std::string ellipsis = "\u2026";
        if (got.size() > 150 && got.size() > ellipsis.size() && got.compare(got.size() - ellipsis.size(), ellipsis.size(), ellipsis) == 0)
            EXPECT_EQ(expected.substr(0, got.size() - ellipsis.size()), got.substr(0, got.size() - ellipsis.size()));
        else
            EXPECT_EQ(got, expected);
    }

};

TEST_F(WebForm, ChromiumFillsEveryKindWithARouteAndNamesTheOthers)
{
    open("chromium");
    set_ok("spin_button", "Age", "42");
    set_ok("slider", "Volume", "75");
    set_ok("combo_box", "Language", "French");
    // The option's own action selects it too (click's "select").
    click("menu_item", "German");
    EXPECT_TRUE(nd_test::wait_until([&] { return has_state(row("menu_item", "German"), "selected"); }, 3s));
    set_ok("combo_box", "Language", "French");
    auto missing = set("combo_box", "Language", "Klingon");
    EXPECT_EQ(missing.code(), "invalid_arguments") << missing.text;
    click("check_box", "Newsletter");
    click("check_box", "Beta features");
    click("radio_button", "Dark");

    for (const auto& name : {"Name", "Email", "Homepage", "Search term", "Phone", "Bio", "Notes"})
        no_route(set("entry", name, "x"), std::string("chromium set_value on entry ") + name, "action_not_offered");
    no_route(act("type_text", "entry", "Name", {{"text", "x"}}), "chromium type_text on entry Name",
        "action_not_offered");
    no_route(set("date_editor", "Birthday", "1999-03-14"), "chromium set_value on the date input",
        "action_not_offered");
    // A date field's part takes Value, but Chromium ignores it: the read-back says so.
    auto month = set("spin_button", "Month Birthday", "3");
    ASSERT_TRUE(month.is_error) << month.text;
    EXPECT_EQ(month.code(), "action_failed");
    EXPECT_EQ(month.s["error"]["escalation"]["recommend"], "takeover") << month.text;

    for (const auto* tool : {"set_value", "type_text"}) {
        auto r = call(tool, {{"element_token", row("password_text", "Password")["element_token"]}, {"value", "hunter2"},
                                {"text", "hunter2"}});
        EXPECT_EQ(r.code(), "secure_field_refused") << tool << ": " << r.text;
    }

    expect_saved(save(), "Saved: name=Ann, email=, age=42, homepage=, term=, phone=, bio=Old bio, notes=Old notes, "
                      "volume=75, birthday=2000-01-01, language=fr, news=true, beta=false, theme=dark, password=empty");
}

// The escalation taken: the text kinds typed in the foreground of a takeover session.
TEST_F(WebForm, ChromiumTextKindsFillInATakeover)
{
    if (!backend().input() || !backend().watcher() || !backend().overlay())
        GTEST_SKIP() << "this X server lacks XTEST, XInput 2.1 or SHAPE";
    open("chromium");
    auto started = call("start_session", {{"apps", {"chromium"}}, {"input", "takeover"}});
    ASSERT_FALSE(started.is_error) << started.text;
    ASSERT_FALSE(call("bring_to_front", {{"window_id", m_window["window_id"]}}).is_error);
    const std::vector<std::pair<std::string, std::string>> fields = {{"Name", "Bob"}, {"Email", "bob@example.org"},
        {"Homepage", "https://example.org"}, {"Search term", "cats"}, {"Phone", "+49 30 1234"}, {"Bio", "New bio"},
        {"Notes", "New notes"}};
    for (const auto& field : fields) {
        // A name a lambda can capture (a structured binding cannot be, before C++20 in clang 16).
        const std::string& name = field.first;
        const std::string& text = field.second;
        // As the escalation says: clear the field (click, ctrl+a, BackSpace), then type into it.
        auto clicked = call("click", {{"element_token", row("entry", name)["element_token"]}, {"delivery_mode", "foreground"}});
        ASSERT_FALSE(clicked.is_error) << name << ": " << clicked.text;
        ASSERT_TRUE(nd_test::wait_until([&] { return has_state(row("entry", name), "focused"); }, 3s)) << name;
        ASSERT_FALSE(call("hotkey", {{"keys", {"ctrl", "a"}}}).is_error);
        ASSERT_FALSE(call("press_key", {{"key", "BackSpace"}}).is_error);
        auto typed = call("type_text", {{"element_token", row("entry", name)["element_token"]}, {"text", text},
                                           {"delivery_mode", "foreground"}});
        ASSERT_FALSE(typed.is_error) << name << ": " << typed.text;
    }
    set_ok("spin_button", "Age", "42");
    expect_saved(save(), "Saved: name=Bob, email=bob@example.org, age=42, homepage=https://example.org, term=cats, "
                      "phone=+49 30 1234, bio=New bio, notes=New notes, volume=50, birthday=2000-01-01, language=en, "
                      "news=false, beta=true, theme=light, password=empty");
    call("end_session");
}

// Gecko: number, range and select have routes (the select through its popup's Selection); its
// EditableText answers true on text fields and changes nothing, which the read-back catches.
TEST_F(WebForm, FirefoxFillsEveryKindWithARouteAndNamesTheOthers)
{
    if (std::system("command -v firefox-esr >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "firefox-esr is not installed";
    open("firefox");
    set_ok("spin_button", "Age", "42");
    set_ok("slider", "Volume", "75");
    set_ok("combo_box", "Language", "French");
    click("check_box", "Newsletter");
    click("check_box", "Beta features");
    click("radio_button", "Dark");
    for (const auto& name : {"Name", "Bio", "Notes"})
        no_route(set("entry", name, "x"), std::string("firefox set_value on entry ") + name, "action_failed");
    no_route(act("type_text", "entry", "Email", {{"text", "x"}}), "firefox type_text on entry Email", "action_failed");
    no_route(set("date_editor", "Birthday", "1999-03-14"), "firefox set_value on the date input", "action_failed");
    for (const auto* tool : {"set_value", "type_text"}) {
        auto r = call(tool, {{"element_token", row("password_text", "Password")["element_token"]}, {"value", "hunter2"},
                                {"text", "hunter2"}});
        EXPECT_EQ(r.code(), "secure_field_refused") << tool << ": " << r.text;
    }
    expect_saved(save(), "Saved: name=Ann, email=, age=42, homepage=, term=, phone=, bio=Old bio, notes=Old notes, "
                         "volume=75, birthday=2000-01-01, language=fr, news=true, beta=false, theme=dark, password=empty");
}

} // namespace

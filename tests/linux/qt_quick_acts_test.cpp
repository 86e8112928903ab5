// Qt Quick (Qt 5's Controls 2, run by qmlscene on a settings form of our own): a toolkit of its own
// beside Qt Widgets. Its check boxes, switches and radio buttons offer both Press (which only
// signals a click) and Toggle; a click must flip them as a person's does and leave a checked radio
// checked. Its text fields, tabs, combo box and list rows offer no headless route: each refusal
// recommends the takeover, where the same acts work. Each act is read back, and Save prints what
// the app itself holds.

#include "toolkit_acts.h"
#include "tool_test_support.h"

#include <unistd.h>

namespace nd_test {
namespace {

constexpr const char* QMLSCENE = "/usr/bin/qmlscene";

std::vector<std::string> form_argv() { return {QMLSCENE, std::string(NISH_SOURCE_DIR) + "/fixtures/qt/settings.qml"}; }

// What the status line says after "status ", or "" before a read shows it.
std::string status_of(const json& all)
{
    for (const auto& row : all["elements"])
        if (row["role"] == "label" && row.value("name", "").rfind("status ", 0) == 0)
            return row["name"].get<std::string>().substr(7);
    return "";
}

class QtQuickActs : public ToolkitActs {
protected:
    void SetUp() override
    {
        ToolkitActs::SetUp();
        if (HasFatalFailure() || IsSkipped())
            return;
        if (::access(QMLSCENE, X_OK) != 0)
            GTEST_SKIP() << "no qmlscene (scripts/setup installs it)";
        open(form_argv(), "QtQmlViewer", 25);
        ASSERT_FALSE(m_window.is_null());
    }

    // What Save makes the status line say: the app's own view of the form.
    std::string saved()
    {
        click(nth(fresh(), "push_button", "Save"), "Save");
        std::string status;
        eventually([&](const json& a) { return (status = status_of(a)) != "idle"; });
        return status;
    }
};

TEST_F(QtQuickActs, ChecksFlipAsAClickDoesAndValuesReadBack)
{
    auto all = fresh();
    EXPECT_EQ(nth(all, "check_box", "Subscribe")["actions"], json::array({"Toggle", "Press", "SetFocus"}));

    expect_click_flips(all, "check_box", "Subscribe", 0, "checked");
    expect_click_flips(fresh(), "check_box", "Dark mode", 0, "checked");
    // A checked radio button stays checked under a click (Toggle would clear it)...
    click(nth(fresh(), "radio_button", "Small"), "the checked radio");
    EXPECT_TRUE(has(nth(fresh(), "radio_button", "Small"), "checked")) << "a click cleared the checked radio";
    set_value(nth(fresh(), "slider", "Volume"), "70", "the slider");
    set_value(nth(fresh(), "spin_button", "Count"), "5", "the spin box");
    EXPECT_EQ(saved(), "|true|true|true|Free|70|5");

    // ...and another one takes the check from it.
    click(nth(fresh(), "radio_button", "Large"), "the other radio");
    EXPECT_TRUE(eventually([](const json& a) {
        return has(nth(a, "radio_button", "Large"), "checked") && !has(nth(a, "radio_button", "Small"), "checked");
    }));
    EXPECT_EQ(saved(), "|true|true|false|Free|70|5");
}

TEST_F(QtQuickActs, WhatHasNoHeadlessRouteRecommendsTheTakeover)
{
    auto all = fresh();
    expect_no_click(nth(all, "page_tab", "Advanced"), "the tab");
    expect_no_click(nth(all, "list_item", "Item 1"), "the list row");

    auto typed = call("set_value", {{"element_token", nth(all, "text", "Name")["element_token"]}, {"value", "Ada"}});
    ASSERT_TRUE(typed.is_error) << typed.text;
    EXPECT_EQ(typed.code(), "action_not_offered") << typed.text;
    EXPECT_NE(typed.text.find("Qt Quick"), std::string::npos) << typed.text;
    EXPECT_EQ(typed.s["error"]["escalation"]["recommend"], "takeover") << typed.text;

    auto picked = call("set_value", {{"element_token", nth(all, "combo_box", "Plan")["element_token"]}, {"value", "Pro"}});
    ASSERT_TRUE(picked.is_error) << picked.text;
    EXPECT_EQ(picked.code(), "action_not_offered") << picked.text;
    EXPECT_NE(picked.text.find("lists no options"), std::string::npos) << picked.text;
    EXPECT_EQ(picked.s["error"]["escalation"]["recommend"], "takeover") << picked.text;

    auto secret = call("type_text", {{"element_token", nth(all, "password_text", "")["element_token"]},
                                     {"text", "hunter2"}});
    EXPECT_EQ(secret.code(), "secure_field_refused") << secret.text;
    EXPECT_EQ(saved(), "|false|false|true|Free|30|3") << "a refused act changed the form";
}

// Qt 6.4's Quick on the same form (Qt 6 joins AT-SPI only without $AT_SPI_BUS_ADDRESS, as Linguist):
// its check boxes and radios flip by Toggle as Qt 5's do, and a slider takes set_value.
class Qt6QuickActs : public ToolkitActs {
protected:
    static constexpr const char* QMLSCENE6 = "/usr/lib/qt6/bin/qmlscene";
};

TEST_F(Qt6QuickActs, ChecksFlipAsAClickDoes)
{
    if (::access(QMLSCENE6, X_OK) != 0)
        GTEST_SKIP() << "no Qt 6 qmlscene (qmlscene-qt6; scripts/setup installs it)";
    open({"env", "-u", "AT_SPI_BUS_ADDRESS", QMLSCENE6, form_argv()[1]}, "QtQmlViewer", 25);
    ASSERT_FALSE(m_window.is_null());
    expect_click_flips(fresh(), "check_box", "Subscribe", 0, "checked");
    click(nth(fresh(), "radio_button", "Large"), "the unchecked radio");
    EXPECT_TRUE(eventually([](const json& a) {
        return has(nth(a, "radio_button", "Large"), "checked") && !has(nth(a, "radio_button", "Small"), "checked");
    }));
    set_value(nth(fresh(), "slider", "Volume"), "70", "the slider");
    EXPECT_TRUE(eventually([](const json& a) { return value_of(nth(a, "slider", "Volume")) == "70"; }));
}

// The acts refused headless above, in a takeover: typed, picked from the popup and clicked.
class QtQuickTakeover : public TakeoverAppTest {
protected:
    void SetUp() override
    {
        if (::access(QMLSCENE, X_OK) != 0)
            GTEST_SKIP() << "no qmlscene (scripts/setup installs it)";
        open_in_takeover(form_argv(), "QtQmlViewer", 25);
    }
};

TEST_F(QtQuickTakeover, ForegroundActsDoWhatHasNoHeadlessRoute)
{
    auto foreground = [&](const char* tool, const json& row, json extra = json::object()) {
        ASSERT_FALSE(row.is_null()) << tool << ": no such row";
        extra["element_token"] = row["element_token"];
        extra["delivery_mode"] = "foreground";
        auto r = call(tool, extra);
        ASSERT_FALSE(r.is_error) << tool << ": " << r.text;
    };
    auto all = read_all(m_window);
    ASSERT_NO_FATAL_FAILURE(foreground("type_text", find_row(all, "text", "Name"), {{"text", "Ada"}}));
    ASSERT_NO_FATAL_FAILURE(foreground("click", find_row(read_all(m_window), "combo_box", "Plan")));
    json pro;
    ASSERT_TRUE(wait_until([&] { return !(pro = find_row(read_all(m_window), "list_item", "Pro")).is_null(); },
                           CLICK_EFFECT)) << "the combo box's popup did not open";
    ASSERT_NO_FATAL_FAILURE(foreground("click", pro));
    ASSERT_NO_FATAL_FAILURE(foreground("click", find_row(read_all(m_window), "page_tab", "Advanced")));
    EXPECT_TRUE(wait_until([&] { return has_state(find_row(read_all(m_window), "page_tab", "Advanced"), "checked"); },
                           CLICK_EFFECT)) << "the tab did not become the current one";

    auto save = call("click", {{"element_token", find_row(read_all(m_window), "push_button", "Save")["element_token"]}});
    ASSERT_FALSE(save.is_error) << save.text;
    std::string status;
    EXPECT_TRUE(wait_until([&] { return (status = status_of(read_all(m_window))) == "Ada|false|false|true|Pro|30|3"; },
                           CLICK_EFFECT)) << "the form holds " << status;
}

} // namespace
} // namespace nd_test

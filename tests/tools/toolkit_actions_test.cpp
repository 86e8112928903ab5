// click, double_click and right_click on elements named as Chromium and Qt name their actions
// (core/model/act_actions.h): the act runs the toolkit's own action, and an element with no fitting
// action fails naming what it has.

#include "tool_harness.h"

namespace {

using nd_test::ToolHarness;
using nlohmann::json;

// A page as Chromium reports it (the default action verb, then showContextMenu) and a form as Qt
// does ("Press", "Toggle", "SetFocus", "ShowMenu", "Increase"). Added in the test, not to the
// shipped fixtures, so the mock desktop's windows stay as the other tests count them.
json toolkit_app()
{
    return json::parse(R"json({
  "app": "Toolkits", "pid": 8101,
  "templates": {"control": {"role": "push_button", "states": ["enabled", "focusable", "showing"]}},
  "windows": [{"id": 81010001, "title": "Toolkits", "frame": [900, 600, 400, 300],
    "root": {"role": "frame", "id": "toolkits.window", "name": "Toolkits", "states": ["enabled", "showing"],
      "children": [
        {"role": "document_web", "id": "page", "name": "Controls", "states": ["enabled", "showing"], "children": [
          {"use": "control", "role": "toggle_button", "id": "web.toggle", "name": "Bold",
           "actions": ["press", "showContextMenu"],
           "effects": {"press": [{"toggle": "pressed"}], "showContextMenu": [{"set_name": "Bold (menu)"}]}},
          {"use": "control", "role": "check_box", "id": "web.check", "name": "Subscribe",
           "actions": ["check", "showContextMenu"], "effects": {"check": [{"toggle": "checked"}]}},
          {"use": "control", "role": "link", "id": "web.link", "name": "Next page",
           "actions": ["jump", "showContextMenu"], "effects": {"jump": [{"set_name": "Visited"}]}},
          {"use": "control", "role": "combo_box", "id": "web.select", "name": "Size",
           "actions": ["open", "showContextMenu"], "effects": {"open": [{"add_state": "expanded"}]}},
          {"use": "control", "role": "label", "id": "web.summary_text", "name": "More",
           "actions": ["clickAncestor", "showContextMenu"],
           "effects": {"clickAncestor": [{"toggle": "expanded", "target": "page"}]}},
          {"use": "control", "role": "label", "id": "web.context_only", "name": "Caption", "actions": ["showContextMenu"]}
        ]},
        {"role": "filler", "id": "qt", "name": "Qt form", "frame": [900, 780, 400, 120], "states": ["enabled", "showing"],
         "children": [
          {"use": "control", "id": "qt.ok", "name": "Apply", "frame": [920, 800, 100, 30], "actions": ["Press", "SetFocus"],
           "effects": {"Press": [{"set_name": "Applied"}]}},
          {"use": "control", "role": "check_box", "id": "qt.check", "name": "Wrap", "actions": ["SetFocus", "Toggle"],
           "effects": {"Toggle": [{"toggle": "checked"}]}},
          {"use": "control", "role": "spin_button", "id": "qt.spin", "name": "Count",
           "actions": ["Increase", "Decrease", "SetFocus"]},
          {"use": "control", "id": "qt.menu", "name": "Tools", "actions": ["Press", "ShowMenu"],
           "effects": {"ShowMenu": [{"set_name": "Tools (menu)"}]}}
        ]}
      ]}}]
})json");
}

struct Toolkits : ::testing::Test {
    void SetUp() override
    {
        // Before the session: a session's scope is the apps of its start.
        ASSERT_TRUE(h.mock().add_app(toolkit_app())) << "the toolkit app did not load";
        h.start();
    }

    // The semantic actions the mock ran, as "<action> <key>", then forgets them.
    std::vector<std::string> ran()
    {
        std::vector<std::string> out;
        for (const auto& e : h.mock().semantic_log())
            out.push_back(e.detail + " " + e.key);
        h.mock().clear_logs();
        return out;
    }

    ToolHarness h;
};

using Ran = std::vector<std::string>;

TEST_F(Toolkits, ClickRunsChromiumsDefaultVerb)
{
    for (auto [name, expected] : {std::pair{"Bold", "press web.toggle"}, {"Subscribe", "check web.check"},
             {"Next page", "jump web.link"}, {"Size", "open web.select"}, {"More", "clickAncestor web.summary_text"}}) {
        auto r = h.call("click", {{"element_token", h.token("Toolkits", name)}});
        ASSERT_FALSE(r.is_error) << name << ": " << r.text;
        EXPECT_EQ(r.structured["path"], "semantic");
        EXPECT_EQ(ran(), Ran{expected}) << name;
    }
}

TEST_F(Toolkits, ClickRunsQtsPressAndToggleButNeverItsFocusOrStep)
{
    auto r = h.call("click", {{"element_token", h.token("Toolkits", "Apply")}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(ran(), Ran{"Press qt.ok"});
    r = h.call("click", {{"element_token", h.token("Toolkits", "Wrap")}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(ran(), Ran{"Toggle qt.check"});

    // A spin box's Increase is no click, though it is its first action.
    auto spin = h.call("click", {{"element_token", h.token("Toolkits", "Count")}});
    EXPECT_EQ(spin.code(), "action_not_offered");
    const auto message = spin.structured["error"]["message"].get<std::string>();
    EXPECT_NE(message.find("[\"Increase\", \"Decrease\", \"SetFocus\"]"), std::string::npos) << message;
    EXPECT_EQ(spin.structured["error"]["escalation"]["recommend"], "takeover");
    EXPECT_TRUE(ran().empty());
}

TEST_F(Toolkits, RightClickRunsTheContextMenuAction)
{
    auto r = h.call("right_click", {{"element_token", h.token("Toolkits", "Bold")}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(ran(), Ran{"showContextMenu web.toggle"});
    r = h.call("right_click", {{"element_token", h.token("Toolkits", "Tools")}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(ran(), Ran{"ShowMenu qt.menu"});

    auto none = h.call("right_click", {{"element_token", h.token("Toolkits", "Apply")}});
    EXPECT_EQ(none.code(), "action_not_offered");
    EXPECT_NE(none.structured["error"]["message"].get<std::string>().find("[\"Press\", \"SetFocus\"]"),
        std::string::npos);
}

TEST_F(Toolkits, AContextMenuActionAloneIsNoClick)
{
    auto r = h.call("click", {{"element_token", h.token("Toolkits", "Caption")}});
    EXPECT_EQ(r.code(), "action_not_offered");
    EXPECT_NE(r.structured["error"]["message"].get<std::string>().find("[\"showContextMenu\"]"), std::string::npos);
    EXPECT_TRUE(ran().empty());
}

TEST_F(Toolkits, DoubleClickPressesTwice)
{
    auto r = h.call("double_click", {{"element_token", h.token("Toolkits", "Bold")}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(ran(), (Ran{"press web.toggle", "press web.toggle"}));
}

TEST_F(Toolkits, ReadsShowTheToolkitsOwnNames)
{
    auto r = h.call("get_window_state", {{"app", "Toolkits"}});
    ASSERT_FALSE(r.is_error) << r.text;
    json bold;
    for (const auto& row : r.structured["elements"])
        if (row["name"] == "Bold")
            bold = row;
    ASSERT_FALSE(bold.is_null());
    EXPECT_EQ(bold["actions"], json({"press", "showContextMenu"}));
}

// The escalation stays: in a takeover a foreground click reaches the element, and the mock's window
// system runs the element's click as the same table names it (Qt's "Press").
TEST(ToolkitsTakeover, AForegroundClickPressesAQtButton)
{
    ToolHarness h;
    ASSERT_TRUE(h.mock().add_app(toolkit_app()));
    h.start({{"input", "takeover"}});
    ASSERT_FALSE(h.call("bring_to_front", {{"app", "Toolkits"}}).is_error);
    auto r = h.call("click", {{"element_token", h.token("Toolkits", "Apply")}, {"delivery_mode", "foreground"}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(r.structured["path"], "synthetic");
    EXPECT_EQ(h.token("Toolkits", "Applied").empty(), false);
}

} // namespace

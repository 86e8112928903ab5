// Headless clicks in Firefox ESR (Gecko) on fixtures/web/controls.html: the same controls and the
// same read-backs as the Chromium test (browser_acts.h). Gecko names its actions by their verb too,
// but its own: a button "press", a check box "check", a radio "select", a select "open", a summary
// "expand", an ARIA item with a click listener "click". Gecko turns its accessibility on because an
// AT-SPI client is present (GNOME_ACCESSIBILITY=1 as well, from the test desktop).

#include "browser_acts.h"

#include <algorithm>
#include <map>

namespace {

using nd_test::json;

class FirefoxActs : public nd_test::BrowserActs {
protected:
    void open(const char* page, int min_elements)
    {
        m_app_label = "firefox";
        // Gecko's select "open" and its option's "select" answer true and change nothing: the
        // popup lives in the browser's chrome, and opened here only from the keyboard (Alt+Down).
        m_select_works = false;
        open_firefox(page, min_elements);
    }
};

// Every row with actions names them (Gecko fills GetActions' names; nothing is left empty), with
// Gecko's own verbs. Also prints how long a whole read of the page takes.
TEST_F(FirefoxActs, ReadsGeckosActionNames)
{
    open("controls.html", 40);
    // Under load Gecko names some rows before it lists their actions: wait for the last ones too.
    auto all = read_with("push_button", "Save");
    all = read_with("menu_item", "Paste");
    all = read_with("tree_item", "Documents");
    std::map<std::string, std::string> first; // role "name" -> its first action
    for (const auto& row : all["elements"]) {
        if (row["actions"].empty())
            continue;
        for (const auto& a : row["actions"])
            EXPECT_NE(a.get<std::string>(), "") << row["role"] << " \"" << row["name"] << "\"";
        first[row["role"].get<std::string>() + " \"" + row["name"].get<std::string>() + "\""] = row["actions"][0];
    }
    EXPECT_EQ(first["push_button \"Save\""], "press");
    EXPECT_EQ(bold(all)["actions"][0], "press");
    EXPECT_EQ(first["check_box \"Subscribe\""], "check");
    EXPECT_EQ(first["radio_button \"Large\""], "select");
    EXPECT_EQ(first["link \"Next section\""], "jump");
    EXPECT_EQ(first["combo_box \"Size\""], "open");
    EXPECT_EQ(first["push_button \"More options\""], "expand");
    EXPECT_EQ(first["menu_item \"Paste\""], "click");
    EXPECT_EQ(first["menu_item \"Two\""], "select");
    EXPECT_EQ(first["page_tab \"Grid view\""], "press");
    EXPECT_EQ(first["tree_item \"Documents\""], "click");
    EXPECT_EQ(first["entry \"Notes\""], "click");
    // The browser's own chrome: a browser tab switches.
    EXPECT_EQ(first["page_tab \"Controls fixture\""], "switch");
    for (const auto& [row, action] : first)
        std::printf("firefox action: %s -> %s\n", row.c_str(), action.c_str());
    EXPECT_EQ(status_of(all), "Ready") << "a text leaf's text is its value";
    EXPECT_GT(median_read_ms(7), 0.0);
}

// Gecko keeps each closed popup of the window as an unnamed, empty, hidden `menu`: the text of a
// whole read has no line for them and its header counts them, while the rows keep them, each at
// its own index (docs/tokens.md, "Full reads: hidden shells").
TEST_F(FirefoxActs, ClosedPopupsHaveNoLineInTheText)
{
    open("controls.html", 40);
    read_with("push_button", "Save");
    auto r = call("get_window_state", {{"window_id", m_window["window_id"]}, {"max_elements", 5000}, {"max_depth", 200}});
    ASSERT_FALSE(r.is_error) << r.text;
    const auto& rows = r.s["elements"];
    int shells = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        EXPECT_EQ(row["element_index"], i) << "a whole read's elements[i] is element i";
        const auto line = "[" + std::to_string(i) + "] ";
        const bool hidden = std::find(row["states"].begin(), row["states"].end(), "showing") == row["states"].end();
        if (row["role"] == "menu" && row["name"] == "" && row["child_count"] == 0 && hidden) {
            ++shells;
            EXPECT_EQ(r.text.find(line), std::string::npos) << line << "has a line";
        } else if (row["name"] != "" || row["child_count"] != 0) {
            EXPECT_NE(r.text.find(line), std::string::npos) << line << row["role"] << " has no line";
        }
    }
    EXPECT_GT(shells, 5) << "Gecko's closed popups";
    EXPECT_NE(r.text.find(" hidden, empty or repeated not listed)"), std::string::npos) << r.text.substr(0, 200);
}

TEST_F(FirefoxActs, HeadlessClickOnEachControlChangesThePage)
{
    open("controls.html", 40);
    click_every_role();
}

TEST_F(FirefoxActs, ClickOnAnElementWithoutActionsFailsAndRecommendsTakeover)
{
    open("controls.html", 40);
    click_without_action_fails();
}

} // namespace

// Headless clicks on one control of each interactive role that GTK3, GTK4, Qt5 and Qt 6 expose, in
// apps from Debian: gtk3-widget-factory (gtk-3-examples), gtk4-widget-factory (gtk-4-examples),
// Qt5 widget examples (qtbase5-examples) and Qt Linguist (linguist-qt6). Every click is read back from a
// fresh read (a state, a value, rows that appear), from list_windows (a dialog) or, for a link,
// from the program the app hands the link to. A role the toolkit gives no action must fail with
// the takeover escalation and change nothing. docs/linux-atspi.md ("Clicks per toolkit") sums up
// what these tests measure.

#include "toolkit_acts.h"

#include <unistd.h>

namespace {

using nd_test::CLICK_EFFECT;
using nd_test::json;
using nd_test::LinkCatcher;
using nd_test::ToolkitActs;

// ---- GTK3 --------------------------------------------------------------------------------------

class Gtk3Acts : public ToolkitActs {};

TEST_F(Gtk3Acts, HeadlessClickOnEachRoleChangesTheWidget)
{
    LinkCatcher links;
    open({"gtk3-widget-factory"}, "gtk3-widget-factory", 200, links.env());
    ASSERT_FALSE(m_window.is_null());
    auto all = fresh();

    // The first page's buttons and boxes: the insensitive copies are left out (rows and nth take enabled rows only).
    expect_click_flips(all, "toggle_button", "togglebutton", 0, "checked");
    expect_click_flips(all, "check_box", "checkbutton", 0, "checked");
    // The switch: a toggle button without a name whose action GTK3 calls "Toggle".
    expect_click_flips(fresh(), "toggle_button", "", 0, "checked", [](const json& row) {
        return row["actions"] == json::array({"Toggle"});
    });

    // A radio of a group: the one that was checked lets go.
    all = fresh();
    auto radios = rows(all, "radio_button", "radiobutton");
    ASSERT_EQ(radios.size(), 3u);
    ASSERT_TRUE(has_state(radios[2], "checked"));
    click(radios[0], "the radio");
    EXPECT_TRUE(eventually([&](const json& a) {
        auto now = rows(a, "radio_button", "radiobutton");
        return now.size() == 3 && has_state(now[0], "checked") && !has_state(now[2], "checked");
    }));

    // A notebook's tab has no action: click selects it in its tab list.
    all = fresh();
    ASSERT_TRUE(has(nth(all, "page_tab", "page 1"), "selected"));
    click(nth(all, "page_tab", "page 2"), "the page tab");
    EXPECT_TRUE(eventually([](const json& a) {
        return has(nth(a, "page_tab", "page 2"), "selected") &&
               !has(nth(a, "page_tab", "page 1"), "selected");
    }));

    // A combo box: "Press" pops its menu up (its items show), and an item's "Click" picks it (the
    // combo box is then named by it: two combo boxes read "Middle").
    all = fresh();
    EXPECT_EQ(count(all, "combo_box", "Middle"), 1);
    auto showing_item = [](const json& a) {
        return rows(a, "menu_item", "Left", [](const json& r) { return has_state(r, "showing"); });
    };
    ASSERT_TRUE(showing_item(all).empty()) << "a combo box's menu is open before the click";
    click(nth(all, "combo_box", "Left"), "the combo box");
    EXPECT_TRUE(eventually([&](const json& a) { return showing_item(a).size() == 1; })) << "its menu did not open";
    all = fresh();
    click(nth(all, "menu_item", "Middle", 0, [](const json& r) { return has_state(r, "showing"); }), "the menu item");
    EXPECT_TRUE(eventually([](const json& a) { return count(a, "combo_box", "Middle") == 2; }))
        << "the combo box did not take the item";

    // GTK3 reads the link button as a push button.
    spin_link_and_font(links, "push_button");
}

// zenity's form is a GTK3 grid, which lists each field before its label: the fields read under
// their labels' names (docs/tokens.md, "Labels a person reads"), and take a value by that name.
TEST_F(Gtk3Acts, AFormsFieldsReadUnderTheirLabels)
{
    open({"zenity", "--forms", "--text=Account", "--add-entry=Name", "--add-password=Secret", "--add-combo=Plan",
             "--combo-values=Free|Pro"},
        "zenity", 8);
    ASSERT_FALSE(m_window.is_null());
    auto all = fresh();
    EXPECT_FALSE(nth(all, "text", "Name").is_null()) << all.dump();
    EXPECT_FALSE(nth(all, "password_text", "Secret").is_null());
    EXPECT_FALSE(nth(all, "combo_box", "Plan").is_null());
    set_value(nth(all, "text", "Name"), "Ada", "the Name field");
    EXPECT_TRUE(eventually([](const json& a) { return value_of(nth(a, "text", "Name")) == "Ada"; }));
    // The combo box takes an option from its menu item's own action and then shows it (its name):
    // the popup's Selection.SelectChild only marks the item selected, which chose nothing.
    set_value(nth(all, "combo_box", "Plan"), "Pro", "the Plan combo box");
    EXPECT_TRUE(eventually([](const json& a) { return !nth(a, "combo_box", "Pro").is_null(); }))
        << "the combo box does not show the option";
    // OK closes the form: the window going is the click's effect, not a reason to take over.
    m_may_exit = true;
    auto ok = call("click", {{"element_token", nth(fresh(), "push_button", "OK")["element_token"]}});
    ASSERT_FALSE(ok.is_error) << ok.text;
    EXPECT_EQ(ok.s["effect"], "confirmed") << ok.text;
    EXPECT_EQ(ok.s["window_closed"], true) << ok.text;
    EXPECT_TRUE(ok.s["escalation"].is_null()) << ok.text;
}

// What a zenity dialog printed: its answer, written to a file of the test's own.
struct DialogOutput {
    std::string path = testing::TempDir() + "nish_zenity_" + std::to_string(::getpid()) + ".out";
    ~DialogOutput() { std::remove(path.c_str()); }
    std::vector<std::string> argv(const std::string& dialog) const { return {"sh", "-c", "exec " + dialog + " > \"$0\"", path}; }
    std::string text() const
    {
        std::ifstream in(path);
        std::stringstream all;
        all << in.rdbuf();
        return all.str();
    }
};

// A person's click on a list's row selects it; GTK3's tree cells offer "activate", which is a double
// click's (row-activated: zenity answered with nothing chosen and closed), and GTK3's text field
// offers "activate" alone, its Enter key (zenity's entry dialog answered OK). The click now selects
// the row (through the table's rows: GTK3 takes SelectChild only from one-column views) and
// refuses the field's Enter, saying why; the dialogs stay open until their OK.
TEST_F(Gtk3Acts, AClickSelectsAListsRowAndPressesNoTextFieldsEnter)
{
    m_may_exit = true;
    {
        DialogOutput out;
        open(out.argv("zenity --list --title=Pick --column=Name --column=Size alpha 1 beta 2 gamma 3"), "zenity", 10);
        ASSERT_FALSE(m_window.is_null());
        click(nth(fresh(), "table_cell", "beta"), "the list's cell");
        ASSERT_TRUE(m_app->running()) << "the click answered the dialog";
        EXPECT_TRUE(eventually([](const json& a) { return has(nth(a, "table_cell", "beta"), "selected"); }))
            << "the row was not selected";
        EXPECT_TRUE(has(nth(fresh(), "table_cell", "2"), "selected")) << "the row's other cell";
        EXPECT_FALSE(has(nth(fresh(), "table_cell", "alpha"), "selected"));
        auto ok = call("click", {{"element_token", nth(fresh(), "push_button", "OK")["element_token"]}});
        ASSERT_FALSE(ok.is_error) << ok.text;
        EXPECT_TRUE(nd_test::wait_until([&] { return !m_app->running(); }, CLICK_EFFECT)) << "OK did not close the dialog";
        EXPECT_EQ(out.text(), "beta\n");
    }
    {
        DialogOutput out;
        open(out.argv("zenity --entry --title=Ask --text=Name --entry-text=Ada"), "zenity", 5);
        ASSERT_FALSE(m_window.is_null());
        const auto field = nth(fresh(), "text", "Name");
        ASSERT_FALSE(field.is_null()) << fresh().dump();
        for (const char* act : {"click", "double_click"}) {
            auto r = call(act, {{"element_token", field["element_token"]}});
            ASSERT_TRUE(r.is_error) << act << ": " << r.text;
            EXPECT_EQ(r.code(), "action_not_offered") << r.text;
            EXPECT_NE(r.text.find("Enter key"), std::string::npos) << r.text;
            EXPECT_EQ(r.s["error"]["escalation"]["recommend"], "takeover") << r.text;
            ASSERT_TRUE(m_app->running()) << act << " answered the dialog";
        }
        auto typed = call("type_text", {{"element_token", field["element_token"]}, {"text", " Lovelace"}});
        ASSERT_FALSE(typed.is_error) << typed.text;
        auto ok = call("click", {{"element_token", nth(fresh(), "push_button", "OK")["element_token"]}});
        ASSERT_FALSE(ok.is_error) << ok.text;
        EXPECT_TRUE(nd_test::wait_until([&] { return !m_app->running(); }, CLICK_EFFECT)) << "OK did not close the dialog";
        EXPECT_EQ(out.text(), "Ada Lovelace\n");
    }
}

// A line break ending the text typed headless into GTK's entry is the Enter a person presses after
// typing: the field's "activate" runs after the text goes in, and zenity answers with it. Before,
// the line break went to the entry as text and the dialog waited for its OK.
TEST_F(Gtk3Acts, ALineBreakEndingTypedTextIsTheFieldsEnter)
{
    m_may_exit = true;
    DialogOutput out;
    open(out.argv("zenity --entry --title=Ask --text=Name"), "zenity", 5);
    ASSERT_FALSE(m_window.is_null());
    const auto field = nth(fresh(), "text", "Name");
    ASSERT_FALSE(field.is_null()) << fresh().dump();
    auto typed = call("type_text", {{"element_token", field["element_token"]}, {"text", "Ada Lovelace\n"}});
    ASSERT_FALSE(typed.is_error) << typed.text;
    EXPECT_EQ(typed.s["path"], "semantic");
    EXPECT_EQ(typed.s["typed_characters"], 13);
    EXPECT_TRUE(nd_test::wait_until([&] { return !m_app->running(); }, CLICK_EFFECT)) << "the Enter did not answer the dialog";
    EXPECT_EQ(out.text(), "Ada Lovelace\n");
}

// A person's click on a row's label selects the row (fixtures/apps/list_rows.py, a GTK3 list box):
// the label, which only shows, passes the click to the row that holds it (act_holder). Before, the
// click answered "no action for click".
TEST_F(Gtk3Acts, AClickOnARowsLabelSelectsTheRow)
{
    if (!nd_test::PythonFixture::available())
        GTEST_SKIP() << "no /usr/bin/python3 for the GTK3 fixture";
    open({"/usr/bin/python3", std::string(NISH_SOURCE_DIR) + "/fixtures/apps/list_rows.py"}, "list_rows.py", 8);
    ASSERT_FALSE(m_window.is_null());
    auto all = fresh();
    // The first row takes the focus, and GTK selects it with the focus.
    ASSERT_TRUE(nth(all, "label", "Selected Cobalt").is_null()) << all.dump();
    // GTK leaves the rows unnamed: each reads as the label it holds (docs/tokens.md, "Labels").
    EXPECT_FALSE(nth(all, "list_item", "Cobalt").is_null()) << all.dump();
    click(nth(all, "label", "Cobalt"), "the row's label");
    EXPECT_TRUE(eventually([](const json& a) { return !nth(a, "label", "Selected Cobalt").is_null(); }))
        << "the row was not selected";
    // The label that only shows and holds nothing that acts is still refused, with the takeover.
    auto r = call("click", {{"element_token", nth(fresh(), "label", "Selected Cobalt")["element_token"]}});
    ASSERT_TRUE(r.is_error) << r.text;
    EXPECT_EQ(r.code(), "action_not_offered") << r.text;
}

// ---- GTK4 --------------------------------------------------------------------------------------

class Gtk4Acts : public ToolkitActs {
protected:
    // GTK 4.8's combo box has no action; the toggle button inside it does. The `n`th combo box
    // without an entry, and that button.
    static json plain_combo(const json& all, std::size_t n)
    {
        auto combos = rows(all, "combo_box", "", [&](const json& r) { return inside(all, r, "text").is_null(); });
        return n < combos.size() ? combos[n] : json();
    }
};

TEST_F(Gtk4Acts, HeadlessClickOnEachRoleWithAnActionChangesTheWidget)
{
    LinkCatcher links;
    open({"gtk4-widget-factory"}, "gtk4-widget-factory", 500, links.env());
    ASSERT_FALSE(m_window.is_null());
    auto all = fresh();

    // A toggle button reads as a push button that is pressed or not ("Click").
    auto toggles = rows(all, "push_button", "togglebutton");
    ASSERT_EQ(toggles.size(), 2u);
    ASSERT_FALSE(has_state(toggles[0], "pressed"));
    ASSERT_TRUE(has_state(toggles[1], "pressed"));
    click(toggles[0], "the toggle button");
    EXPECT_TRUE(eventually([](const json& a) { return has(nth(a, "push_button", "togglebutton"), "pressed"); }));

    // A notebook's tabs have no action: click selects the second one in its tab list. GTK4 names
    // each tab "Tab"; they read as the labels inside them (docs/tokens.md).
    all = fresh();
    auto first_tab = nth(all, "page_tab", "");
    ASSERT_FALSE(first_tab.is_null());
    auto tabs = rows(all, "page_tab", "", [&](const json& r) { return r["parent_index"] == first_tab["parent_index"]; });
    ASSERT_GE(tabs.size(), 3u);
    EXPECT_EQ(count(all, "page_tab", "Tab"), 0) << "a tab reads as GTK's placeholder, not its label";
    const std::string first_name = tabs[0]["name"], second_name = tabs[1]["name"];
    EXPECT_NE(first_name, second_name);
    ASSERT_TRUE(has_state(tabs[0], "selected"));
    click(tabs[1], "the page tab");
    EXPECT_TRUE(eventually([&](const json& a) {
        return has(nth(a, "page_tab", second_name), "selected") && !has(nth(a, "page_tab", first_name), "selected");
    }));

    // The combo box's own button pops it up: the button reads pressed, and the popover's rows join
    // the combo box.
    all = fresh();
    auto combo = plain_combo(all, 0);
    ASSERT_FALSE(combo.is_null());
    const auto rows_before = combo["descendant_count"].get<int>();
    // The combo box has no action: a click on it lands on its button, as a person's does (act_inner).
    ASSERT_TRUE(combo["actions"].empty()) << combo.dump();
    click(combo, "the combo box");
    EXPECT_TRUE(eventually([&](const json& a) {
        auto now = plain_combo(a, 0);
        return !now.is_null() && now["descendant_count"].get<int>() > rows_before &&
               has(inside(a, now, "push_button"), "pressed");
    })) << "the combo box did not open";

    // GTK4 reads it as a link.
    spin_link_and_font(links, "link");
}

// GTK 4.8 gives a radio button, a menu bar's item and a combo box the Action interface with no
// action in it (its check button too: apps_linux_test); a label and the window list only their
// widget's commands ("clipboard.copy", "win.statusbar"), which a click must not run. A click (and
// set_value on the combo box, whose click its button takes) fails, recommends a takeover and
// changes nothing.
TEST_F(Gtk4Acts, RolesWithoutAnActionFailCleanlyAndRecommendTakeover)
{
    open({"gtk4-widget-factory"}, "gtk4-widget-factory", 500);
    ASSERT_FALSE(m_window.is_null());
    auto all = fresh();
    auto no_action = [](const json& r) { return r["actions"].empty(); };

    auto radios = rows(all, "check_box", "radiobutton", no_action);
    ASSERT_GE(radios.size(), 2u);
    ASSERT_FALSE(has_state(radios[1], "checked"));
    expect_no_click(radios[1], "the radio");

    all = fresh();
    auto file = rows(all, "menu_item", "File", no_action);
    ASSERT_EQ(file.size(), 1u);
    expect_no_click(file[0], "the menu bar's item");

    all = fresh();
    auto combo = plain_combo(all, 0);
    ASSERT_FALSE(combo.is_null());
    ASSERT_TRUE(combo["actions"].empty());
    // It does not list its options (GTK4 makes them while its popup is open, unnamed): set_value
    // says so with the takeover, not that the value is none of them.
    auto pick = call("set_value", {{"element_token", combo["element_token"]}, {"value", "Two"}});
    ASSERT_TRUE(pick.is_error) << pick.text;
    EXPECT_EQ(pick.code(), "action_not_offered") << pick.text;
    EXPECT_NE(pick.text.find("lists no options"), std::string::npos) << pick.text;
    EXPECT_EQ(pick.s["error"]["escalation"]["recommend"], "takeover") << pick.text;

    // Before the act table knew these names, the label's click copied it and the window's showed
    // the status bar (rows more).
    all = fresh();
    auto label = nth(all, "label", "Title 1");
    ASSERT_FALSE(label.is_null());
    ASSERT_EQ(label["actions"][0], "clipboard.copy");
    expect_no_click(label, "the label");
    const auto total = all["elements"].size();
    ASSERT_EQ(all["elements"][0]["actions"][0], "win.statusbar");
    expect_no_click(all["elements"][0], "the window");

    // A list box's row is selectable but GTK 4.8 selects nothing through its interfaces: the click's
    // select fails, recommending the takeover's click (before, it failed with no escalation).
    all = fresh();
    auto row_label = nth(all, "label", "Row 7");
    ASSERT_FALSE(row_label.is_null());
    const auto box = row_label["parent_index"].get<std::size_t>();
    const auto& row = all["elements"][all["elements"][box]["parent_index"].get<std::size_t>()];
    ASSERT_EQ(row["role"], "list_item") << row.dump();
    ASSERT_TRUE(has_state(row, "selectable") && !has_state(row, "selected")) << row.dump();
    auto selected = call("click", {{"element_token", row["element_token"]}});
    ASSERT_TRUE(selected.is_error) << selected.text;
    EXPECT_EQ(selected.code(), "action_failed") << selected.text;
    EXPECT_EQ(selected.s["error"]["escalation"]["recommend"], "takeover") << selected.text;

    all = fresh();
    EXPECT_EQ(all["elements"].size(), total) << "the window changed";
    EXPECT_FALSE(has(nth(all, "check_box", "radiobutton", 1, no_action), "checked"));
    EXPECT_EQ(plain_combo(all, 0)["descendant_count"], combo["descendant_count"]) << "the combo box opened";
    EXPECT_FALSE(has(inside(all, plain_combo(all, 0), "push_button"), "pressed"));
}

// ---- Qt5 ---------------------------------------------------------------------------------------

class Qt5Acts : public ToolkitActs {};

// The styles example: check boxes, radios, a checkable push button (a check box to AT-SPI), a tab
// bar, a spin box, a slider and a combo box. Qt names the actions "Toggle" and "Press".
TEST_F(Qt5Acts, StylesExampleTakesAHeadlessClickOnEachRole)
{
    open({nd_test::qt5_example("widgets/widgets/styles/styles")}, "styles", 100);
    ASSERT_FALSE(m_window.is_null());
    auto all = fresh();

    auto slider = nth(all, "slider", "");
    EXPECT_EQ(value_of(slider), "40");
    set_value(slider, "70", "the slider");
    auto spin = nth(all, "spin_button", "");
    EXPECT_EQ(value_of(spin), "50");
    set_value(spin, "42", "the spin box");
    std::string spun, slid;
    EXPECT_TRUE(eventually([&](const json& a) {
        spun = value_of(nth(a, "spin_button", ""));
        slid = value_of(nth(a, "slider", ""));
        return spun == "42" && slid == "70";
    })) << "the spin box reads " << spun << ", the slider " << slid;

    all = fresh();
    expect_click_flips(all, "check_box", "Use style's standard palette", 0, "checked");
    expect_click_flips(fresh(), "check_box", "Toggle Push Button", 0, "checked");

    all = fresh();
    ASSERT_TRUE(has(nth(all, "radio_button", "Radio button 1"), "checked"));
    click(nth(all, "radio_button", "Radio button 2"), "the radio");
    EXPECT_TRUE(eventually([](const json& a) {
        return has(nth(a, "radio_button", "Radio button 2"), "checked") &&
               !has(nth(a, "radio_button", "Radio button 1"), "checked");
    }));

    // Qt's tabs say nothing of being selected; the page they show does: its text edit shows.
    auto poem_shows = [](const json& a) {
        return !rows(a, "text", "", [](const json& r) {
            return r.value("value", "").rfind("Twinkle", 0) == 0 && has_state(r, "showing");
        }).empty();
    };
    all = fresh();
    ASSERT_FALSE(poem_shows(all));
    click(nth(all, "page_tab", "Text Edit"), "the tab");
    EXPECT_TRUE(eventually(poem_shows)) << "the Text Edit page did not show";

    // "Press" pops the list up: it takes the focus on the current item. Last: the popup holds it.
    auto focused_item = [](const json& a) {
        return rows(a, "list_item", "", [](const json& r) { return has_state(r, "focused"); });
    };
    all = fresh();
    ASSERT_TRUE(focused_item(all).empty());
    auto combo = nth(all, "combo_box", "");
    click(combo, "the combo box");
    EXPECT_TRUE(eventually([&](const json& a) {
        auto items = focused_item(a);
        return items.size() == 1 && items[0]["name"] == combo["name"];
    })) << "the combo box's list did not open";
}

// The menus example: a menu bar's entry names only "ShowMenu", which opens its own menu; the
// menu's items "Press", and the window's label says which one ran.
// Qt's combo box takes no option headless: its popup list selects an item (Selection, the item's
// Toggle) and the combo box keeps showing its choice. set_value says so and recommends a takeover
// rather than confirming a choice not made; the option it shows reads back as its value.
TEST_F(Qt5Acts, AComboBoxThatKeepsItsChoiceIsNotReportedAsSet)
{
    open({nd_test::qt5_example("widgets/widgets/lineedits/lineedits")}, "lineedits", 30);
    ASSERT_FALSE(m_window.is_null());
    auto all = fresh();
    auto combo = nth(all, "combo_box", "Normal");
    ASSERT_FALSE(combo.is_null()) << all.dump();
    auto r = call("set_value", {{"element_token", combo["element_token"]}, {"value", "Password"}});
    ASSERT_TRUE(r.is_error) << r.text;
    EXPECT_EQ(r.code(), "action_failed") << r.text;
    EXPECT_EQ(r.s["error"]["escalation"]["recommend"], "takeover") << r.text;
    EXPECT_NE(r.text.find("still shows \"Normal\""), std::string::npos) << r.text;
    all = fresh();
    EXPECT_FALSE(nth(all, "combo_box", "Normal").is_null()) << "the combo box changed after all";
    auto same = call("set_value", {{"element_token", nth(all, "combo_box", "Normal")["element_token"]}, {"value", "Normal"}});
    ASSERT_FALSE(same.is_error) << same.text;
    EXPECT_EQ(same.s["readback"], "match") << same.text;
}

TEST_F(Qt5Acts, MenusExampleOpensAMenuAndRunsAnItem)
{
    open({nd_test::qt5_example("widgets/mainwindows/menus/menus")}, "menus", 30);
    ASSERT_FALSE(m_window.is_null());
    auto all = fresh();
    auto file = nth(all, "menu_item", "File");
    ASSERT_EQ(file["actions"], json::array({"ShowMenu"}));
    ASSERT_FALSE(has(inside(all, file, "popup_menu"), "showing"));
    click(file, "the menu bar's entry");
    EXPECT_TRUE(eventually([](const json& a) { return has(inside(a, nth(a, "menu_item", "File"), "popup_menu"), "showing"); }))
        << "the File menu did not open";

    click(nth(fresh(), "menu_item", "New"), "the menu item");
    EXPECT_TRUE(eventually([](const json& a) { return !nth(a, "label", "Invoked File|New").is_null(); }))
        << "the label does not say that File > New ran";
}

// A slider's value set after another act reads back in the same driver's reads: its warm reads
// hear Qt's value change (Qt 5 sends it only to a listener of property-change:accessible-value).
TEST_F(Qt5Acts, SliderValueSetAfterAnotherActReadsBack)
{
    open({nd_test::qt5_example("widgets/widgets/styles/styles")}, "styles", 100);
    ASSERT_FALSE(m_window.is_null());
    auto all = fresh();
    set_value(nth(all, "spin_button", ""), "42", "the spin box");
    set_value(nth(all, "slider", ""), "70", "the slider");
    std::string slid;
    EXPECT_TRUE(eventually([&](const json& a) { slid = value_of(nth(a, "slider", "")); return slid == "70"; }))
        << "the slider reads " << slid;
    // A value beyond its range is clamped by Qt; the error says so rather than "did not take it".
    auto beyond = call("set_value", {{"element_token", nth(fresh(), "slider", "")["element_token"]}, {"value", "1000"}});
    ASSERT_TRUE(beyond.is_error) << beyond.text;
    EXPECT_EQ(beyond.code(), "action_failed") << beyond.text;
    EXPECT_NE(beyond.text.find("outside its range"), std::string::npos) << beyond.text;
}

// The standard dialogs example: a push button that opens a dialog, and the pages of a tool box
// (push buttons that show their page).
TEST_F(Qt5Acts, StandardDialogsOpenFromAHeadlessClick)
{
    open({nd_test::qt5_example("widgets/dialogs/standarddialogs/standarddialogs")}, "standarddialogs", 40);
    ASSERT_FALSE(m_window.is_null());
    auto all = fresh();

    auto color_button = [](const json& a) { return nth(a, "push_button", "QColorDialog::getColor()"); };
    ASSERT_FALSE(has(color_button(all), "showing"));
    click(nth(all, "push_button", "Color Dialog"), "the tool box's page");
    EXPECT_TRUE(eventually([&](const json& a) { return has(color_button(a), "showing"); }))
        << "the Color Dialog page did not show";

    EXPECT_FALSE(shows_window("QInputDialog::getInt()"));
    click(nth(fresh(), "push_button", "QInputDialog::getInt()"), "the push button");
    EXPECT_TRUE(nd_test::wait_until([&] { return shows_window("QInputDialog::getInt()"); }, CLICK_EFFECT))
        << "no input dialog";
}

// Qt makes a tree view's cells anew, under new object paths, each time they are asked for: their
// keys name where they sit and what they show (positional keys, atspi_message.h), so reading the
// unchanged view again keeps its snapshot id, and a token from a read acts on its cell. Before,
// every read of such a window was a new structure and every act on it stale_element_token.
TEST_F(Qt5Acts, ATreeViewsCellsKeepTheirTokensFromReadToRead)
{
    open({nd_test::qt5_example("widgets/itemviews/editabletreemodel/editabletreemodel")}, "editabletreemodel", 20);
    ASSERT_FALSE(m_window.is_null());
    auto all = fresh();
    const auto first = all["snapshot_id"];
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(fresh()["snapshot_id"], first) << "read " << i << " of an unchanged tree view is a new structure";
    const auto cell = nth(all, "table_cell", "Getting Started");
    ASSERT_FALSE(cell.is_null());
    EXPECT_TRUE(cell.contains("frame")) << cell.dump();
    EXPECT_FALSE(has(cell, "selected"));
    click(cell, "the tree view's cell");
    EXPECT_TRUE(eventually([](const json& a) { return has(nth(a, "table_cell", "Getting Started"), "selected"); }))
        << "the cell was not selected";
}

// ---- Qt 6 --------------------------------------------------------------------------------------

// Qt Linguist on a copy of fixtures/qt/notes.ts, with settings of its own (it restores its last
// layout otherwise). Started without $AT_SPI_BUS_ADDRESS, which keeps Qt 6.4 off the AT-SPI bus
// (docs/linux-atspi.md, "Connecting"): it asks the session bus instead.
class Qt6Acts : public ToolkitActs {
protected:
    void open_linguist()
    {
        if (::access(LINGUIST, X_OK) != 0)
            GTEST_SKIP() << "no Qt 6 Linguist (linguist-qt6; scripts/setup installs it)";
        m_dir = std::filesystem::temp_directory_path() / ("nish-qt6-" + std::to_string(::getpid()));
        std::filesystem::create_directories(m_dir / "config");
        std::filesystem::copy_file(std::string(NISH_SOURCE_DIR) + "/fixtures/qt/notes.ts", m_dir / "notes.ts",
            std::filesystem::copy_options::overwrite_existing);
        open({"env", "-u", "AT_SPI_BUS_ADDRESS", LINGUIST, (m_dir / "notes.ts").string()}, "Linguist", 100,
            {"XDG_CONFIG_HOME=" + (m_dir / "config").string()});
    }
    void TearDown() override
    {
        ToolkitActs::TearDown();
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
    }
    static constexpr const char* LINGUIST = "/usr/lib/qt6/bin/linguist";
    std::filesystem::path m_dir;
};

// Qt Linguist (Qt 6) on a translation file of two contexts: its trees' cells read by what they show
// (context names of a class name's shape included), its fields named by the labels of their boxes,
// and headless acts on each kind it has: a tool bar button, a text field, a tree's cell.
TEST_F(Qt6Acts, LinguistReadsByWhatItShowsAndTakesHeadlessActs)
{
    open_linguist();
    if (IsSkipped())
        return;
    ASSERT_FALSE(m_window.is_null());
    auto all = fresh();
    for (const char* context : {"MainWindow", "SettingsDialog"})
        EXPECT_FALSE(nth(all, "table_cell", context).is_null()) << "no cell names the context " << context;
    EXPECT_FALSE(nth(all, "table_cell", "Save file").is_null());
    const std::string translation = "Translation to Deutsch (Deutschland)";
    const std::string source = "Source text";
    EXPECT_EQ(value_of(nth(all, "text", source)), "Open file");
    EXPECT_EQ(value_of(nth(all, "text", translation)), "Datei öffnen");
    const auto first = all["snapshot_id"];
    EXPECT_EQ(fresh()["snapshot_id"], first) << "a read of the unchanged window is a new structure";

    click(nth(all, "push_button", "Next"), "the tool bar's Next");
    EXPECT_TRUE(eventually([&](const json& a) { return value_of(nth(a, "text", source)) == "Save file"; }))
        << "Next did not move to the next string";

    all = fresh();
    EXPECT_EQ(value_of(nth(all, "text", translation)), "");
    set_value(nth(all, "text", translation), "Datei speichern", "the translation");
    EXPECT_TRUE(eventually([&](const json& a) { return value_of(nth(a, "text", translation)) == "Datei speichern"; }))
        << "the translation reads " << value_of(nth(fresh(), "text", translation));

    // A cell's only action, Qt's "Toggle", selects its row: Qt offers no headless way to make it
    // the view's current row, which is what Linguist follows (docs/linux-atspi.md).
    all = fresh();
    ASSERT_FALSE(has(nth(all, "table_cell", "SettingsDialog"), "selected"));
    click(nth(all, "table_cell", "SettingsDialog"), "the context's cell");
    EXPECT_TRUE(eventually([](const json& a) {
        return has(nth(a, "table_cell", "SettingsDialog"), "selected") && !has(nth(a, "table_cell", "MainWindow"), "selected");
    })) << "the SettingsDialog row was not selected";
}

} // namespace

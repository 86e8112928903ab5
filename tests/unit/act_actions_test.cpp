// The act table (core/model/act_actions.h): which of an element's own actions each act runs, for the
// names GTK3, GTK4, Qt, Chromium and Gecko give them.

#include "core/model/act_actions.h"
#include "core/model/element.h"
#include "tree_fixture.h"

#include <gtest/gtest.h>

namespace {

using nd_core::ActKind;
using nd_core::choose_action;
using Names = std::vector<std::string>;

std::string chosen(ActKind kind, const Names& actions)
{
    auto c = choose_action(kind, actions);
    if (!c)
        return "-";
    return c->repeat == 1 ? c->action : c->action + " x" + std::to_string(c->repeat);
}

TEST(ActActions, NamesCompareWithoutCaseAndWithSeparatorsAlike)
{
    EXPECT_TRUE(nd_core::same_action_name("click-ancestor", "Click Ancestor"));
    EXPECT_TRUE(nd_core::same_action_name("click_ancestor", "click ancestor"));
    EXPECT_TRUE(nd_core::same_action_name("ShowMenu", "showmenu"));
    EXPECT_FALSE(nd_core::same_action_name("showmenu", "show_menu_x"));
    EXPECT_EQ(nd_core::normalize_action_name("Scroll Up"), "scroll_up");
}

TEST(ActActions, ClickRunsEachToolkitsOwnName)
{
    EXPECT_EQ(chosen(ActKind::click, {"click"}), "click");                          // GTK3
    EXPECT_EQ(chosen(ActKind::click, {"Click"}), "Click");                          // GTK3 model button
    EXPECT_EQ(chosen(ActKind::click, {"press", "showContextMenu"}), "press");       // Chromium button
    EXPECT_EQ(chosen(ActKind::click, {"check", "showContextMenu"}), "check");       // Chromium check box
    EXPECT_EQ(chosen(ActKind::click, {"uncheck", "showContextMenu"}), "uncheck");   // Chromium, checked
    EXPECT_EQ(chosen(ActKind::click, {"jump", "showContextMenu"}), "jump");         // Chromium link
    EXPECT_EQ(chosen(ActKind::click, {"open", "showContextMenu"}), "open");         // Chromium <select>
    EXPECT_EQ(chosen(ActKind::click, {"clickAncestor", "showContextMenu"}), "clickAncestor");
    EXPECT_EQ(chosen(ActKind::click, {"click ancestor"}), "click ancestor");        // Gecko
    EXPECT_EQ(chosen(ActKind::click, {"Press", "SetFocus"}), "Press");              // Qt button
    EXPECT_EQ(chosen(ActKind::click, {"SetFocus", "Toggle"}), "Toggle");            // Qt check box
    EXPECT_EQ(chosen(ActKind::click, {"expand", "showContextMenu"}), "expand");     // Chromium <summary>
}

// Gecko (Firefox ESR), as GetName answers: one action per element, its verb.
TEST(ActActions, ClickRunsGeckosNames)
{
    EXPECT_EQ(chosen(ActKind::click, {"press"}), "press");       // button, toggle button, tab
    EXPECT_EQ(chosen(ActKind::click, {"check"}), "check");       // check box
    EXPECT_EQ(chosen(ActKind::click, {"uncheck"}), "uncheck");   // checked check box
    EXPECT_EQ(chosen(ActKind::click, {"cycle"}), "cycle");       // mixed check box
    EXPECT_EQ(chosen(ActKind::click, {"select"}), "select");     // radio, <option>
    EXPECT_EQ(chosen(ActKind::click, {"jump"}), "jump");         // link
    EXPECT_EQ(chosen(ActKind::click, {"open"}), "open");         // <select>
    EXPECT_EQ(chosen(ActKind::click, {"close"}), "close");       // open <select>
    EXPECT_EQ(chosen(ActKind::click, {"expand"}), "expand");     // <summary>
    EXPECT_EQ(chosen(ActKind::click, {"collapse"}), "collapse"); // open <summary>
    EXPECT_EQ(chosen(ActKind::click, {"switch"}), "switch");     // browser tab
    EXPECT_EQ(chosen(ActKind::click, {"activate"}), "activate"); // address bar
    EXPECT_EQ(chosen(ActKind::click, {"click"}), "click");       // an element with a click listener
    EXPECT_EQ(chosen(ActKind::click, {"clickAncestor"}), "clickAncestor");
    EXPECT_EQ(chosen(ActKind::click, {}), "-");                  // heading, paragraph, document
    EXPECT_EQ(chosen(ActKind::right_click, {"press"}), "-");     // Gecko offers no context-menu action
}

TEST(ActActions, GtkClickWinsOverItsPress)
{
    // A GTK3 button's "press" alone would leave it pressed: the table's order decides, not the element's.
    EXPECT_EQ(chosen(ActKind::click, {"press", "release", "click"}), "click");
}

TEST(ActActions, ClickFallsBackToTheDefaultActionUnlessItIsNoClick)
{
    EXPECT_EQ(chosen(ActKind::click, {"cycle", "showContextMenu"}), "cycle"); // an unknown verb, first
    EXPECT_EQ(chosen(ActKind::click, {"SetFocus"}), "-");
    EXPECT_EQ(chosen(ActKind::click, {"Increase", "Decrease", "SetFocus"}), "-"); // Qt spin box
    EXPECT_EQ(chosen(ActKind::click, {"showContextMenu"}), "-");
    EXPECT_EQ(chosen(ActKind::click, {"ShowMenu", "SetFocus"}), "-");
    EXPECT_EQ(chosen(ActKind::click, {}), "-");
    EXPECT_EQ(chosen(ActKind::click, {""}), "-"); // an unnamed action is never guessed
}

TEST(ActActions, Gtk4WidgetCommandsAreNeverAClick)
{
    // A GTK4 label and window: their actions are commands of the widget, not its click.
    EXPECT_EQ(chosen(ActKind::click, {"clipboard.copy", "selection.delete", "menu.popup"}), "-");
    EXPECT_EQ(chosen(ActKind::click, {"win.statusbar", "window.close", "default.activate"}), "-");
    EXPECT_EQ(chosen(ActKind::double_click, {"clipboard.copy", "link.open"}), "-");
    EXPECT_EQ(chosen(ActKind::click, {"Click"}), "Click"); // its buttons still click
    EXPECT_EQ(chosen(ActKind::right_click, {"clipboard.copy", "menu.popup"}), "menu.popup");
}

TEST(ActActions, ClickOpensAMenuBarEntrysOwnMenu)
{
    EXPECT_EQ(nd_core::choose_action(ActKind::click, {"ShowMenu"}, "menu_item")->action, "ShowMenu"); // Qt's menu bar
    EXPECT_EQ(nd_core::choose_action(ActKind::click, {"Press", "ShowMenu"}, "menu_item")->action, "Press");
    EXPECT_FALSE(nd_core::choose_action(ActKind::click, {"ShowMenu"}, "push_button")); // a context menu
    EXPECT_FALSE(nd_core::choose_action(ActKind::click, {"ShowMenu"}));
    EXPECT_FALSE(nd_core::choose_action(ActKind::click, {"SetFocus"}, "menu_item"));
}

TEST(ActActions, ClickFlipsACheckableControlThatOffersPressAndToggle)
{
    // Qt Quick: Press signals a click and leaves the state; Toggle flips it, as a person's click does.
    const std::vector<std::string> quick = {"Toggle", "Press", "SetFocus"};
    EXPECT_EQ(nd_core::choose_action(ActKind::click, quick, "check_box")->action, "Toggle");
    EXPECT_EQ(nd_core::choose_action(ActKind::click, quick, "check_box", true)->action, "Toggle"); // unchecks
    EXPECT_EQ(nd_core::choose_action(ActKind::click, quick, "toggle_button")->action, "Toggle");
    EXPECT_EQ(nd_core::choose_action(ActKind::click, quick, "radio_button")->action, "Toggle");
    // A checked radio button stays checked under a person's click: Toggle would clear it.
    EXPECT_EQ(nd_core::choose_action(ActKind::click, quick, "radio_button", true)->action, "Press");
    // Other controls and other toolkits keep the table's order.
    EXPECT_EQ(nd_core::choose_action(ActKind::click, quick, "push_button")->action, "Press");
    EXPECT_EQ(nd_core::choose_action(ActKind::click, {"Toggle", "SetFocus"}, "check_box", true)->action, "Toggle");
    EXPECT_EQ(nd_core::choose_action(ActKind::click, {"click"}, "check_box")->action, "click");
    EXPECT_EQ(nd_core::choose_action(ActKind::click, {"uncheck"}, "check_box", true)->action, "uncheck");
}

// A person's click on a row selects it; a double click opens it. GTK3's tree cells offer
// "expand or contract", "edit" and "activate" (the row-activated of a double click: zenity's list
// answered with nothing chosen and closed), so a click runs none of them and the click tool selects.
TEST(ActActions, ClickOnARowSelectsItWhereActivateWouldOpenIt)
{
    const Names cell = {"expand or contract", "edit", "activate"};
    nd_core::ActTarget row{.role = "table_cell", .selectable = true};
    EXPECT_FALSE(choose_action(ActKind::click, cell, row));
    EXPECT_EQ(choose_action(ActKind::double_click, cell, row)->action, "activate");
    EXPECT_EQ(choose_action(ActKind::double_click, cell, row)->repeat, 1);
    // Rows whose click is named keep it: a web option's "select", a tree item's "click".
    EXPECT_EQ(choose_action(ActKind::click, {"select", "showContextMenu"}, {.role = "menu_item", .selectable = true})->action,
              "select");
    EXPECT_EQ(choose_action(ActKind::click, {"click"}, {.role = "tree_item", .selectable = true})->action, "click");
    // A row's first action unnamed in the table is no click either.
    EXPECT_FALSE(choose_action(ActKind::click, {"expand or contract"}, row));
    // Not selectable: activate stays a click (GTK3's expander, a web text field's focus).
    EXPECT_EQ(choose_action(ActKind::click, cell, {.role = "table_cell"})->action, "activate");
    EXPECT_EQ(nd_core::held_back_action(ActKind::click, cell, row), "");
}

// GTK's text field runs "activate" as its Enter key: a click on zenity's entry pressed its dialog's
// OK. Where the toolkit says so, a text field's activate is neither a click nor a double click, and
// the error says why; Chromium's and Gecko's text fields keep theirs (it focuses the field and
// dispatches a click the page hears).
TEST(ActActions, ClickOnAGtkTextFieldIsNotItsEnterKey)
{
    EXPECT_TRUE(nd_core::activate_is_enter("GTK3"));
    EXPECT_TRUE(nd_core::activate_is_enter("GTK4"));
    EXPECT_FALSE(nd_core::activate_is_enter("Chromium"));
    EXPECT_FALSE(nd_core::activate_is_enter("Gecko"));
    const Names entry = {"activate"};
    for (auto role : {"text", "entry", "spin_button", "password_text"}) {
        nd_core::ActTarget gtk{.role = role, .activate_is_enter = true};
        EXPECT_FALSE(choose_action(ActKind::click, entry, gtk)) << role;
        EXPECT_FALSE(choose_action(ActKind::double_click, entry, gtk)) << role;
        EXPECT_NE(nd_core::held_back_action(ActKind::click, entry, gtk).find("Enter key"), std::string::npos) << role;
        EXPECT_EQ(choose_action(ActKind::click, entry, {.role = role})->action, "activate") << role; // the web's
    }
    // GTK's other controls keep their activate (an expander opens), and a field's other actions stay.
    EXPECT_EQ(choose_action(ActKind::click, entry, {.role = "toggle_button", .activate_is_enter = true})->action, "activate");
    EXPECT_EQ(choose_action(ActKind::click, {"activate", "click"}, {.role = "text", .activate_is_enter = true})->action,
              "click");
    EXPECT_EQ(nd_core::held_back_action(ActKind::click, entry, {.role = "push_button", .activate_is_enter = true}), "");
    EXPECT_EQ(nd_core::held_back_action(ActKind::click, entry, {.role = "text"}), "");
}

// A line break ending the text typed into a GTK single-line field is its Enter (its "activate"),
// run after the rest goes in; a multi-line field, another toolkit, a field without "activate" or a
// line break inside the text take the text as it is.
TEST(ActActions, ALastLineBreakIntoAGtkFieldIsItsEnter)
{
    nd_core::Element entry;
    entry.role = "text";
    entry.actions = {"activate"};
    auto typed = nd_core::typed_enter("Ada\n", entry, "GTK3");
    EXPECT_EQ(typed.text, "Ada");
    EXPECT_EQ(typed.action, "activate");
    typed = nd_core::typed_enter("Ada\r\n", entry, "GTK4");
    EXPECT_EQ(typed.text, "Ada");
    EXPECT_EQ(typed.action, "activate");
    typed = nd_core::typed_enter("\n", entry, "GTK3"); // Enter alone
    EXPECT_EQ(typed.text, "");
    EXPECT_EQ(typed.action, "activate");
    typed = nd_core::typed_enter("a\nb", entry, "GTK3");
    EXPECT_EQ(typed.text, "a\nb");
    EXPECT_EQ(typed.action, "");
    EXPECT_EQ(nd_core::typed_enter("Ada\n", entry, "Chromium").action, "");
    EXPECT_EQ(nd_core::typed_enter("Ada\n", entry, "Qt").text, "Ada\n");
    auto view = entry;
    view.states |= nd_core::STATE_MULTI_LINE;
    EXPECT_EQ(nd_core::typed_enter("line\n", view, "GTK3").text, "line\n");
    auto plain = entry;
    plain.actions = {"clipboard.copy"}; // GTK4's text view: no activate
    EXPECT_EQ(nd_core::typed_enter("line\n", plain, "GTK4").action, "");
    auto button = entry;
    button.role = "push_button";
    EXPECT_EQ(nd_core::typed_enter("x\n", button, "GTK3").action, "");
}

// A person's click on a row's label lands on the row: GTK3's list box rows hold a label without
// actions (gedit's colour schemes), and a click on the label answered "no action". What only shows
// passes a click or double click to the nearest of its two ancestors that takes it; what acts
// itself, takes focus or is two levels away from any taker keeps its own answer.
TEST(ActActions, AClickOnWhatOnlyShowsLandsOnTheRowOrButtonHoldingIt)
{
    using nd_core::STATE_FOCUSABLE;
    using nd_core::STATE_SELECTABLE;
    nd_test::TreeBuilder t;
    t.add(-1, "frame", "Preferences");
    const auto list = t.add(0, "list_box", "");
    const auto row = t.add(list, "list_item", "", nd_test::PLAIN | STATE_SELECTABLE | STATE_FOCUSABLE);
    const auto label = t.add(row, "label", "Cobalt");                                     // 3
    const auto button = t.add(0, "push_button", "");
    t.at(button).actions = {"click"};
    const auto box = t.add(button, "filler", "");
    const auto icon = t.add(box, "icon", "");                                            // 6
    const auto field_label = t.add(0, "label", "Name");                                  // 7: nothing holds it
    const auto deep = t.add(0, "panel", "");
    const auto deep2 = t.add(deep, "panel", "");
    const auto deep3 = t.add(deep2, "filler", "");
    const auto far = t.add(deep3, "label", "far");                                       // 11
    t.at(deep).states |= STATE_SELECTABLE; // three levels up: out of reach
    const auto link = t.add(row, "label", "Own");
    t.at(link).actions = {"clickAncestor"}; // Chromium's label acts itself
    const auto elements = t.elements();
    EXPECT_EQ(nd_core::act_holder(ActKind::click, elements, label, true), row);
    EXPECT_EQ(nd_core::act_holder(ActKind::click, elements, icon, true), button);
    EXPECT_EQ(nd_core::act_holder(ActKind::double_click, elements, icon, true), button);
    EXPECT_EQ(nd_core::act_holder(ActKind::right_click, elements, label, true), -1);
    EXPECT_EQ(nd_core::act_holder(ActKind::click, elements, field_label, true), -1);
    EXPECT_EQ(nd_core::act_holder(ActKind::click, elements, far, true), -1);
    EXPECT_EQ(nd_core::act_holder(ActKind::click, elements, link, true), -1);
    EXPECT_EQ(nd_core::act_holder(ActKind::click, elements, row, true), -1) << "the row takes the click itself";
    // A double click on a row's label opens the row only where the row has an action for it.
    EXPECT_EQ(nd_core::act_holder(ActKind::double_click, elements, label, true), -1);
    t.at(row).actions = {"activate"};
    EXPECT_EQ(nd_core::act_holder(ActKind::double_click, t.elements(), label, true), row);
}

// GTK 4 gives a label its widget's commands ("clipboard.copy", "menu.popup"): none is a click, so a
// click on such a label still lands on what holds it.
TEST(ActActions, ALabelWithOnlyItsWidgetsCommandsPassesItsClickOn)
{
    nd_test::TreeBuilder t;
    t.add(-1, "frame", "Factory");
    const auto button = t.add(0, "push_button", "Inform");
    t.at(button).actions = {"Click"};
    const auto label = t.add(button, "label", "Inform");
    t.at(label).actions = {"clipboard.copy", "menu.popup", "selection.select-all"};
    EXPECT_EQ(nd_core::act_holder(ActKind::click, t.elements(), label, true), button);
    t.at(label).actions.push_back("link.open");
    EXPECT_EQ(nd_core::act_holder(ActKind::click, t.elements(), label, true), button);
    t.at(label).actions = {""}; // unnamed: it may be a click
    EXPECT_EQ(nd_core::act_holder(ActKind::click, t.elements(), label, true), -1);
}

// A GTK 4 menu button (gnome-text-editor's "Menu") and drop-down have no actions; the toggle button
// or arrow inside takes a person's click. The click passes to the one enabled button inside that
// takes it; two such buttons, a disabled one, a big subtree or an outer control with actions of
// its own keep the outer answer.
TEST(ActActions, AControlWithoutActionsPassesItsClickToTheOneButtonInside)
{
    using nd_core::STATE_ENABLED;
    using nd_core::STATE_SHOWING;
    nd_test::TreeBuilder t;
    t.add(-1, "frame", "Text Editor");
    const auto menu = t.add(0, "push_button", "Menu");                         // 1
    const auto toggle = t.add(menu, "push_button", "Menu");                    // 2
    t.at(toggle).actions = {"Click"};
    t.add(toggle, "panel", "");
    const auto combo = t.add(0, "combo_box", "");                              // 4
    const auto box = t.add(combo, "panel", "");
    const auto entry = t.add(box, "text", "");
    t.at(entry).actions = {"Activate"};
    const auto arrow = t.add(box, "push_button", "");                          // 7
    t.at(arrow).actions = {"Click"};
    const auto pair = t.add(0, "push_button", "");                             // 8: two buttons inside
    t.at(t.add(pair, "push_button", "A")).actions = {"Click"};
    t.at(t.add(pair, "push_button", "B")).actions = {"Click"};
    const auto greyed = t.add(0, "toggle_button", "");                         // 11: its button is disabled
    const auto off = t.add(greyed, "push_button", "", STATE_SHOWING);
    t.at(off).actions = {"Click"};
    const auto panel = t.add(0, "panel", "");                                  // 13: not a control
    t.at(t.add(panel, "push_button", "C")).actions = {"Click"};
    const auto own = t.add(0, "push_button", "Own");                           // 15: acts itself
    t.at(own).actions = {"press"};
    t.at(t.add(own, "push_button", "D")).actions = {"Click"};
    const auto elements = t.snapshot().elements; // with descendant counts
    EXPECT_EQ(nd_core::act_inner(ActKind::click, elements, menu, true), toggle);
    EXPECT_EQ(nd_core::act_inner(ActKind::double_click, elements, menu, true), toggle);
    EXPECT_EQ(nd_core::act_inner(ActKind::right_click, elements, menu, true), -1) << "Click is no context menu";
    EXPECT_EQ(nd_core::act_inner(ActKind::click, elements, combo, true), arrow) << "the entry is no button";
    EXPECT_EQ(nd_core::act_inner(ActKind::click, elements, pair, true), -1);
    EXPECT_EQ(nd_core::act_inner(ActKind::click, elements, greyed, true), -1);
    EXPECT_EQ(nd_core::act_inner(ActKind::click, elements, panel, true), -1);
    EXPECT_EQ(nd_core::act_inner(ActKind::click, elements, own, true), -1);
    EXPECT_EQ(nd_core::act_inner(ActKind::click, elements, toggle, true), -1) << "no button inside";
    // A big subtree is a composite, not a button's insides.
    nd_test::TreeBuilder wide;
    wide.add(-1, "frame", "");
    const auto outer = wide.add(0, "push_button", "");
    wide.at(wide.add(outer, "push_button", "")).actions = {"Click"};
    for (int i = 0; i < nd_core::ACT_INNER_ELEMENTS; ++i)
        wide.add(outer, "filler", "");
    EXPECT_EQ(nd_core::act_inner(ActKind::click, wide.snapshot().elements, outer, true), -1);
}

TEST(ActActions, RightClickTakesAContextMenuActionOnly)
{
    EXPECT_EQ(chosen(ActKind::right_click, {"press", "showContextMenu"}), "showContextMenu");
    EXPECT_EQ(chosen(ActKind::right_click, {"Press", "ShowMenu"}), "ShowMenu");
    EXPECT_EQ(chosen(ActKind::right_click, {"menu"}), "menu");
    EXPECT_EQ(chosen(ActKind::right_click, {"press"}), "-");
}

TEST(ActActions, DoubleClickActivatesElseClicksTwice)
{
    EXPECT_EQ(chosen(ActKind::double_click, {"activate", "edit"}), "activate");
    EXPECT_EQ(chosen(ActKind::double_click, {"double-click"}), "double-click");
    EXPECT_EQ(chosen(ActKind::double_click, {"click"}), "click x2");
    EXPECT_EQ(chosen(ActKind::double_click, {"press", "showContextMenu"}), "press x2");
    EXPECT_EQ(chosen(ActKind::double_click, {"SetFocus"}), "-");
}

TEST(ActActions, TheTableHasOneRowPerActInOrder)
{
    const auto& table = nd_core::act_action_table();
    ASSERT_EQ(table.size(), 3u);
    EXPECT_EQ(table[0].kind, ActKind::click);
    EXPECT_EQ(table[1].kind, ActKind::double_click);
    EXPECT_EQ(table[2].kind, ActKind::right_click);
    // Every name is stored normalized, or it could never match.
    for (const auto& row : table)
        for (auto n : row.names)
            EXPECT_EQ(nd_core::normalize_action_name(n), n) << row.name;
}

TEST(ActActions, DescribeNamesWhatAnElementHas)
{
    EXPECT_EQ(nd_core::describe_actions({}), "none");
    EXPECT_EQ(nd_core::describe_actions({"Press", "SetFocus"}), "[\"Press\", \"SetFocus\"]");
}

// A bulk read may leave action names empty (Chromium's GetActions); once the backend asked each
// action, a name still empty is the app's own (LibreOffice's menus) and is not asked for again.
TEST(ActActions, NamesArePendingUntilTheBackendAskedThem)
{
    nd_core::Element e;
    EXPECT_FALSE(e.action_names_pending()) << "no actions: nothing to ask";
    e.actions = {"press", "showContextMenu"};
    EXPECT_FALSE(e.action_names_pending());
    e.actions = {"", "showContextMenu"};
    EXPECT_TRUE(e.action_names_pending());
    e.action_names_asked = true;
    EXPECT_FALSE(e.action_names_pending());
    // An action the app leaves unnamed is not run for a click: nothing says what it does.
    EXPECT_EQ(chosen(ActKind::click, {""}), "-");
}

} // namespace

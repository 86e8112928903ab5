// Labels a person would read: class names give way to the description or the child label, and a
// name that repeats its child label is cut to it, as every view then shows.

#include "core/model/labels.h"

#include "tree_fixture.h"

#include <gtest/gtest.h>

using namespace nd_core;
using nd_test::TreeBuilder;

TEST(Labels, ClassNamesOfTheToolkits)
{
    for (auto name : {"GtkMenuButton", "GtkImage", "GtkColorSwatch", "AdwHeaderBar", "QPushButton", "QWidget",
             "GdkTexture", "HdyLeaflet", "GtkPanedHandle", "Gjs_SidebarRow", "Gjs_CharactersView"})
        EXPECT_TRUE(is_class_name(name)) << name;
    for (auto name : {"", "Gtk", "Gtk menu", "Gtkish", "QR code", "QRCode", "Quit", "Q", "Save", "GtkButton!",
             "Gtk Button", "OK", "Gjs_", "Gjs_row", "Gjs_ Row"})
        EXPECT_FALSE(is_class_name(name)) << name;
}

TEST(Labels, AnAppsOwnWidgetClassesAreClassNamesWhateverTheirPrefix)
{
    // gnome-text-editor (GTK4) names its unlabelled widgets by their types.
    for (auto name : {"EditorPage", "EditorInfoBar", "EditorSourceView", "NautilusWindowSlot", "HTMLView",
             "IdeTreeRow", "PanelFrameHeader", "VteTerminalWidget", "EditorThemeSelector", "NautilusHistoryControls"})
        EXPECT_TRUE(is_class_name(name)) << name;
    // A person's label of the same shape does not end in a widget's word.
    for (auto name : {"GitHub", "PowerPoint", "JavaScript", "YouTube", "QRCode", "View", "Page", "Menu Bar",
             "Tool bar", "TextEditor", "iPhoneView", "ABC", "NewTab2", "Selector", "Controls"})
        EXPECT_FALSE(is_class_name(name)) << name;
}

TEST(Labels, PaddingAroundANameIsDropped)
{
    TreeBuilder t;
    t.add(-1, "frame", "Untitled 1 - Mousepad");
    t.add(0, "menu_item", "Undo      "); // GTK3 leaves room for the shortcut
    t.add(0, "menu_item", " \t\n ");
    t.add(0, "label", "  two  words  ");
    auto s = t.snapshot();
    humanize_names(s.elements);
    EXPECT_EQ(s.elements[1].name, "Undo");
    EXPECT_EQ(s.elements[2].name, "");
    EXPECT_EQ(s.elements[3].name, "two  words");
}

TEST(Labels, AClassNameGivesWayToTheDescriptionThenTheChildLabel)
{
    TreeBuilder t;
    t.add(-1, "frame", "Calculator");
    t.add(0, "push_button", "GtkMenuButton"); // 1: described
    t.at(1).description = "Primary menu";
    const auto b = t.add(0, "push_button", "GtkButton"); // 2: a label two levels down
    const auto box = t.add(b, "panel", "");
    t.add(box, "label", "Undo");
    t.add(0, "push_button", "GtkImage"); // 5: nothing to read: no name beats a class name
    t.add(0, "filler", "GtkBox");        // 6: a described class name whose description is a class name
    t.at(6).description = "GtkBox";
    const auto list = t.add(0, "list", "");
    const auto row = t.add(list, "table_row", "Gjs_SidebarRow"); // 8: a row shows its label
    t.at(row).description = "Animals & Nature Sidebar Row";
    const auto inner = t.add(row, "panel", "");
    t.add(inner, "image", "");
    t.add(inner, "label", "Animals & Nature");
    const auto bare = t.add(list, "table_row", "Gjs_SidebarRow"); // 12: no label: its description
    t.at(bare).description = "Recent Sidebar Row";
    auto s = t.snapshot();
    humanize_names(s.elements);
    EXPECT_EQ(s.elements[1].name, "Primary menu");
    EXPECT_EQ(s.elements[2].name, "Undo");
    EXPECT_EQ(s.elements[5].name, "");
    EXPECT_EQ(s.elements[6].name, "");
    EXPECT_EQ(s.elements[0].name, "Calculator");
    EXPECT_EQ(s.elements[8].name, "Animals & Nature");
    EXPECT_EQ(s.elements[12].name, "Recent Sidebar Row");
}

// FeatherPad's search bar (Qt 5): icon buttons and check boxes unnamed, their tooltips in the
// description, one of them rich text.
TEST(Labels, AnUnnamedControlIsNamedByItsTooltip)
{
    struct Case {
        const char* role;
        const char* name;
        const char* description;
        const char* reads;
    };
    const Case cases[] = {
        {"push_button", "", "Next (F3)", "Next (F3)"},
        {"check_box", "", "Match Case (F5)", "Match Case (F5)"},
        // rich text over two lines: its first line, without markup
        {"push_button", "", "<p style='white-space:pre'>Calculate  number &amp; words\n(For huge texts.)</p>",
         "Calculate number & words"},
        {"push_button", "", "Zoom < 100% > 50%", "Zoom < 100% > 50%"}, // plain text keeps its signs
        {"panel", "", "Search options", ""},          // a container's description is not its name
        {"push_button", "Close", "Close the bar", "Close"}, // named: kept
        {"push_button", "", "QToolButton", ""},       // a class name names nothing
        {"label", "", "A hint", ""},                  // a label's text is its name
        {"slider", "", "50.0", ""},                   // a field's description may be its value (GTK3's scale)
    };
    TreeBuilder t;
    t.add(-1, "frame", "Untitled");
    for (const auto& c : cases)
        t.at(t.add(0, c.role, c.name)).description = c.description;
    auto s = t.snapshot();
    humanize_names(s.elements);
    for (std::size_t i = 0; i < std::size(cases); ++i)
        EXPECT_EQ(s.elements[i + 1].name, cases[i].reads) << cases[i].role << " " << cases[i].description;
}

TEST(Labels, ANameThatRepeatsItsChildLabelIsCutToIt)
{
    TreeBuilder t;
    t.add(-1, "frame", "Calculator");
    const auto seven = t.add(0, "push_button", "7 7");
    t.add(seven, "label", "7");
    t.add(0, "label", "New New"); // 3: no child says "New": a real name, left alone
    const auto pi = t.add(0, "push_button", "π π");
    t.add(pi, "label", "π");
    auto s = t.snapshot();
    humanize_names(s.elements);
    EXPECT_EQ(s.elements[1].name, "7");
    EXPECT_EQ(s.elements[3].name, "New New");
    EXPECT_EQ(s.elements[4].name, "π");
}

// GTK 4 leaves a label's mnemonic marks in the names it derives from it: a button reads "_Inform
// Inform" (its mnemonic text, then its label's), a stack switcher's tab "Page _1" over a label
// "Page 1", and the stack page itself "Page _1" with no label below it.
TEST(Labels, MnemonicMarksGiveWayToTheTextTheLabelShows)
{
    TreeBuilder t;
    t.add(-1, "frame", "Factory");
    const auto page = t.add(0, "panel", "Page _1");            // 1: no label below; the tab's proves it
    const auto inform = t.add(page, "push_button", "_Inform Inform"); // 2
    t.add(inform, "label", "Inform");
    const auto select = t.add(page, "push_button", "S_elect Select"); // 4
    t.add(select, "label", "Select");
    const auto tab = t.add(0, "page_tab", "Page _1");           // 6
    t.add(tab, "label", "Page 1");
    t.add(0, "label", "snake_case_name");                       // 8: no label shows it otherwise: kept
    const auto file = t.add(0, "list_item", "my_file.txt");     // 9: its label shows the underscore
    t.add(file, "label", "my_file.txt");
    const auto lit = t.add(0, "push_button", "Save__As");       // 11: "__" shows one '_'
    t.add(lit, "label", "Save_As");
    auto s = t.snapshot();
    humanize_names(s.elements);
    EXPECT_EQ(s.elements[1].name, "Page 1");
    EXPECT_EQ(s.elements[2].name, "Inform");
    EXPECT_EQ(s.elements[4].name, "Select");
    EXPECT_EQ(s.elements[6].name, "Page 1");
    EXPECT_EQ(s.elements[8].name, "snake_case_name");
    EXPECT_EQ(s.elements[9].name, "my_file.txt");
    EXPECT_EQ(s.elements[11].name, "Save_As");
}

TEST(Labels, TheStructureHashDoesNotDependOnNames)
{
    TreeBuilder t;
    t.add(-1, "frame", "W");
    t.add(0, "push_button", "GtkButton");
    auto s = t.snapshot();
    const auto before = s.structure_hash;
    humanize_names(s.elements);
    EXPECT_EQ(finish_tree(s.elements), before);
}

// A cell, an item or a label shows its name: an app's text of a class name's shape ("MainWindow"
// in Qt Linguist's list of contexts) is kept there, unless its last word is the element's own kind.
TEST(Labels, TextOfAClassNamesShapeIsKeptWhereItIsWhatTheElementShows)
{
    TreeBuilder t;
    t.add(-1, "frame", "Qt Linguist");
    const auto tree = t.add(0, "tree", "");
    t.add(tree, "table_cell", "MainWindow");        // 2: a context of the app being translated
    t.add(tree, "table_cell", "SettingsDialog");    // 3
    t.add(tree, "table_cell", "NautilusGridCell");  // 4: the cell's own class
    t.add(tree, "table_cell", "QWidget");           // 5: a toolkit's class on any role
    t.add(0, "label", "PreferencesWindow");          // 6
    t.add(0, "label", "EditorStatusLabel");          // 7
    t.add(0, "panel", "EditorPage");                 // 8: a container's name is never its text
    t.add(0, "page_tab", "StartPage");               // 9
    t.add(0, "link", "ReleaseNotesView");            // 10
    auto s = t.snapshot();
    humanize_names(s.elements);
    EXPECT_EQ(s.elements[2].name, "MainWindow");
    EXPECT_EQ(s.elements[3].name, "SettingsDialog");
    EXPECT_EQ(s.elements[4].name, "");
    EXPECT_EQ(s.elements[5].name, "");
    EXPECT_EQ(s.elements[6].name, "PreferencesWindow");
    EXPECT_EQ(s.elements[7].name, "");
    EXPECT_EQ(s.elements[8].name, "");
    EXPECT_EQ(s.elements[9].name, "");
    EXPECT_EQ(s.elements[10].name, "ReleaseNotesView");
}

// Qt leaves a field unnamed when its label has no buddy: the label just before it names it, as a
// person reads it, when the two are side by side in their box. Nothing else does.
TEST(Labels, AnUnnamedFieldTakesTheLabelOfItsBox)
{
    TreeBuilder t;
    t.add(-1, "frame", "Qt Linguist");
    const auto row = t.add(0, "filler", "");
    t.add(row, "label", "Translation to German");  // 2
    const auto field = t.add(row, "text", "");      // 3: named by 2
    t.add(field, "filler", "");
    t.add(row, "push_button", "");                  // 5: a button beside them changes nothing
    const auto second = t.add(0, "filler", "");     // 6
    t.add(second, "label", " Source text ");        // 7: trimmed first
    t.add(second, "panel", "");                     // 8: between the label and the field
    t.add(second, "text", "");                      // 9: not named
    const auto third = t.add(0, "filler", "");      // 10
    const auto box = t.add(third, "filler", "");    // 11
    t.add(box, "label", "Inside");                  // 12: a nephew, not a sibling
    t.add(third, "entry", "");                      // 13: not named
    const auto grid = t.add(0, "filler", "");       // 14: gtk3-widget-factory's grid
    t.add(grid, "label", "label");                  // 15
    t.add(grid, "label", "label");                  // 16
    t.add(grid, "spin_button", "");                 // 17: two labels, two fields: none named
    t.add(grid, "spin_button", "");                 // 18
    const auto own = t.add(0, "filler", "");        // 19
    t.add(own, "label", "Named");
    t.add(own, "text", "Own name");                 // 21: a name of its own stays
    const auto prose = t.add(0, "filler", "");      // 22
    t.add(prose, "paragraph", "Your e-mail");
    t.add(prose, "entry", "");                      // 24: prose is not a label
    const auto klass = t.add(0, "filler", "");      // 25
    t.add(klass, "label", "GtkLabel");
    t.add(klass, "spin_button", "");                // 27: a class name names nothing
    const auto secret = t.add(0, "filler", "");     // 28
    t.add(secret, "label", "Password");
    t.add(secret, "password_text", "");             // 30
    const auto after = t.add(0, "filler", "");      // 31
    t.add(after, "text", "");                       // 32: the label comes after it
    t.add(after, "label", "Later");
    const auto button = t.add(0, "filler", "");     // 34
    t.add(button, "label", "Go");
    t.add(button, "push_button", "");               // 36: not a field
    auto s = t.snapshot();
    humanize_names(s.elements);
    EXPECT_EQ(s.elements[3].name, "Translation to German");
    EXPECT_EQ(s.elements[7].name, "Source text");
    EXPECT_EQ(s.elements[9].name, "");
    EXPECT_EQ(s.elements[13].name, "");
    EXPECT_EQ(s.elements[17].name, "");
    EXPECT_EQ(s.elements[18].name, "");
    EXPECT_EQ(s.elements[21].name, "Own name");
    EXPECT_EQ(s.elements[24].name, "");
    EXPECT_EQ(s.elements[27].name, "");
    EXPECT_EQ(s.elements[30].name, "Password");
    EXPECT_EQ(s.elements[32].name, "");
    EXPECT_EQ(s.elements[36].name, "");
}

// A container's class name gives way to no name, never to its first item's label: GTK4's icon
// browser names its lists "GtkListView" and "GtkGridView", whose first items read "Volume" and
// "audio-volume-high".
TEST(Labels, AContainersClassNameIsNotReplacedByItsFirstItem)
{
    TreeBuilder t;
    t.add(-1, "frame", "Icon Browser");
    const auto list = t.add(0, "list", "GtkListView");   // 1
    const auto item = t.add(list, "list_item", "");
    t.add(item, "label", "Volume");
    const auto grid = t.add(0, "table", "GtkGridView");  // 4
    const auto cell = t.add(grid, "table_cell", "GtkGridChild"); // 5: a cell's own label names it
    t.add(cell, "label", "audio-volume-high");
    const auto box = t.add(0, "panel", "GtkBox");        // 7
    t.add(box, "label", "Inside");
    const auto tab = t.add(0, "page_tab", "GtkStackPage"); // 9: a tab's label is its own
    t.add(tab, "label", "Buttons");
    auto s = t.snapshot();
    humanize_names(s.elements);
    EXPECT_EQ(s.elements[1].name, "");
    EXPECT_EQ(s.elements[4].name, "");
    EXPECT_EQ(s.elements[5].name, "audio-volume-high");
    EXPECT_EQ(s.elements[7].name, "");
    EXPECT_EQ(s.elements[9].name, "Buttons");
}

// GTK4 names every notebook tab "Tab" and shows "Info", "Source" in the label inside: the label is
// the name. A placeholder with no label below stays, and one on another role is a real name.
TEST(Labels, APlaceholderNameGivesWayToTheLabelInside)
{
    TreeBuilder t;
    t.add(-1, "frame", "GTK Demo");
    const auto tabs = t.add(0, "page_tab_list", "Tab list");
    const auto info = t.add(tabs, "page_tab", "Tab");   // 2
    t.add(info, "label", "Info");
    const auto source = t.add(tabs, "page_tab", "Tab"); // 4
    t.add(source, "label", "Source");
    t.add(tabs, "page_tab", "Tab");                     // 6: nothing inside
    const auto button = t.add(0, "push_button", "Button"); // 7: labelled so
    t.add(button, "label", "Button");
    t.add(0, "label", "Tab");                           // 9: a label's own text
    auto s = t.snapshot();
    humanize_names(s.elements);
    EXPECT_EQ(s.elements[2].name, "Info");
    EXPECT_EQ(s.elements[4].name, "Source");
    EXPECT_EQ(s.elements[6].name, "Tab");
    EXPECT_EQ(s.elements[7].name, "Button");
    EXPECT_EQ(s.elements[9].name, "Tab");
}

// A GTK list box's rows (Nautilus's sidebar) are unnamed items holding an icon and a label: a row
// reads as its label. A web page's list item, whose text is static text, stays unnamed: its text
// is read in its own children already.
TEST(Labels, AnUnnamedRowReadsAsTheLabelItHolds)
{
    TreeBuilder t;
    t.add(-1, "frame", "nfold");
    const auto list = t.add(0, "list", "");
    const auto recent = t.add(list, "list_item", "");        // 2
    const auto box = t.add(recent, "panel", "");
    const auto inner = t.add(box, "panel", "");
    t.add(inner, "image", "");
    t.add(inner, "label", "Recent");
    const auto web = t.add(list, "list_item", "");           // 7
    t.add(web, "static", "Channel");
    const auto deep = t.add(list, "tree_item", "");          // 9: the label is four levels down
    const auto d1 = t.add(deep, "panel", "");
    const auto d2 = t.add(d1, "panel", "");
    const auto d3 = t.add(d2, "panel", "");
    t.add(d3, "label", "Far");
    const auto named = t.add(list, "list_item", "Own");      // 14: keeps its own name
    t.add(named, "label", "Other");
    auto s = t.snapshot();
    humanize_names(s.elements);
    EXPECT_EQ(s.elements[2].name, "Recent");
    EXPECT_EQ(s.elements[7].name, "");
    EXPECT_EQ(s.elements[9].name, "");
    EXPECT_EQ(s.elements[14].name, "Own");
}

// The label below an element is read before it is rewritten: its padding is dropped on the way.
TEST(Labels, ALabelFromBelowIsTrimmed)
{
    TreeBuilder t;
    t.add(-1, "frame", "Calculator");
    const auto tab = t.add(0, "page_tab", "Tab");
    t.add(tab, "label", "  Info  ");
    const auto button = t.add(0, "push_button", "GtkButton");
    t.add(button, "label", "Undo\t");
    auto s = t.snapshot();
    humanize_names(s.elements);
    EXPECT_EQ(s.elements[1].name, "Info");
    EXPECT_EQ(s.elements[3].name, "Undo");
}

// A form's grid: GTK3 lists a grid's children last-added first, so zenity's form reads each field
// before its label; GTK4 and Qt grids filled row by row read each label before its field. Either
// way, strictly alternating pairs side by side name their fields. A grid listed by columns, a
// single field before a label (a unit, unless the label ends in a colon) and an odd row name nothing.
TEST(Labels, AFormsGridNamesItsFieldsWhenItsOrderLeavesNoDoubt)
{
    TreeBuilder t;
    t.add(-1, "dialog", "zenity");
    const auto gtk3 = t.add(0, "panel", "");        // 1: zenity --forms
    const auto combo = t.add(gtk3, "combo_box", ""); // 2
    t.add(combo, "menu", "");
    t.add(gtk3, "label", "Plan");
    t.add(gtk3, "calendar", "");                    // 5
    t.add(gtk3, "label", "Day");
    t.add(gtk3, "password_text", "");               // 7
    t.add(gtk3, "label", "Secret");
    t.add(gtk3, "text", "");                        // 9
    t.add(gtk3, "label", " Name ");
    const auto rows = t.add(0, "filler", "");       // 11: row by row
    t.add(rows, "label", "Host");
    t.add(rows, "text", "");                        // 13
    t.add(rows, "label", "Port");
    t.add(rows, "spin_button", "");                 // 15
    const auto unit = t.add(0, "filler", "");       // 16
    t.add(unit, "spin_button", "");                 // 17: "[10] px"
    t.add(unit, "label", "px");
    const auto odd = t.add(0, "filler", "");        // 19
    t.add(odd, "label", "Width");
    t.add(odd, "spin_button", "");                  // 21: "Width [10] px"
    t.add(odd, "label", "px");
    const auto columns = t.add(0, "filler", "");    // 23: qt6ct
    t.add(columns, "label", "Double click interval:");
    t.add(columns, "label", "Cursor flash time:");
    t.add(columns, "spin_button", "");              // 26
    t.add(columns, "spin_button", "");              // 27
    const auto apart = t.add(0, "filler", "");      // 28
    t.add(apart, "text", "");                       // 29
    t.add(apart, "push_button", "Browse");
    t.add(apart, "label", "Folder");
    t.add(apart, "text", "");                       // 32
    t.add(apart, "label", "File");
    const auto colon = t.add(0, "filler", "");      // 34: gedit's "[8] Tab width:"
    t.add(colon, "check_box", "Insert spaces instead of tabs");
    t.add(colon, "spin_button", "");                // 36
    t.add(colon, "label", "Tab width: ");
    auto s = t.snapshot();
    humanize_names(s.elements);
    EXPECT_EQ(s.elements[2].name, "Plan");
    EXPECT_EQ(s.elements[5].name, "Day");
    EXPECT_EQ(s.elements[7].name, "Secret");
    EXPECT_EQ(s.elements[9].name, "Name");
    EXPECT_EQ(s.elements[13].name, "Host");
    EXPECT_EQ(s.elements[15].name, "Port");
    EXPECT_EQ(s.elements[17].name, "");
    EXPECT_EQ(s.elements[21].name, "");
    EXPECT_EQ(s.elements[26].name, "");
    EXPECT_EQ(s.elements[27].name, "");
    EXPECT_EQ(s.elements[29].name, "") << "a pair with something between it names nothing";
    EXPECT_EQ(s.elements[32].name, "");
    EXPECT_EQ(s.elements[36].name, "Tab width:") << "a label ending in a colon names the field before it";
}

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
             "GdkTexture", "HdyLeaflet", "GtkPanedHandle"})
        EXPECT_TRUE(is_class_name(name)) << name;
    for (auto name : {"", "Gtk", "Gtk menu", "Gtkish", "QR code", "QRCode", "Quit", "Q", "Save", "GtkButton!",
             "Gtk Button", "OK"})
        EXPECT_FALSE(is_class_name(name)) << name;
}

TEST(Labels, AnAppsOwnWidgetClassesAreClassNamesWhateverTheirPrefix)
{
    // gnome-text-editor (GTK4) names its unlabelled widgets by their types.
    for (auto name : {"EditorPage", "EditorInfoBar", "EditorSourceView", "NautilusWindowSlot", "HTMLView",
             "IdeTreeRow", "PanelFrameHeader", "VteTerminalWidget"})
        EXPECT_TRUE(is_class_name(name)) << name;
    // A person's label of the same shape does not end in a widget's word.
    for (auto name : {"GitHub", "PowerPoint", "JavaScript", "YouTube", "QRCode", "View", "Page", "Menu Bar",
             "Tool bar", "TextEditor", "iPhoneView", "ABC", "NewTab2"})
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
    auto s = t.snapshot();
    humanize_names(s.elements);
    EXPECT_EQ(s.elements[1].name, "Primary menu");
    EXPECT_EQ(s.elements[2].name, "Undo");
    EXPECT_EQ(s.elements[5].name, "");
    EXPECT_EQ(s.elements[6].name, "");
    EXPECT_EQ(s.elements[0].name, "Calculator");
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

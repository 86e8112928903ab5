// Views as projections of one snapshot (§3): the full view with its limits counted from a root,
// the skeleton's row rule and its parent links, drill-down from a root, and cut_text.

#include "core/model/view_render.h"
#include "core/model/views.h"

#include "tree_fixture.h"

#include <gtest/gtest.h>

#include <string>

using namespace nd_core;
using nd_test::TreeBuilder;

namespace {

//  0 frame "Window"
//    1 tool_bar "Tools"                 landmark with children: row
//      2 push_button "Bold"
//      3 push_button "Italic"
//    4 panel ""                         unnamed generic: no row
//      5 list "Messages"                landmark: row, skeleton parent 0
//        6 list_item "one"
//          7 label "hello"
//        8 list_item "two"
//    9 panel "Sidebar"                  named generic: row
//      10 password_text "Password"      secure, no children
//      11 section "Vault" (secure)      secure container: never a row
//        12 label "inside"
//    13 tool_bar "Empty"                landmark without children: no row
//    14 panel "Named but empty"         no children: no row
//    15 filler "Deep"                   named generic: row
//      16 group "G1"
//        17 grouping "G2"
//          18 layered_pane "G3"
//            19 internal_frame "G4"
//              20 push_button "Go"
TreeBuilder sample_tree()
{
    TreeBuilder t;
    t.add(-1, "frame", "Window");
    t.add(0, "tool_bar", "Tools");
    t.add(1, "push_button", "Bold");
    t.add(1, "push_button", "Italic");
    t.add(0, "panel", "");
    t.add(4, "list", "Messages");
    t.add(5, "list_item", "one");
    t.add(6, "label", "hello");
    t.add(5, "list_item", "two");
    t.add(0, "panel", "Sidebar");
    t.add(9, "password_text", "Password", nd_test::PLAIN | STATE_EDITABLE);
    t.add(9, "section", "Vault", nd_test::PLAIN | STATE_SECURE);
    t.add(11, "label", "inside");
    t.add(0, "tool_bar", "Empty");
    t.add(0, "panel", "Named but empty");
    t.add(0, "filler", "Deep");
    t.add(15, "group", "G1");
    t.add(16, "grouping", "G2");
    t.add(17, "layered_pane", "G3");
    t.add(18, "internal_frame", "G4");
    t.add(19, "push_button", "Go");
    return t;
}

struct Row {
    std::int32_t index, parent, depth;
    bool operator==(const Row&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Row& r)
{
    return os << "{" << r.index << ", " << r.parent << ", " << r.depth << "}";
}

std::vector<Row> rows(const View& v)
{
    std::vector<Row> out;
    for (const auto& r : v.rows)
        out.push_back({r.index, r.parent_index, r.depth});
    return out;
}

ViewRequest skeleton(std::int32_t root = 0, std::int32_t max_elements = SKELETON_DEFAULT_MAX_ELEMENTS,
    std::int32_t max_depth = SKELETON_DEFAULT_MAX_DEPTH)
{
    return ViewRequest{ViewKind::skeleton, root, max_elements, max_depth};
}

ViewRequest full(std::int32_t root = 0, std::int32_t max_elements = FULL_DEFAULT_MAX_ELEMENTS,
    std::int32_t max_depth = FULL_DEFAULT_MAX_DEPTH)
{
    return ViewRequest{ViewKind::full, root, max_elements, max_depth};
}

// Which elements have a line in a view's text ("[3] " starts element 3's): those of `absent`
// none, those of `present` one.
void expect_lines(const std::string& text, std::initializer_list<const char*> absent,
                  std::initializer_list<const char*> present)
{
    for (const auto* line : absent)
        EXPECT_EQ(text.find(line), std::string::npos) << line << " in\n" << text;
    for (const auto* line : present)
        EXPECT_NE(text.find(line), std::string::npos) << line << " not in\n" << text;
}

// Every row's parent is an earlier row one level up (or -1 for the view's first row).
void expect_consistent(const View& v)
{
    for (std::size_t i = 0; i < v.rows.size(); ++i) {
        const auto& r = v.rows[i];
        if (i == 0) {
            EXPECT_EQ(r.parent_index, -1);
            EXPECT_EQ(r.depth, 0);
            EXPECT_EQ(r.index, v.root);
            continue;
        }
        bool found = false;
        for (std::size_t j = 0; j < i; ++j)
            if (v.rows[j].index == r.parent_index) {
                EXPECT_EQ(v.rows[j].depth + 1, r.depth) << "row " << r.index;
                found = true;
            }
        EXPECT_TRUE(found) << "row " << r.index << " has parent " << r.parent_index << " that is no earlier row";
    }
}

} // namespace

TEST(FullView, DefaultsShowTheWholeSmallTree)
{
    const auto s = sample_tree().snapshot();
    const auto v = project(s, full());
    EXPECT_EQ(v.kind, ViewKind::full);
    EXPECT_FALSE(v.truncated);
    ASSERT_EQ(v.rows.size(), s.elements.size());
    for (std::int32_t i = 0; i < s.size(); ++i) {
        EXPECT_EQ(v.rows[i].index, i);
        EXPECT_EQ(v.rows[i].parent_index, s.elements[i].parent);
        EXPECT_EQ(v.rows[i].depth, s.elements[i].depth);
    }
    expect_consistent(v);
}

// Gecko keeps every closed popup of its window as an empty, unnamed `menu` (34 of Thunderbird's 72
// elements), Chromium its hidden notification views: no one sees them and nothing can be done with
// them, so a full view's text has no line for them below its root, and the view counts them; its
// rows keep them, so that a whole read's elements[i] stays element i. Whatever says something or
// can be used has its line: a name, a text, a description, children, a control, focus, a secure field.
TEST(FullView, HiddenShellsHaveNoLineAndAreCounted)
{
    constexpr std::uint32_t HIDDEN = STATE_ENABLED;
    TreeBuilder t;
    t.add(-1, "frame", "Mail");                    // 0
    t.add(0, "menu", "", HIDDEN);                  // 1: a closed popup: no line
    t.add(0, "notification", "", HIDDEN);          // 2: no line
    t.add(0, "menu", "File", HIDDEN);              // 3: named
    t.add(0, "push_button", "", HIDDEN);           // 4: a control
    t.add(0, "panel", "", HIDDEN);                 // 5: has children
    t.add(5, "separator", "", HIDDEN);             // 6: no line
    t.add(0, "panel", "");                         // 7: showing
    t.add(0, "label", "", HIDDEN | STATE_FOCUSED); // 8: focused
    t.add(0, "panel", "", HIDDEN | STATE_SECURE);  // 9: secure
    t.add(0, "static", "", HIDDEN);                // 10: a text
    t.add(0, "image", "", HIDDEN);                 // 11: a description
    auto s = t.snapshot();
    s.elements[10].value = "3 new";
    s.elements[11].description = "Unread";
    const auto v = project(s, full());
    EXPECT_EQ(v.unlisted, 3);
    ASSERT_EQ(v.rows.size(), s.elements.size()) << "the rows keep them";
    expect_lines(view_text(s, v), {"[1] ", "[2] ", "[6] "},
                 {"[0] ", "[3] ", "[4] ", "[5] ", "[7] ", "[8] ", "[9] ", "[10] ", "[11] "});
    // Drilled into, a hidden shell is the view's root and has its line.
    const auto one = project(s, full(1));
    EXPECT_EQ(one.unlisted, 0);
    EXPECT_NE(view_text(s, one).find("[1] menu"), std::string::npos);
    EXPECT_EQ(project(s, skeleton()).unlisted, 0) << "a skeleton has no leaves";
}

// Chromium keeps the whitespace between a page's inline elements as text leaves with no text
// (`static ""`, showing, with a frame): lines that say nothing. Their
// lines go, counted with the hidden shells; a text leaf that says or does anything keeps its line.
TEST(FullView, BlankTextHasNoLine)
{
    constexpr std::uint32_t SHOWN = nd_test::PLAIN | STATE_SHOWING;
    TreeBuilder t;
    t.add(-1, "frame", "Chat");                             // 0
    t.add(0, "document_web", "Chat", SHOWN);                // 1
    t.add(1, "static", "", SHOWN);                          // 2: whitespace: no line
    t.add(1, "link", "permalink", SHOWN);                   // 3
    t.add(1, "label", "", SHOWN);                           // 4: no line
    t.add(1, "text", "", SHOWN);                            // 5: no line
    t.add(1, "text", "", SHOWN | STATE_EDITABLE);           // 6: a place to type
    t.add(1, "static", "", SHOWN | STATE_FOCUSED);          // 7: focused
    t.add(1, "static", "", SHOWN);                          // 8: a value
    t.add(1, "static", "", SHOWN);                          // 9: a description
    t.add(1, "static", "", SHOWN);                          // 10: children
    t.add(10, "image", "Logo", SHOWN);                      // 11
    t.add(1, "panel", "", SHOWN);                           // 12: no text leaf
    auto s = t.snapshot();
    s.elements[8].value = "3 new";
    s.elements[9].description = "Unread";
    const auto v = project(s, full());
    EXPECT_EQ(v.unlisted, 3);
    ASSERT_EQ(v.rows.size(), s.elements.size()) << "the rows keep them";
    expect_lines(view_text(s, v), {"[2] ", "[4] ", "[5] "}, {"[3] ", "[6] ", "[7] ", "[8] ", "[9] ", "[10] ", "[11] ", "[12] "});
    // Drilled into, it is the view's root and has its line.
    EXPECT_NE(view_text(s, project(s, full(2))).find("[2] static"), std::string::npos);
}

// Chromium gives `<p>`, `<strong>` and plain boxes their text as one named static child: the
// box's line (`paragraph ""`) says nothing, so the text's line takes its place, one level up; a
// box that says or does anything itself keeps its line, and the JSON rows keep every element.
TEST(FullView, ATextWrapperReadsAsItsText)
{
    constexpr std::uint32_t SHOWN = nd_test::PLAIN | STATE_SHOWING;
    TreeBuilder t;
    t.add(-1, "document_web", "Chat", SHOWN);               // 0: a page
    t.add(0, "list_item", "", SHOWN);                       // 1
    t.add(1, "static", "", SHOWN);                          // 2: <strong>: no line
    t.add(2, "static", "Ada Lovelace", SHOWN);              // 3: in its place
    t.add(1, "paragraph", "", SHOWN);                       // 4: no line
    t.add(4, "static", "Message 0", SHOWN);                 // 5
    t.add(1, "section", "", SHOWN);                         // 6: a click handler: kept
    t.add(6, "static", "Add to cart", SHOWN);               // 7
    t.add(1, "paragraph", "", SHOWN);                       // 8: two children: kept
    t.add(8, "static", "Hello", SHOWN);                     // 9
    t.add(8, "link", "world", SHOWN);                       // 10
    t.add(1, "paragraph", "", SHOWN);                       // 11: a text leaf with no text: kept
    t.add(11, "static", "", SHOWN);                         // 12: blank: no line
    t.add(1, "heading", "", SHOWN);                         // 13: a level: kept
    t.add(13, "static", "Intro", SHOWN);                    // 14
    t.add(1, "panel", "", SHOWN);                           // 15: around a control: kept
    t.add(15, "push_button", "Reply", SHOWN);               // 16
    auto s = t.snapshot();
    s.elements[6].actions = {"click"};
    s.elements[13].level = 2;
    const auto v = project(s, full());
    EXPECT_EQ(v.unlisted, 3);
    ASSERT_EQ(v.rows.size(), s.elements.size());
    EXPECT_EQ(view_text(s, v),
              "[0] document_web \"Chat\"\n"
              "  [1] list_item \"\"\n"
              "    [3] static \"Ada Lovelace\"\n"
              "    [5] static \"Message 0\"\n"
              "    [6] section \"\" (clickable)\n"
              "      [7] static \"Add to cart\"\n"
              "    [8] paragraph \"\"\n"
              "      [9] static \"Hello\"\n"
              "      [10] link \"world\"\n"
              "    [11] paragraph \"\"\n"
              "    [13] heading \"\" level=2\n"
              "      [14] static \"Intro\"\n"
              "    [15] panel \"\"\n"
              "      [16] push_button \"Reply\"\n");
    // The JSON rows keep the box and the text's depth below it.
    EXPECT_EQ(v.rows[3].depth, 3);
    EXPECT_EQ(v.rows[3].parent_index, 2);
    // Drilled into, the box is the view's root and has its line.
    EXPECT_NE(view_text(s, project(s, full(2))).find("[2] static \"\"\n  [3] static"), std::string::npos);
    // A box whose text the view cuts (max_depth, max_elements) keeps its line.
    auto shallow = full();
    shallow.max_depth = 2;
    EXPECT_NE(view_text(s, project(s, shallow)).find("    [2] static \"\"\n"), std::string::npos)
        << view_text(s, project(s, shallow));
    auto few = full();
    few.max_elements = 3;
    EXPECT_EQ(view_text(s, project(s, few)), "[0] document_web \"Chat\"\n  [1] list_item \"\"\n    [2] static \"\"\n");
}

// Chromium gives a link or a heading its text as a static child named alike (`link "Install"`,
// then `static "Install"`): that line says nothing the link's did not. A text that says more, or
// whose parent is no row of the view, keeps its line.
TEST(FullView, ATextThatRepeatsItsParentsNameHasNoLine)
{
    constexpr std::uint32_t SHOWN = nd_test::PLAIN | STATE_SHOWING;
    TreeBuilder t;
    t.add(-1, "document_web", "Docs", SHOWN);               // 0
    t.add(0, "link", "Install", SHOWN);                     // 1
    t.add(1, "static", "Install", SHOWN);                   // 2: no line
    t.add(0, "heading", "Usage", SHOWN);                    // 3
    t.add(3, "static", "Usage", SHOWN);                     // 4: no line
    t.add(0, "link", "Next", SHOWN);                        // 5
    t.add(5, "static", "Next page", SHOWN);                 // 6: says more
    t.add(5, "image", "Next", SHOWN);                       // 7: no text leaf
    t.add(0, "link", "Home", SHOWN);                        // 8
    t.add(8, "static", "Home", SHOWN | STATE_FOCUSED);      // 9: focused
    auto s = t.snapshot();
    s.elements[3].level = 2;
    const auto v = project(s, full());
    EXPECT_EQ(v.unlisted, 2);
    EXPECT_EQ(view_text(s, v), "[0] document_web \"Docs\"\n"
                               "  [1] link \"Install\"\n"
                               "  [3] heading \"Usage\" level=2\n"
                               "  [5] link \"Next\"\n"
                               "    [6] static \"Next page\"\n"
                               "    [7] image \"Next\"\n"
                               "  [8] link \"Home\"\n"
                               "    [9] static \"Home\" (focused)\n");
    // Drilled into, it is the view's root and has its line.
    EXPECT_EQ(view_text(s, project(s, full(2))), "[2] static \"Install\"\n");
}

// A page's `<li><a>`: the item says nothing the link does not, so the link's line (and what lies
// below it) takes the item's place. An item with more in it, or a state, keeps its line, and so
// does a native window's item (what a click there selects).
TEST(FullView, APagesListItemAroundOneControlReadsAsTheControl)
{
    constexpr std::uint32_t SHOWN = nd_test::PLAIN | STATE_SHOWING;
    TreeBuilder t;
    t.add(-1, "frame", "Browser");                          // 0
    t.add(0, "document_web", "Docs", SHOWN);                // 1
    t.add(1, "list", "", SHOWN);                            // 2
    t.add(2, "list_item", "", SHOWN);                       // 3: no line
    t.add(3, "link", "Install", SHOWN);                     // 4
    t.add(4, "static", "Install", SHOWN);                   // 5: repeats the link: no line
    t.add(2, "list_item", "", SHOWN);                       // 6: no line
    t.add(6, "link", "Home", SHOWN);                        // 7
    t.add(7, "image", "Logo", SHOWN);                       // 8: up with the link
    t.add(2, "list_item", "", SHOWN);                       // 9: a link and a list: kept
    t.add(9, "link", "Guide", SHOWN);                       // 10
    t.add(9, "list", "", SHOWN);                            // 11
    t.add(2, "list_item", "", SHOWN | STATE_SELECTED);      // 12: selected: kept
    t.add(12, "link", "Current", SHOWN);                    // 13
    t.add(0, "list", "", SHOWN);                            // 14: a native window's list
    t.add(14, "list_item", "", SHOWN);                      // 15: kept
    t.add(15, "push_button", "Open", SHOWN);                // 16
    const auto s = t.snapshot();
    const auto v = project(s, full());
    EXPECT_EQ(v.unlisted, 3);
    EXPECT_EQ(view_text(s, v), "[0] frame \"Browser\"\n"
                               "  [1] document_web \"Docs\"\n"
                               "    [2] list \"\"\n"
                               "      [4] link \"Install\"\n"
                               "      [7] link \"Home\"\n"
                               "        [8] image \"Logo\"\n"
                               "      [9] list_item \"\"\n"
                               "        [10] link \"Guide\"\n"
                               "        [11] list \"\"\n"
                               "      [12] list_item \"\" (selected)\n"
                               "        [13] link \"Current\"\n"
                               "  [14] list \"\"\n"
                               "    [15] list_item \"\"\n"
                               "      [16] push_button \"Open\"\n");
    expect_consistent(v);
}

// Qt keeps a tab widget's other pages in the tree, neither visible nor showing (STATE_HIDDEN): a
// full view's text lists the hidden page itself, saying so and how much lies below it, and no line
// for what does; the skeleton has no row for it or anything inside it. A drill-down into the
// hidden page lists it whole. A window whose root reads hidden (a toolkit that never says visible)
// hides nothing.
TEST(HiddenPages, AreOneLineInFullTextsAndNoRowsOfTheSkeleton)
{
    constexpr std::uint32_t HIDDEN = STATE_ENABLED | STATE_HIDDEN;
    TreeBuilder t;
    t.add(-1, "dialog", "Tab Dialog");             // 0
    t.add(0, "page_tab_list", "General");          // 1
    t.add(1, "page_tab", "General");               // 2
    t.add(1, "page_tab", "Permissions");           // 3
    t.add(0, "filler", "");                        // 4: the page that shows
    t.add(4, "label", "File Name:");               // 5
    t.add(4, "panel", "Details");                  // 6
    t.add(6, "label", "Size: 4 K");                // 7
    t.add(0, "filler", "", HIDDEN);                // 8: a page that does not
    t.add(8, "panel", "Permissions", HIDDEN);      // 9
    t.add(9, "check_box", "Readable", HIDDEN);     // 10
    t.add(9, "check_box", "Writable", HIDDEN);     // 11
    t.add(9, "check_box", "Executable", HIDDEN);   // 12
    t.add(8, "list", "");                          // 13: Qt's lists say visible inside hidden pages
    t.add(13, "list_item", "Application 1");       // 14
    const auto s = t.snapshot();

    const auto v = project(s, full());
    ASSERT_EQ(v.rows.size(), s.elements.size()) << "the rows keep them";
    EXPECT_EQ(v.unlisted, 6);
    const auto text = view_text(s, v);
    EXPECT_NE(text.find("[8] filler \"\" (hidden) descendants=6\n"), std::string::npos) << text;
    expect_lines(text, {"[9] ", "[10] ", "[13] ", "[14] "}, {"[0] ", "[3] ", "[5] ", "[6] ", "[7] "});

    std::vector<std::int32_t> skeleton_rows;
    for (const auto& r : project(s, skeleton()).rows)
        skeleton_rows.push_back(r.index);
    EXPECT_EQ(skeleton_rows, (std::vector<std::int32_t>{0, 1, 6}));

    // Drilled into, the hidden page is listed whole.
    const auto page = project(s, full(8));
    EXPECT_EQ(page.unlisted, 0);
    const auto page_text = view_text(s, page);
    EXPECT_NE(page_text.find("[8] filler \"\" (hidden)\n"), std::string::npos) << page_text;
    EXPECT_NE(page_text.find("[10] check_box \"Readable\""), std::string::npos) << page_text;

    // A toolkit that never says visible: its root reads hidden, and nothing is hidden.
    auto blind = s;
    for (auto& e : blind.elements)
        e.states |= STATE_HIDDEN;
    EXPECT_EQ(project(blind, full()).unlisted, 0);
    EXPECT_EQ(project(blind, skeleton()).rows.size(), 5u) << "0, 1, 6, the Permissions panel and the list";
}

// Chromium keeps dozens of hidden, unnamed buttons in its toolbar, each with an unnamed image: a
// hidden element whose whole subtree says nothing (no name, text, description, focus or secure
// field) has no line either, nor what lies inside it; one with anything said below keeps its line.
TEST(HiddenPages, ThoseThatSayNothingHaveNoLine)
{
    constexpr std::uint32_t HIDDEN = STATE_ENABLED | STATE_HIDDEN;
    TreeBuilder t;
    t.add(-1, "frame", "Browser");                 // 0
    t.add(0, "tool_bar", "");                      // 1
    t.add(1, "push_button", "", HIDDEN);           // 2: says nothing
    t.add(2, "image", "", HIDDEN);                 // 3
    t.add(1, "push_button", "", HIDDEN);           // 4: its image has a description
    t.add(4, "image", "", HIDDEN);                 // 5
    t.add(1, "push_button", "Reload");             // 6
    t.add(1, "panel", "", HIDDEN);                 // 7: a secure field inside
    t.add(7, "password_text", "", HIDDEN | STATE_SECURE); // 8
    auto s = t.snapshot();
    s.elements[5].description = "Downloads";
    const auto v = project(s, full());
    EXPECT_EQ(v.unlisted, 4) << "2, 3 and what lies in 4 and 7";
    const auto text = view_text(s, v);
    expect_lines(text, {"[2] ", "[3] ", "[5] ", "[8] "}, {});
    EXPECT_NE(text.find("[4] push_button \"\" (hidden) descendants=1\n"), std::string::npos) << text;
    EXPECT_NE(text.find("[7] panel \"\" (hidden) descendants=1\n"), std::string::npos) << text;
    EXPECT_NE(text.find("[6] push_button \"Reload\""), std::string::npos) << text;
    // Drilled into, it is listed.
    EXPECT_NE(view_text(s, project(s, full(2))).find("[2] push_button"), std::string::npos);
}

TEST(FullView, MaxElementsCutsInPreorder)
{
    const auto s = sample_tree().snapshot();
    const auto v = project(s, full(0, 5));
    EXPECT_TRUE(v.truncated);
    EXPECT_EQ(rows(v), (std::vector<Row>{{0, -1, 0}, {1, 0, 1}, {2, 1, 2}, {3, 1, 2}, {4, 0, 1}}));
}

TEST(FullView, MaxElementsThatFitExactlyIsNotTruncated)
{
    const auto s = sample_tree().snapshot();
    const auto v = project(s, full(0, s.size()));
    EXPECT_FALSE(v.truncated);
    EXPECT_EQ(static_cast<std::int32_t>(v.rows.size()), s.size());
}

TEST(FullView, MaxDepthCutsDeeperLevels)
{
    const auto s = sample_tree().snapshot();
    const auto v = project(s, full(0, 250, 1));
    EXPECT_TRUE(v.truncated);
    EXPECT_EQ(rows(v),
        (std::vector<Row>{{0, -1, 0}, {1, 0, 1}, {4, 0, 1}, {9, 0, 1}, {13, 0, 1}, {14, 0, 1}, {15, 0, 1}}));
    // The deepest element (the push_button "Go") is 6 levels below the window.
    EXPECT_FALSE(project(s, full(0, 250, 6)).truncated);
    EXPECT_TRUE(project(s, full(0, 250, 5)).truncated);
}

TEST(FullView, MaxDepthZeroIsTheRootAlone)
{
    const auto s = sample_tree().snapshot();
    const auto v = project(s, full(0, 250, 0));
    EXPECT_TRUE(v.truncated);
    EXPECT_EQ(rows(v), (std::vector<Row>{{0, -1, 0}}));
}

TEST(FullView, LimitsCountFromTheRoot)
{
    const auto s = sample_tree().snapshot();
    // Drill into the filler "Deep": depths are relative to it and the root has no parent.
    auto v = project(s, full(15, 250, 2));
    EXPECT_EQ(v.root, 15);
    EXPECT_TRUE(v.truncated);
    EXPECT_EQ(rows(v), (std::vector<Row>{{15, -1, 0}, {16, 15, 1}, {17, 16, 2}}));
    expect_consistent(v);

    v = project(s, full(15, 3, 25));
    EXPECT_TRUE(v.truncated);
    EXPECT_EQ(rows(v), (std::vector<Row>{{15, -1, 0}, {16, 15, 1}, {17, 16, 2}}));

    // The root's own subtree only: nothing of its siblings.
    v = project(s, full(4));
    EXPECT_FALSE(v.truncated);
    EXPECT_EQ(rows(v), (std::vector<Row>{{4, -1, 0}, {5, 4, 1}, {6, 5, 2}, {7, 6, 3}, {8, 5, 2}}));

    // A leaf as root.
    v = project(s, full(20));
    EXPECT_FALSE(v.truncated);
    EXPECT_EQ(rows(v), (std::vector<Row>{{20, -1, 0}}));
}

TEST(FullView, ARootOutsideTheSnapshotGivesNoRows)
{
    const auto s = sample_tree().snapshot();
    for (std::int32_t root : {-1, s.size(), s.size() + 100}) {
        const auto v = project(s, full(root));
        EXPECT_TRUE(v.rows.empty()) << root;
        const auto k = project(s, skeleton(root));
        EXPECT_TRUE(k.rows.empty()) << root;
    }
}

TEST(SkeletonRule, LandmarkRolesOfTheContract)
{
    for (auto role : {"tool_bar", "menu_bar", "status_bar", "tablist", "list", "list_box", "tree", "table",
             "tree_table", "document", "split_pane", "scroll_pane", "landmark", "navigation", "form", "article",
             "header", "footer", "info_bar", "notification", "dialog"})
        EXPECT_TRUE(is_landmark_role(role)) << role;
    for (auto role : {"push_button", "label", "text", "list_item", "panel", "frame", "", "Tool_Bar"})
        EXPECT_FALSE(is_landmark_role(role)) << role;
}

TEST(SkeletonRule, GenericContainerRolesOfTheContract)
{
    for (auto role : {"panel", "filler", "section", "group", "grouping", "layered_pane", "internal_frame", "viewport",
             "tab"})
        EXPECT_TRUE(is_generic_container_role(role)) << role;
    for (auto role : {"push_button", "tool_bar", "label", "", "Panel"})
        EXPECT_FALSE(is_generic_container_role(role)) << role;
}

TEST(SkeletonRule, Qualifies)
{
    auto element = [](std::string role, std::string name, std::int32_t children, std::uint32_t states = nd_test::PLAIN) {
        Element e;
        e.role = std::move(role);
        e.name = std::move(name);
        e.child_count = children;
        e.states = states;
        return e;
    };
    EXPECT_TRUE(qualifies_for_skeleton(element("tool_bar", "", 2)));     // a landmark needs no name
    EXPECT_FALSE(qualifies_for_skeleton(element("tool_bar", "Tools", 0))); // but children
    EXPECT_TRUE(qualifies_for_skeleton(element("panel", "Sidebar", 1)));
    EXPECT_FALSE(qualifies_for_skeleton(element("panel", "", 3)));         // a generic container needs a name
    EXPECT_FALSE(qualifies_for_skeleton(element("panel", "Sidebar", 0)));  // and children
    EXPECT_FALSE(qualifies_for_skeleton(element("push_button", "OK", 1))); // neither kind
    EXPECT_FALSE(qualifies_for_skeleton(element("document", "Doc", 4, nd_test::PLAIN | STATE_SECURE)));
    EXPECT_FALSE(qualifies_for_skeleton(element("password_text", "Pin", 1)));
}

TEST(SkeletonView, RowsFollowTheRule)
{
    const auto s = sample_tree().snapshot();
    const auto v = project(s, skeleton());
    EXPECT_EQ(v.kind, ViewKind::skeleton);
    // Depth 4 cuts the internal_frame "G4" (skeleton depth 5).
    EXPECT_TRUE(v.truncated);
    EXPECT_EQ(rows(v), (std::vector<Row>{
                           {0, -1, 0},  // the window
                           {1, 0, 1},   // tool_bar
                           {5, 0, 1},   // list: its unnamed panel is skipped, so its parent is the window
                           {9, 0, 1},   // named panel
                           {15, 0, 1},  // filler
                           {16, 15, 2}, // group
                           {17, 16, 3}, // grouping
                           {18, 17, 4}, // layered_pane
                       }));
    expect_consistent(v);
}

// An unnamed skeleton row says which names it holds (the first three, each once, none hidden or
// secure, and whether there are more), so a model can tell its groups apart without drilling
// into each; a named row and the root say nothing more.
TEST(SkeletonView, AnUnnamedRowSaysWhatItHolds)
{
    constexpr std::uint32_t HIDDEN = STATE_ENABLED | STATE_HIDDEN;
    TreeBuilder t;
    t.add(-1, "frame", "Editor");                         // 0
    t.add(0, "filler", "");                               // 1: a group of controls
    t.add(1, "push_button", "Open");                      // 2
    t.add(2, "label", "Open");                            // 3: the same name again
    t.add(1, "password_text", "Secret", STATE_SECURE);    // 4: secure
    t.add(1, "push_button", "Undo", HIDDEN);              // 5: hidden
    t.add(1, "push_button", "New tab");                   // 6
    t.add(1, "push_button", "A name far longer than a hint may be"); // 7
    t.add(1, "push_button", "Menu");                      // 8: a fourth
    t.add(0, "panel", "Status");                          // 9: named
    t.add(9, "push_button", "Retry");                     // 10
    t.add(9, "push_button", "Close");                     // 11
    t.add(9, "push_button", "Help");                      // 12
    const auto s = t.snapshot();
    const auto v = project(s, skeleton());
    const ViewRow* group = nullptr;
    const ViewRow* status = nullptr;
    for (const auto& r : v.rows) {
        if (r.index == 1)
            group = &r;
        if (r.index == 9)
            status = &r;
        if (r.index == 0) {
            EXPECT_TRUE(r.holds.empty());
        }
    }
    ASSERT_NE(group, nullptr);
    EXPECT_EQ(group->holds, (std::vector<std::string>{"Open", "New tab", "A name far longer than a hint may be"}));
    EXPECT_TRUE(group->holds_more);
    ASSERT_NE(status, nullptr);
    EXPECT_TRUE(status->holds.empty());
    const auto text = view_text(s, v);
    EXPECT_NE(text.find("[1] filler \"\" children=6 descendants=7 holds \"Open\", \"New tab\", \"A name far longer than \u2026\", \u2026\n"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("Secret"), std::string::npos) << text;
    EXPECT_EQ(text.find("Undo"), std::string::npos) << text;
}

TEST(SkeletonView, NeverListsSecureFields)
{
    const auto s = sample_tree().snapshot();
    const auto v = project(s, skeleton(0, SKELETON_MAX_ELEMENTS, 100));
    for (const auto& r : v.rows) {
        EXPECT_FALSE(s.elements[r.index].secure()) << r.index;
        EXPECT_NE(r.index, 11);
        EXPECT_NE(r.index, 12); // the label inside is not a container either
    }
}

TEST(SkeletonView, DeepEnoughShowsEverythingThatQualifies)
{
    const auto s = sample_tree().snapshot();
    const auto v = project(s, skeleton(0, SKELETON_MAX_ELEMENTS, 5));
    EXPECT_FALSE(v.truncated);
    ASSERT_EQ(v.rows.size(), 9u);
    EXPECT_EQ(rows(v).back(), (Row{19, 18, 5}));
}

TEST(SkeletonView, MaxElementsCuts)
{
    const auto s = sample_tree().snapshot();
    auto v = project(s, skeleton(0, 3, 100));
    EXPECT_TRUE(v.truncated);
    EXPECT_EQ(rows(v), (std::vector<Row>{{0, -1, 0}, {1, 0, 1}, {5, 0, 1}}));

    // Exactly as many rows as qualify: not truncated.
    v = project(s, skeleton(0, 9, 100));
    EXPECT_FALSE(v.truncated);
    EXPECT_EQ(v.rows.size(), 9u);
}

TEST(SkeletonView, MaxDepthCuts)
{
    const auto s = sample_tree().snapshot();
    auto v = project(s, skeleton(0, 60, 1));
    EXPECT_TRUE(v.truncated);
    EXPECT_EQ(rows(v), (std::vector<Row>{{0, -1, 0}, {1, 0, 1}, {5, 0, 1}, {9, 0, 1}, {15, 0, 1}}));

    v = project(s, skeleton(0, 60, 0));
    EXPECT_TRUE(v.truncated);
    EXPECT_EQ(rows(v), (std::vector<Row>{{0, -1, 0}}));
}

TEST(SkeletonView, FromARoot)
{
    const auto s = sample_tree().snapshot();
    // Skeleton depth counts from the root: the chain under "Deep" fits in 4 levels now.
    auto v = project(s, skeleton(15));
    EXPECT_FALSE(v.truncated);
    EXPECT_EQ(rows(v), (std::vector<Row>{{15, -1, 0}, {16, 15, 1}, {17, 16, 2}, {18, 17, 3}, {19, 18, 4}}));

    // A root that would not qualify itself (unnamed panel) is still the first row.
    v = project(s, skeleton(4));
    EXPECT_EQ(rows(v), (std::vector<Row>{{4, -1, 0}, {5, 4, 1}}));

    // A leaf root.
    v = project(s, skeleton(2));
    EXPECT_EQ(rows(v), (std::vector<Row>{{2, -1, 0}}));
    EXPECT_FALSE(v.truncated);
}

TEST(SkeletonView, NestedSkippedContainersLinkToTheNearestRow)
{
    // frame > panel(unnamed) > filler(unnamed) > list > section "S" > push_button
    TreeBuilder t;
    t.add(-1, "frame", "W");
    t.add(0, "panel");
    t.add(1, "filler");
    t.add(2, "list", "L");
    t.add(3, "panel"); // unnamed: skipped
    t.add(4, "section", "S");
    t.add(5, "push_button", "B");
    const auto s = t.snapshot();
    const auto v = project(s, skeleton());
    EXPECT_EQ(rows(v), (std::vector<Row>{{0, -1, 0}, {3, 0, 1}, {5, 3, 2}}));
}

TEST(SkeletonView, ADocumentNoOneSeesIsOneRowWithoutItsLandmarks)
{
    // Firefox keeps a preloaded New Tab page beside the page on screen, neither showing nor visible.
    TreeBuilder t;
    t.add(-1, "frame", "Docs - Mozilla Firefox");
    t.add(0, "scroll_pane");                     // 1
    t.add(1, "document_web", "Docs");            // 2: on screen
    t.add(2, "landmark", "main");                // 3
    t.add(3, "push_button", "Go");
    const auto hidden = nd_core::STATE_ENABLED;  // no showing
    t.add(0, "scroll_pane", "", hidden);         // 5
    t.add(5, "document_web", "New Tab", hidden); // 6: in the background
    t.add(6, "landmark", "main", hidden);        // 7
    t.add(7, "panel", "Shortcuts", hidden);      // 8
    t.add(8, "link", "x", hidden);
    const auto s = t.snapshot();
    // The scroll panes are wrappers of one page each: the pages take their rows.
    EXPECT_EQ(rows(project(s, skeleton())), (std::vector<Row>{{0, -1, 0}, {2, 0, 1}, {3, 2, 2}, {6, 0, 1}}));
    // Drilled into, it shows what it holds.
    EXPECT_EQ(rows(project(s, skeleton(6))), (std::vector<Row>{{6, -1, 0}, {7, 6, 1}, {8, 7, 2}}));
    // A frame of the page (an iframe scrolled out of view) is part of what a person scrolls to.
    TreeBuilder f;
    f.add(-1, "frame", "Page - Chromium");
    f.add(0, "document_web", "Page");            // 1
    f.add(1, "document_web", "Embedded", hidden); // 2: below the fold
    f.add(2, "landmark", "main", hidden);        // 3
    f.add(3, "push_button", "Go", hidden);
    EXPECT_EQ(rows(project(f.snapshot(), skeleton())), (std::vector<Row>{{0, -1, 0}, {1, 0, 1}, {2, 1, 2}, {3, 2, 3}}));
    // A window that does not show itself (a toolkit that sets no showing) keeps every document's rows.
    TreeBuilder u;
    u.add(-1, "frame", "W", hidden);
    u.add(0, "document_web", "D", hidden);
    u.add(1, "landmark", "main", hidden);
    u.add(2, "push_button", "Go", hidden);
    EXPECT_EQ(rows(project(u.snapshot(), skeleton())), (std::vector<Row>{{0, -1, 0}, {1, 0, 1}, {2, 1, 2}}));
}

TEST(SkeletonView, AWrapperGivesWayToTheRowItHolds)
{
    // Firefox: frame > scroll_pane "" > internal_frame "" > document > main > region > list.
    // Chromium has neither wrapper, and both read the list within the default 4 levels.
    TreeBuilder t;
    t.add(-1, "frame", "Widgets - Mozilla Firefox");
    t.add(0, "scroll_pane");              // 1: one child, whose subtree holds one row: a wrapper
    t.add(1, "internal_frame");           // 2: unnamed, no row anyway
    t.add(2, "document_web", "Widgets");  // 3
    t.add(3, "landmark", "main");         // 4
    t.add(4, "landmark", "Listbox");      // 5
    t.add(5, "list_box", "Fruit");        // 6
    t.add(6, "list_item", "Apple");
    t.add(0, "scroll_pane");              // 8: three children (content and two scroll bars): a row
    t.add(8, "table");                    // 9
    t.add(9, "table_cell", "x");
    t.add(8, "scroll_bar");
    t.add(8, "scroll_bar");
    t.add(0, "scroll_pane", "Named");     // 13: a name is worth a row
    t.add(13, "list", "L");               // 14
    t.add(14, "list_item", "y");
    t.add(0, "tool_bar");                 // 16: holds two rows: a row
    t.add(16, "panel", "A");
    t.add(17, "push_button", "a");
    t.add(16, "panel", "B");
    t.add(19, "push_button", "b");
    const auto v = project(t.snapshot(), skeleton());
    EXPECT_FALSE(v.truncated);
    EXPECT_EQ(rows(v), (std::vector<Row>{{0, -1, 0}, {3, 0, 1}, {4, 3, 2}, {5, 4, 3}, {6, 5, 4}, {8, 0, 1}, {9, 8, 2},
                           {13, 0, 1}, {14, 13, 2}, {16, 0, 1}, {17, 16, 2}, {19, 16, 2}}));
    expect_consistent(v);
    // Drilled into from the wrapper, it is the view's root and so a row.
    EXPECT_EQ(rows(project(t.snapshot(), skeleton(1))), (std::vector<Row>{{1, -1, 0}, {3, 1, 1}, {4, 3, 2}, {5, 4, 3}, {6, 5, 4}}));
}

TEST(SkeletonView, ASelectsPopupIsNoRegion)
{
    // Qt: each combo box holds the list of its options, closed or not.
    TreeBuilder t;
    t.add(-1, "filler", "Line Edits");
    t.add(0, "panel", "Echo");            // 1
    t.add(1, "label", "Mode:");
    t.add(1, "combo_box", "Normal");      // 3
    t.add(3, "list");                     // 4: the popup's list
    t.add(4, "list_item", "Normal");
    t.add(4, "list_item", "Password");
    t.add(1, "list", "Recent");           // 7: a list of the window's own
    t.add(7, "list_item", "a");
    EXPECT_EQ(rows(project(t.snapshot(), skeleton())), (std::vector<Row>{{0, -1, 0}, {1, 0, 1}, {7, 1, 2}}));
    // Drilled into, the combo box shows its list.
    EXPECT_EQ(rows(project(t.snapshot(), skeleton(3))), (std::vector<Row>{{3, -1, 0}, {4, 3, 1}}));
}

// A native window whose regions are unnamed containers (gnome-calculator, GTK 4): its header bar
// and its keypad are groups of controls and rows of their own; the boxes that only wrap them are
// none, nor is anything inside a document, a control or a popup.
TEST(SkeletonView, UnnamedGroupsOfControlsAreRowsAfterNamedOnes)
{
    TreeBuilder t;
    t.add(-1, "frame", "Calculator");
    t.add(0, "panel");                       // 1: wraps all: the groups below give it nothing
    t.add(1, "panel");                       // 2: the header bar: Undo, Mode, Menu loose in it
    t.add(2, "filler");                      // 3
    t.add(3, "push_button", "Undo");         // 4
    t.add(2, "push_button", "Mode");         // 5
    t.add(5, "push_button", "Basic");        // 6: inside a control: not counted
    t.add(2, "filler");                      // 7: one control and a group: no group of its own
    t.add(7, "push_button", "Menu");         // 8
    t.add(7, "panel");                       // 9: the window's buttons
    t.add(9, "push_button", "Minimize");
    t.add(9, "push_button", "Maximize");
    t.add(9, "push_button", "Close");
    t.add(1, "panel");                       // 13: a wrapper of the keypad
    t.add(13, "panel");                      // 14: the keypad
    for (const char* digit : {"7", "8", "9", "4"})
        t.add(14, "push_button", digit);     // 15-18
    t.add(1, "panel");                       // 19: two controls only
    t.add(19, "text", "", nd_test::PLAIN | STATE_EDITABLE);
    t.add(19, "check_box", "Exact");
    t.add(1, "panel", "Named");              // 22: a named container ranks before the groups
    t.add(22, "label", "x");
    t.add(1, "document_web", "Help");        // 24
    t.add(24, "section");                    // 25: a group of links in a page, as in a window
    for (const char* link : {"a", "b", "c"})
        t.add(25, "link", link);
    t.add(1, "menu");                        // 29: a popup's items
    for (const char* item : {"Cut", "Copy", "Paste"})
        t.add(29, "push_button", item);
    const auto v = project(t.snapshot(), skeleton());
    EXPECT_EQ(rows(v),
              (std::vector<Row>{{0, -1, 0}, {2, 0, 1}, {9, 2, 2}, {14, 0, 1}, {22, 0, 1}, {24, 0, 1}, {25, 24, 2}}));
    expect_consistent(v);
    // The named container and the landmark come first when rows run short.
    EXPECT_EQ(rows(project(t.snapshot(), skeleton(0, 3))), (std::vector<Row>{{0, -1, 0}, {22, 0, 1}, {24, 0, 1}}));

    // Chromium: a box holds the toolbar and the page beside the window's buttons. It holds
    // regions, so it is no group: the page stays where the skeleton's levels reach it.
    TreeBuilder b;
    b.add(-1, "frame", "Chat - Chromium");
    b.add(0, "panel");                       // 1
    for (const char* name : {"Minimize", "Maximize", "Close"})
        b.add(1, "push_button", name);
    b.add(1, "tool_bar");                    // 5
    b.add(5, "push_button", "Back");
    b.add(1, "document_web", "Chat");        // 7
    b.add(7, "landmark", "main");            // 8
    b.add(8, "push_button", "Send");
    EXPECT_EQ(rows(project(b.snapshot(), skeleton())), (std::vector<Row>{{0, -1, 0}, {5, 0, 1}, {7, 0, 1}, {8, 7, 2}}));
}

// Groups are unnamed, so alike only by shape: three unlike groups side by side stay three rows.
TEST(SkeletonView, UnnamedGroupsFoldOnlyByShape)
{
    TreeBuilder t;
    t.add(-1, "frame", "Factory");
    t.add(0, "filler");                      // 1: radios
    for (const char* name : {"Page 1", "Page 2", "Page 3"})
        t.add(1, "radio_button", name);
    t.add(0, "filler");                      // 5: entries
    for (int k = 0; k < 3; ++k)
        t.add(5, "text", "", nd_test::PLAIN | STATE_EDITABLE);
    t.add(0, "filler");                      // 9: buttons
    for (const char* name : {"a", "b", "c"})
        t.add(9, "push_button", name);
    EXPECT_EQ(rows(project(t.snapshot(), skeleton())), (std::vector<Row>{{0, -1, 0}, {1, 0, 1}, {5, 0, 1}, {9, 0, 1}}));
}

// A documentation page: headings in a landmark, one in a wrapper (Wikipedia's `mw-heading` box),
// one in the footer, one unnamed, and a heading of the window outside any document.
//  0 frame "Docs"
//    1 document_web "Docs"
//      2 landmark "main"
//        3 heading "Intro" (1)
//          4 static "Intro"
//        5 paragraph
//          6 static "Welcome"
//        7 section ""                  a wrapper: no row
//          8 heading "Install" (2)
//            9 static "Install"
//        10 paragraph
//        11 heading "From source" (3)
//        12 paragraph
//        13 heading "Usage" (2)
//        14 paragraph
//      15 landmark "contentinfo"
//        16 heading "Footer" (2)
//        17 heading "" (2)             unnamed: no row
//    18 heading "Native"               outside a document: no row
TreeBuilder doc_page()
{
    TreeBuilder t;
    t.add(-1, "frame", "Docs");
    t.add(0, "document_web", "Docs");
    t.add(1, "landmark", "main");
    auto heading = [&t](std::int32_t parent, const char* name, std::int32_t level) {
        const auto h = t.add(parent, "heading", name);
        t.at(h).level = level;
        return h;
    };
    heading(2, "Intro", 1);
    t.add(3, "static", "Intro");
    t.add(2, "paragraph");
    t.add(5, "static", "Welcome");
    t.add(2, "section");
    heading(7, "Install", 2);
    t.add(8, "static", "Install");
    t.add(2, "paragraph");
    heading(2, "From source", 3);
    t.add(2, "paragraph");
    heading(2, "Usage", 2);
    t.add(2, "paragraph");
    t.add(1, "landmark", "contentinfo");
    heading(15, "Footer", 2);
    heading(15, "", 2);
    t.add(0, "heading", "Native");
    return t;
}

TEST(Outline, APagesNamedHeadingsAreSkeletonRowsTopLevelsFirst)
{
    const auto s = doc_page().snapshot();
    const auto v = project(s, skeleton());
    EXPECT_EQ(rows(v), (std::vector<Row>{{0, -1, 0}, {1, 0, 1}, {2, 1, 2}, {3, 2, 3}, {8, 2, 3}, {11, 2, 3},
                           {13, 2, 3}, {15, 1, 2}, {16, 15, 3}}));
    expect_consistent(v);
    // When rows run short, landmarks come first, then headings by level, each level in page order.
    EXPECT_EQ(rows(project(s, skeleton(0, 6))),
              (std::vector<Row>{{0, -1, 0}, {1, 0, 1}, {2, 1, 2}, {3, 2, 3}, {8, 2, 3}, {15, 1, 2}}));
    EXPECT_TRUE(project(s, skeleton(0, 6)).truncated);
}

TEST(Outline, ADrillDownFromAHeadingReadsItsSection)
{
    const auto s = doc_page().snapshot();
    EXPECT_EQ(section_end(s, 8), 13) << "Install ends where the next heading of level 2 begins";
    // Its section: the heading, and what follows it up to Usage, each row under its parent when
    // that is a row of the view.
    EXPECT_EQ(rows(project(s, full(8))), (std::vector<Row>{{8, -1, 0}, {9, 8, 1}, {10, -1, 0}, {11, -1, 0}, {12, -1, 0}}));
    EXPECT_EQ(rows(project(s, full(11))), (std::vector<Row>{{11, -1, 0}, {12, -1, 0}})) << "a deeper level ends sooner";
    EXPECT_EQ(rows(project(s, full(13))), (std::vector<Row>{{13, -1, 0}, {14, -1, 0}})) << "never past its landmark";
    EXPECT_EQ(section_end(s, 3), 15) << "the top heading holds the rest of main";
    EXPECT_EQ(rows(project(s, full(3))).size(), 12u);
    EXPECT_EQ(rows(project(s, full(16))), (std::vector<Row>{{16, -1, 0}})) << "a heading of its level, even unnamed, ends it";
    EXPECT_EQ(rows(project(s, full(18))), (std::vector<Row>{{18, -1, 0}})) << "outside a document: its own subtree";
    EXPECT_EQ(section_end(s, 2), 15) << "no heading: its subtree";
    // The limits hold as for any drill-down.
    const auto cut = project(s, full(8, 2));
    EXPECT_EQ(rows(cut), (std::vector<Row>{{8, -1, 0}, {9, 8, 1}}));
    EXPECT_TRUE(cut.truncated);
    const auto shallow = project(s, full(8, 250, 0));
    EXPECT_EQ(rows(shallow), (std::vector<Row>{{8, -1, 0}, {10, -1, 0}, {11, -1, 0}, {12, -1, 0}}));
    EXPECT_TRUE(shallow.truncated);
    // A heading whose level the toolkit did not give ends at the next heading of any level.
    auto t = doc_page();
    t.at(8).level = 0;
    EXPECT_EQ(section_end(t.snapshot(), 8), 11);
}

// A manual's bullet lists and tables of options are its text: after its headings. A native
// window's unnamed list is a region of the window, as before.
TEST(Outline, APagesUnnamedListsAndTablesComeAfterItsHeadings)
{
    TreeBuilder t;
    t.add(-1, "frame", "Manual");
    t.add(0, "document_web", "Manual");                 // 1
    const auto main = t.add(1, "landmark", "main");     // 2
    for (const char* name : {"Options", "Files"}) {
        const auto list = t.add(main, "list");          // 3, 7: unnamed content
        t.add(list, "list_item", "-v");
        const auto h = t.add(main, "heading", name);    // 5, 9
        t.at(h).level = 2;
        t.add(main, "paragraph");
    }
    const auto table = t.add(main, "table", "Flags");   // 11: named: a landmark
    t.add(table, "table_cell", "x");
    t.add(0, "list");                                   // 13: a native list
    t.add(13, "list_item", "row");
    t.add(0, "panel", "Status");                        // 15: a named container
    t.add(15, "label", "ok");
    const auto s = t.snapshot();
    // Landmarks (the native list and the named table among them), the named container, the
    // headings, then the page's unnamed lists.
    EXPECT_EQ(rows(project(s, skeleton(0, 8))),
              (std::vector<Row>{{0, -1, 0}, {1, 0, 1}, {2, 1, 2}, {5, 2, 3}, {9, 2, 3}, {11, 2, 3}, {13, 0, 1}, {15, 0, 1}}));
    EXPECT_EQ(rows(project(s, skeleton(0, 9))).size(), 9u);
    EXPECT_EQ(rows(project(s, skeleton(0, 9)))[3].index, 3) << "the first unnamed list comes next";
}

// A region named by its heading (`<section aria-labelledby>`) is the heading's row already.
TEST(Outline, ARegionNamedByItsHeadingIsItsOnlyRow)
{
    TreeBuilder t;
    t.add(-1, "frame", "MDN");
    t.add(0, "document_web", "MDN");
    const auto main = t.add(1, "landmark", "main");
    const auto region = t.add(main, "landmark", "Syntax"); // 3
    t.at(t.add(region, "heading", "Syntax")).level = 2;   // 4: the region's name
    t.at(t.add(region, "heading", "Parameters")).level = 3; // 5
    t.add(region, "paragraph");
    EXPECT_EQ(rows(project(t.snapshot(), skeleton())),
              (std::vector<Row>{{0, -1, 0}, {1, 0, 1}, {2, 1, 2}, {3, 2, 3}, {5, 3, 4}}));
}

// A list of cards, each with its heading: a card's section is the rest of its card, not the next
// card's box; and a chapter's section leaves out the box around the next chapter's heading.
TEST(Outline, ASectionEndsBeforeTheBoxOfTheNextHeading)
{
    TreeBuilder t;
    t.add(-1, "frame", "Results");
    t.add(0, "document_web", "Results");                // 1
    const auto list = t.add(1, "list", "Results");      // 2
    for (const char* name : {"First", "Second"}) {
        const auto card = t.add(list, "list_item");     // 3, 7
        t.at(t.add(card, "heading", name)).level = 3;   // 4, 8
        t.add(card, "paragraph");                       // 5, 9
        t.add(card, "link", "More");                    // 6, 10
    }
    const auto s = t.snapshot();
    EXPECT_EQ(section_end(s, 4), 7) << "the first card's heading reads the rest of its card";
    EXPECT_EQ(rows(project(s, full(4))), (std::vector<Row>{{4, -1, 0}, {5, -1, 0}, {6, -1, 0}}));
    EXPECT_EQ(section_end(s, 8), 11) << "the last card's, to the end of the list";

    TreeBuilder w; // a wiki: each chapter's heading in a box with its permalink
    w.add(-1, "frame", "Wiki");
    w.add(0, "document_web", "Wiki");                   // 1
    for (const char* name : {"History", "Geography"}) {
        const auto box = w.add(1, "section");           // 2, 6
        w.at(w.add(box, "heading", name)).level = 2;    // 3, 7
        w.add(box, "link", "edit");                     // 4, 8
        w.add(1, "paragraph");                          // 5, 9
    }
    EXPECT_EQ(section_end(w.snapshot(), 3), 6) << "History's section: its edit link and paragraph, not the next box";
    EXPECT_EQ(rows(project(w.snapshot(), full(3))), (std::vector<Row>{{3, -1, 0}, {4, -1, 0}, {5, -1, 0}}));
}

// A word processor's heading paragraphs have no name: their text is their value (LibreOffice
// Writer). They are its outline all the same.
TEST(Outline, AWordProcessorsHeadingsAreRowsByTheirText)
{
    TreeBuilder t;
    t.add(-1, "frame", "Report - Writer");
    t.add(0, "document_text", "Report");                // 1
    for (const char* text : {"Part 1", "Part 2"}) {
        const auto h = t.add(1, "heading");             // 2, 4
        t.at(h).level = 2;
        t.at(h).value = text;
        t.at(t.add(1, "paragraph")).value = "Text.";    // 3, 5
    }
    t.add(1, "heading");                                // 6: no text at all: no row
    const auto s = t.snapshot();
    EXPECT_EQ(rows(project(s, skeleton())), (std::vector<Row>{{0, -1, 0}, {1, 0, 1}, {2, 1, 2}, {4, 1, 2}}));
    EXPECT_EQ(skeleton_label(s.elements[2]), "Part 1");
    EXPECT_EQ(skeleton_label(s.elements[3]), "") << "only a heading shows its text as its label";
    EXPECT_EQ(rows(project(s, full(2))), (std::vector<Row>{{2, -1, 0}, {3, -1, 0}}));
}

TEST(Outline, HeadingsFoldByTheirLabelsOnly)
{
    TreeBuilder t;
    t.add(-1, "frame", "Guide");
    t.add(0, "document_web", "Guide");
    const auto main = t.add(1, "landmark", "main");
    for (const char* name : {"Step 1", "Step 2", "Step 3"}) { // 3-5: alike by label
        const auto h = t.add(main, "heading", name);
        t.at(h).level = 2;
    }
    for (const char* name : {"Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta"}) {
        const auto h = t.add(main, "heading", name); // 6-21: alike by shape, every one a row
        t.at(h).level = 3;
        t.add(h, "static", name);
    }
    const auto v = project(t.snapshot(), skeleton());
    ASSERT_EQ(v.rows.size(), 3u + 1u + 8u);
    EXPECT_EQ(v.rows[3].index, 3);
    EXPECT_EQ(v.rows[3].fold_count, 3);
    EXPECT_EQ(v.rows[3].fold_last, 5);
    for (std::size_t k = 4; k < v.rows.size(); ++k)
        EXPECT_EQ(v.rows[k].fold_count, 0) << v.rows[k].index;
}

TEST(SkeletonView, ViewsShareRowNumbers)
{
    // A row's element_index is its snapshot index in every view, so tokens agree across views.
    const auto s = sample_tree().snapshot();
    const auto f = project(s, full());
    const auto k = project(s, skeleton());
    for (const auto& r : k.rows)
        EXPECT_EQ(f.rows[static_cast<std::size_t>(r.index)].index, r.index);
}

TEST(CutText, ShortTextIsUnchanged)
{
    EXPECT_EQ(cut_text("", 10), "");
    EXPECT_EQ(cut_text("hello", 10), "hello");
    EXPECT_EQ(cut_text("0123456789", 10), "0123456789");
}

TEST(CutText, LongTextEndsWithAnEllipsisThatCounts)
{
    EXPECT_EQ(cut_text("01234567890", 10), "012345678\xE2\x80\xA6");
    EXPECT_EQ(nd_test::utf8_length(cut_text(std::string(500, 'x'), 80)), 80u);
    EXPECT_EQ(cut_text("ab", 1), "\xE2\x80\xA6");
    EXPECT_EQ(cut_text("a", 1), "a");
}

TEST(CutText, CountsCharactersAndNeverSplitsOne)
{
    std::string wide;
    for (int i = 0; i < 12; ++i)
        wide += "\xE2\x82\xAC"; // €
    EXPECT_EQ(cut_text(wide, 12), wide);
    const auto cut = cut_text(wide, 5);
    EXPECT_EQ(cut, "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x80\xA6");
    EXPECT_TRUE(nd_test::valid_utf8(cut));

    std::string mixed = "a\xC3\xA9\xF0\x9F\x98\x80" "b\xE2\x82\xAC" "cdef";
    for (std::int32_t max = 1; max <= 10; ++max) {
        const auto out = cut_text(mixed, max);
        EXPECT_TRUE(nd_test::valid_utf8(out)) << max;
        EXPECT_LE(nd_test::utf8_length(out), static_cast<std::size_t>(max)) << max;
    }
    EXPECT_EQ(cut_text(mixed, 3), "a\xC3\xA9\xE2\x80\xA6");
}

// ---- The skeleton on dense pages: landmarks first, runs of alike siblings folded ----------------

namespace {

//  0 frame "Chat"
//    1 landmark "Channels"          landmark
//      2..9  section "N unread"     eight alike sections (digits masked), each with a label
//    a list "Messages"              landmark
//      section "Reactions" x30      thirty alike named groups, each with two toggle buttons
//    form "Composer"                landmark, after all the repeated content in preorder
//      push_button "Send"
//    landmark "Members"             landmark
//      label "Ada"
nd_core::Snapshot chat_page()
{
    TreeBuilder t;
    t.add(-1, "frame", "Chat");
    const auto channels = t.add(0, "landmark", "Channels");
    for (int i = 0; i < 8; ++i) {
        const auto s = t.add(channels, "section", std::to_string(i + 2) + " unread");
        t.add(s, "label", "channel " + std::to_string(i));
    }
    const auto messages = t.add(0, "list", "Messages");
    for (int i = 0; i < 30; ++i) {
        const auto item = t.add(messages, "list_item", "message " + std::to_string(i));
        const auto group = t.add(item, "section", "Reactions");
        t.add(group, "toggle_button", "+1");
        t.add(group, "toggle_button", "heart");
    }
    const auto composer = t.add(0, "form", "Composer");
    t.add(composer, "push_button", "Send");
    const auto members = t.add(0, "landmark", "Members");
    t.add(members, "label", "Ada");
    return t.snapshot();
}

const ViewRow* row_named(const Snapshot& s, const View& v, std::string_view name)
{
    for (const auto& r : v.rows)
        if (s.elements[r.index].name == name)
            return &r;
    return nullptr;
}

} // namespace

TEST(SkeletonDense, RunsOfAlikeSiblingsFoldIntoOneRow)
{
    const auto s = chat_page();
    const auto v = project(s, skeleton());
    // frame, Channels, its fold, Messages, its fold, Composer, Members.
    ASSERT_EQ(v.rows.size(), 7u);
    EXPECT_FALSE(v.truncated);
    const auto* unread = row_named(s, v, "2 unread");
    ASSERT_NE(unread, nullptr);
    EXPECT_EQ(unread->fold_count, 8);
    EXPECT_EQ(s.elements[unread->fold_last].name, "9 unread");
    EXPECT_EQ(unread->parent_index, row_named(s, v, "Channels")->index);
    const auto* reactions = row_named(s, v, "Reactions");
    ASSERT_NE(reactions, nullptr);
    EXPECT_EQ(reactions->fold_count, 30);
    EXPECT_EQ(reactions->depth, 2);
    // The run's last element is the last Reactions group of the page.
    std::int32_t last = -1;
    for (std::int32_t i = 0; i < s.size(); ++i)
        if (s.elements[i].name == "Reactions")
            last = i;
    EXPECT_EQ(reactions->fold_last, last);
}

TEST(SkeletonDense, LandmarksComeBeforeRepeatedContentWhenRowsRunShort)
{
    const auto s = chat_page();
    // Five rows: the root and the four landmarks, though the folds come first in preorder.
    const auto v = project(s, skeleton(0, 5));
    EXPECT_TRUE(v.truncated);
    std::vector<std::string> names;
    for (const auto& r : v.rows)
        names.push_back(s.elements[r.index].name);
    EXPECT_EQ(names, (std::vector<std::string>{"Chat", "Channels", "Messages", "Composer", "Members"}));
    for (const auto& r : v.rows)
        EXPECT_EQ(r.fold_count, 0);
}

TEST(SkeletonDense, FoldsNeedThreeAlikeByLabelOrEightAlikeByShape)
{
    TreeBuilder t;
    t.add(-1, "frame", "W");
    for (const char* name : {"Inbox", "Outbox"}) {
        const auto p = t.add(0, "panel", name);
        t.add(p, "label", "x");
        t.add(p, "push_button", "y");
    }
    for (const char* name : {"A", "B", "C"}) { // alike by shape, but too few for that
        const auto p = t.add(0, "tool_bar", name);
        t.add(p, "push_button", "go");
    }
    for (const char* name : {"a", "b", "c", "d", "e", "f", "g", "h"}) { // eight alike by shape
        const auto p = t.add(0, "list", name);
        t.add(p, "list_item", "x");
    }
    for (const char* name : {"D", "D", "D"}) { // three alike by label, whatever their shapes
        const auto p = t.add(0, "tool_bar", name);
        t.add(p, name[0] == 'D' && t.elements().size() % 2 ? "label" : "push_button", "l");
    }
    const auto s = t.snapshot();
    const auto v = project(s, skeleton());
    std::vector<std::pair<std::string, std::int32_t>> got;
    for (const auto& r : v.rows)
        got.emplace_back(s.elements[r.index].name, r.fold_count);
    EXPECT_EQ(got, (std::vector<std::pair<std::string, std::int32_t>>{
                       {"W", 0}, {"Inbox", 0}, {"Outbox", 0}, {"A", 0}, {"B", 0}, {"C", 0}, {"a", 8},
                       {"D", 3}})); // preorder
}

// A page built of plain boxes (no landmark, heading or list; a shop's grid of cards) read as its
// document alone: its groups of links and buttons are rows too. A box with a click handler says
// so in a full read.
TEST(SkeletonView, APageOfPlainBoxesShowsItsGroupsOfControls)
{
    TreeBuilder t;
    t.add(-1, "frame", "Shop");                      // 0
    t.add(0, "document_web", "Shop");                // 1
    t.add(1, "entry", "Search products", STATE_ENABLED | STATE_EDITABLE); // 2
    const auto nav = t.add(1, "section", "");        // 3
    for (const char* name : {"Women", "Men", "Kids"})
        t.add(t.add(nav, "link", name), "static", name);
    const auto grid = t.add(1, "section", "");
    for (int card = 0; card < 2; ++card) {
        const auto c = t.add(grid, "section", "");
        const auto title = "Product " + std::to_string(card);
        t.add(t.add(t.add(c, "section", ""), "link", title), "static", title);
        t.add(c, "push_button", "Add to cart");
        const auto fav = t.add(c, "section", ""); // a box with a click handler
        t.at(fav).actions = {"click", "showContextMenu"};
        t.at(t.add(fav, "static", "Save")).actions = {"clickAncestor"};
    }
    const auto footer = t.add(1, "section", "");    // two links: no group
    t.add(footer, "link", "Terms");
    t.add(footer, "link", "Privacy");
    t.at(t.add(0, "panel", "")).actions = {"click"}; // the browser's own box: Gecko's answer clicks
    const auto s = t.snapshot();
    const auto v = project(s, skeleton());
    std::vector<std::int32_t> rows;
    for (const auto& r : v.rows)
        rows.push_back(r.index);
    EXPECT_EQ(rows, (std::vector<std::int32_t>{0, 1, nav, grid})) << view_text(s, v);
    EXPECT_NE(view_text(s, v).find("holds \"Product 0\", \"Add to cart\", \"Save\", …"), std::string::npos)
        << view_text(s, v);
    const auto full = view_text(s, project(s, ViewRequest{}));
    EXPECT_NE(full.find("section \"\" (clickable)\n"), std::string::npos) << full;
    EXPECT_EQ(full.find("static \"Save\" (clickable)"), std::string::npos) << full;
    EXPECT_EQ(full.find("link \"Women\" (clickable)"), std::string::npos) << full;
    EXPECT_EQ(full.find("panel \"\" (clickable)"), std::string::npos) << full;
}

// Rendering views: the text lines the model reads and the JSON rows of get_window_state. Secure
// values are never rendered, whatever the element holds.

#include "core/model/view_render.h"

#include "tree_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

using namespace nd_core;
using nd_test::PLAIN;
using nd_test::TreeBuilder;

namespace {

const std::string SECRET = "hunter2-correct-horse";

//  0 frame "Main window"
//    1 tool_bar "Tools"
//      2 push_button "Say "hi"" (focused)
//      3 check_box "Remember" (checked)
//    4 panel "Form"
//      5 text "Name" = "Ada" (editable)
//      6 password_text "Password" holding a value it must never show
//      7 push_button "Disabled" (not enabled)
//      8 label "line1\nline2"
Snapshot sample(std::string id = "s5")
{
    TreeBuilder t;
    t.add(-1, "frame", "Main window");
    t.at(0).frame = {10, 20, 800, 600};
    t.at(0).has_frame = true;
    t.add(0, "tool_bar", "Tools");
    t.add(1, "push_button", "Say \"hi\"", PLAIN | STATE_FOCUSED | STATE_FOCUSABLE);
    t.at(2).actions = {"click"};
    t.add(1, "check_box", "Remember", PLAIN | STATE_CHECKED | STATE_CHECKABLE);
    t.add(0, "panel", "Form");
    t.add(4, "text", "Name", PLAIN | STATE_EDITABLE);
    t.at(5).value = "Ada";
    t.add(4, "password_text", "Password", PLAIN | STATE_EDITABLE);
    t.at(6).value = SECRET; // a backend never reads it; the renderer must not show it even so
    t.add(4, "push_button", "Disabled", STATE_SHOWING);
    t.add(4, "label", "line1\nline2");
    return t.snapshot(std::move(id));
}

nlohmann::json rows_json(const Snapshot& s, const View& v)
{
    std::string out;
    JsonWriter w(out);
    w.begin_object();
    w.key("elements");
    write_rows_json(w, s, v);
    w.end_object();
    return nlohmann::json::parse(out).at("elements");
}

std::string rows_json_text(const Snapshot& s, const View& v)
{
    std::string out;
    JsonWriter w(out);
    write_rows_json(w, s, v);
    return out;
}

ViewRequest skeleton_request(std::int32_t root = 0)
{
    return ViewRequest{ViewKind::skeleton, root, SKELETON_DEFAULT_MAX_ELEMENTS, SKELETON_DEFAULT_MAX_DEPTH};
}

} // namespace

TEST(ViewText, SkeletonLines)
{
    const auto s = sample();
    const auto v = project(s, skeleton_request());
    EXPECT_EQ(view_text(s, v),
        "[0] frame \"Main window\" children=2 descendants=8\n"
        "  [1] tool_bar \"Tools\" children=2 descendants=2\n"
        "  [4] panel \"Form\" children=4 descendants=4\n");
}

TEST(ViewText, SkeletonIndentsTwoSpacesPerSkeletonLevel)
{
    // frame > panel "A" > panel (unnamed, skipped) > list "B" > list_item: the list is one
    // skeleton level below "A", whatever lies between.
    TreeBuilder t;
    t.add(-1, "frame", "W");
    t.add(0, "panel", "A");
    t.add(1, "panel", "");
    t.add(2, "list", "B");
    t.add(3, "list_item", "x");
    const auto s = t.snapshot();
    EXPECT_EQ(view_text(s, project(s, skeleton_request())),
        "[0] frame \"W\" children=1 descendants=4\n"
        "  [1] panel \"A\" children=1 descendants=3\n"
        "    [3] list \"B\" children=1 descendants=1\n");
}

TEST(ViewText, FullLines)
{
    const auto s = sample();
    const auto v = project(s, ViewRequest{});
    EXPECT_EQ(view_text(s, v),
        "[0] frame \"Main window\"\n"
        "  [1] tool_bar \"Tools\"\n"
        "    [2] push_button \"Say \\\"hi\\\"\" (focused)\n"
        "    [3] check_box \"Remember\" (checked)\n"
        "  [4] panel \"Form\"\n"
        "    [5] text \"Name\" = \"Ada\" (editable)\n"
        "    [6] password_text \"Password\" (editable, secure)\n"
        "    [7] push_button \"Disabled\" (disabled)\n"
        "    [8] label \"line1\\nline2\"\n");
}

TEST(ViewText, StateWordsInTheirOrder)
{
    TreeBuilder t;
    t.add(-1, "tree_item", "Node",
        STATE_MODAL | STATE_EDITABLE | STATE_FOCUSED | STATE_EXPANDED | STATE_SELECTED | STATE_CHECKED);
    const auto s = t.snapshot();
    EXPECT_EQ(view_text(s, project(s, ViewRequest{})),
        "[0] tree_item \"Node\" (checked, selected, expanded, focused, editable, modal, disabled)\n");
}

TEST(ViewText, OneRowStaysOneLine)
{
    TreeBuilder t;
    t.add(-1, "frame", "a\r\nb\tc\x01" "d\\e");
    t.add(0, "text", "v");
    t.at(1).value = "x\ny";
    const auto s = t.snapshot();
    const auto text = view_text(s, project(s, ViewRequest{}));
    EXPECT_EQ(text, "[0] frame \"a\\r\\nb\\tc d\\\\e\"\n  [1] text \"v\" = \"x\\ny\"\n");
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
}

TEST(ViewText, DrillDownDepthsAreRelativeToTheRoot)
{
    const auto s = sample();
    const auto v = project(s, ViewRequest{ViewKind::full, 4, 3, 25});
    EXPECT_EQ(view_text(s, v),
        "[4] panel \"Form\"\n"
        "  [5] text \"Name\" = \"Ada\" (editable)\n"
        "  [6] password_text \"Password\" (editable, secure)\n");
}

TEST(ViewText, LongNamesAndValuesAreCut)
{
    TreeBuilder t;
    t.add(-1, "frame", std::string(300, 'n'));
    t.add(0, "text", "field");
    t.at(1).value = std::string(2000, 'v');
    t.add(0, "panel", std::string(300, 'p'));
    t.add(2, "label", "x");
    const auto s = t.snapshot();
    const auto full = view_text(s, project(s, ViewRequest{}));
    EXPECT_NE(full.find("\"" + std::string(NAME_MAX_CHARS - 1, 'n') + "\xE2\x80\xA6\""), std::string::npos);
    EXPECT_EQ(full.find(std::string(NAME_MAX_CHARS, 'n')), std::string::npos);
    EXPECT_NE(full.find("\"" + std::string(VALUE_MAX_CHARS - 1, 'v') + "\xE2\x80\xA6\""), std::string::npos);
    const auto skeleton = view_text(s, project(s, skeleton_request()));
    EXPECT_NE(skeleton.find("\"" + std::string(LABEL_MAX_CHARS - 1, 'p') + "\xE2\x80\xA6\""), std::string::npos);
    EXPECT_EQ(skeleton.find(std::string(LABEL_MAX_CHARS, 'p')), std::string::npos);
}

TEST(RowsJson, FullRowsCarryTheRequiredKeys)
{
    const auto s = sample("s5");
    const auto v = project(s, ViewRequest{});
    const auto rows = rows_json(s, v);
    ASSERT_TRUE(rows.is_array());
    ASSERT_EQ(rows.size(), v.rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        for (auto key : {"element_index", "element_token", "role", "name", "states", "actions", "parent_index", "depth",
                 "child_count", "descendant_count", "frame"})
            EXPECT_TRUE(r.contains(key)) << "row " << i << " lacks " << key;
        EXPECT_FALSE(r.contains("label"));
        const auto index = v.rows[i].index;
        EXPECT_EQ(r["element_index"], index);
        EXPECT_EQ(r["element_token"], "s5:" + std::to_string(index));
        EXPECT_EQ(r["role"], s.elements[index].role);
        EXPECT_EQ(r["depth"], v.rows[i].depth);
        EXPECT_EQ(r["child_count"], s.elements[index].child_count);
        EXPECT_EQ(r["descendant_count"], s.elements[index].descendant_count);
        EXPECT_TRUE(r["states"].is_array());
        EXPECT_TRUE(r["actions"].is_array());
        if (v.rows[i].parent_index < 0) {
            EXPECT_TRUE(r["parent_index"].is_null());
        } else {
            EXPECT_EQ(r["parent_index"], v.rows[i].parent_index);
        }
    }
    EXPECT_EQ(rows[0]["frame"], (nlohmann::json{{"x", 10}, {"y", 20}, {"w", 800}, {"h", 600}}));
    EXPECT_TRUE(rows[1]["frame"].is_null());
    EXPECT_EQ(rows[2]["name"], "Say \"hi\"");
    EXPECT_EQ(rows[2]["states"], (nlohmann::json{"focused", "focusable", "enabled", "showing"}));
    EXPECT_EQ(rows[2]["actions"], (nlohmann::json{"click"}));
    EXPECT_EQ(rows[5]["value"], "Ada");
    EXPECT_FALSE(rows[4].contains("value")); // no value: no key
    EXPECT_FALSE(rows[5].contains("value_redacted"));
}

TEST(RowsJson, SecureRowsAreRedacted)
{
    const auto s = sample();
    const auto rows = rows_json(s, project(s, ViewRequest{}));
    const auto& secure = rows[6];
    EXPECT_EQ(secure["role"], "password_text");
    EXPECT_EQ(secure["value_redacted"], true);
    EXPECT_FALSE(secure.contains("value"));
}

TEST(RowsJson, SecureValuesNeverAppearAnywhere)
{
    auto s = sample();
    // Also a field secure by state rather than role.
    s.elements[5].states |= STATE_SECURE;
    s.elements[5].value = SECRET + "-2";
    for (auto kind : {ViewKind::full, ViewKind::skeleton}) {
        ViewRequest req{kind, 0, 250, 25};
        const auto v = project(s, req);
        EXPECT_EQ(rows_json_text(s, v).find("hunter2"), std::string::npos);
        EXPECT_EQ(view_text(s, v).find("hunter2"), std::string::npos);
    }
    const auto rows = rows_json(s, project(s, ViewRequest{}));
    EXPECT_EQ(rows[5]["value_redacted"], true);
}

TEST(RowsJson, SkeletonRowsCarryTheRequiredKeys)
{
    const auto s = sample("s9");
    const auto v = project(s, skeleton_request());
    const auto rows = rows_json(s, v);
    ASSERT_EQ(rows.size(), 3u);
    for (const auto& r : rows) {
        for (auto key : {"element_index", "element_token", "role", "label", "parent_index", "depth", "child_count",
                 "descendant_count", "frame"})
            EXPECT_TRUE(r.contains(key)) << r.dump() << " lacks " << key;
        EXPECT_FALSE(r.contains("value"));
        EXPECT_FALSE(r.contains("name"));
    }
    EXPECT_EQ(rows[0]["label"], "Main window");
    EXPECT_TRUE(rows[0]["parent_index"].is_null());
    EXPECT_EQ(rows[2]["element_index"], 4);
    EXPECT_EQ(rows[2]["element_token"], "s9:4");
    EXPECT_EQ(rows[2]["parent_index"], 0);
    EXPECT_EQ(rows[2]["depth"], 1);
    EXPECT_EQ(rows[2]["child_count"], 4);
    EXPECT_EQ(rows[2]["descendant_count"], 4);
}

TEST(RowsJson, DrillDownRootHasNoParent)
{
    const auto s = sample();
    const auto rows = rows_json(s, project(s, ViewRequest{ViewKind::full, 4, 250, 25}));
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0]["element_index"], 4);
    EXPECT_TRUE(rows[0]["parent_index"].is_null());
    EXPECT_EQ(rows[0]["depth"], 0);
    EXPECT_EQ(rows[1]["parent_index"], 4);
    EXPECT_EQ(rows[1]["depth"], 1);
}

TEST(RowsJson, EmptyViewIsAnEmptyArray)
{
    const auto s = sample();
    EXPECT_EQ(rows_json_text(s, project(s, ViewRequest{ViewKind::full, 999, 250, 25})), "[]");
}

TEST(RowsJson, InvalidUtf8InAppTextStillGivesValidJson)
{
    TreeBuilder t;
    t.add(-1, "frame", "bad \xC3( name \xFF");
    t.add(0, "text", "f");
    t.at(1).value = "\xED\xA0\x80";
    const auto s = t.snapshot();
    std::string out;
    JsonWriter w(out);
    write_rows_json(w, s, project(s, ViewRequest{}));
    EXPECT_TRUE(nd_test::valid_utf8(out));
    EXPECT_TRUE(nlohmann::json::accept(out));
}

TEST(RowsJson, AFoldedRunSaysHowManyAndWhereItEnds)
{
    TreeBuilder t;
    t.add(-1, "frame", "Chat");
    for (int i = 0; i < 4; ++i) {
        const auto g = t.add(0, "panel", "Reactions");
        t.add(g, "toggle_button", "+1");
    }
    const auto s = t.snapshot("s3");
    const auto v = project(s, skeleton_request());
    const auto rows = rows_json(s, v);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_FALSE(rows[0].contains("alike"));
    EXPECT_EQ(rows[1]["element_token"], "s3:1");
    EXPECT_EQ(rows[1]["alike"], (nlohmann::json{{"count", 4}, {"last_index", 7}}));
    EXPECT_EQ(view_text(s, v), "[0] frame \"Chat\" children=4 descendants=8\n"
                               "  [1] panel \"Reactions\" children=1 descendants=1 alike=4 to [7]\n");
}

// A sheet that manages its descendants (a Calc sheet reports 2^31-1 children): its children in the
// snapshot are the visible cells, and its row says how big the whole is, in both views.
Snapshot managed_sheet()
{
    TreeBuilder t;
    t.add(-1, "frame", "Book");
    t.add(0, "table", "Sheet Sheet1", PLAIN | STATE_FOCUSED);
    auto& m = t.at(1).managed;
    m.on = true;
    m.children = 2147483647;
    m.rows = 1048576;
    m.columns = 16384;
    m.first_row = 4;
    m.last_row = 5;
    m.first_column = 0;
    m.last_column = 1;
    for (const char* name : {"A5", "B5", "A6", "B6"})
        t.add(1, "table_cell", name);
    t.at(2).value = "42.5";
    // A list that manages its rows and has none on screen is still a skeleton row.
    t.add(0, "list", "Results");
    t.at(6).managed.on = true;
    return t.snapshot("s9");
}

TEST(ViewText, ManagedContainersSayHowBigTheWholeIs)
{
    const auto s = managed_sheet();
    EXPECT_EQ(view_text(s, project(s, ViewRequest{})),
              "[0] frame \"Book\"\n"
              "  [1] table \"Sheet Sheet1\" (focused) managed: children=2147483647 table=1048576x16384 "
              "visible=rows 4-5,columns 0-1\n"
              "    [2] table_cell \"A5\" = \"42.5\"\n"
              "    [3] table_cell \"B5\"\n"
              "    [4] table_cell \"A6\"\n"
              "    [5] table_cell \"B6\"\n"
              "  [6] list \"Results\" managed: children=unknown visible=none\n");
    EXPECT_EQ(view_text(s, project(s, skeleton_request())),
              "[0] frame \"Book\" children=2 descendants=6\n"
              "  [1] table \"Sheet Sheet1\" children=4 descendants=4 managed: children=2147483647 "
              "table=1048576x16384 visible=rows 4-5,columns 0-1\n"
              "  [6] list \"Results\" children=0 descendants=0 managed: children=unknown visible=none\n");
}

TEST(RowsJson, ManagedContainersCarryTheirSizeAndOnlyThey)
{
    const auto s = managed_sheet();
    const auto rows = rows_json(s, project(s, ViewRequest{}));
    const auto& m = rows.at(1).at("managed");
    EXPECT_EQ(m.at("children"), 2147483647);
    EXPECT_EQ(m.at("rows"), 1048576);
    EXPECT_EQ(m.at("columns"), 16384);
    EXPECT_EQ(m.at("visible_rows"), nlohmann::json::array({4, 5}));
    EXPECT_EQ(m.at("visible_columns"), nlohmann::json::array({0, 1}));
    EXPECT_EQ(rows.at(1).at("child_count"), 4);
    EXPECT_FALSE(rows.at(0).contains("managed"));
    EXPECT_FALSE(rows.at(2).contains("managed"));
    // What the backend did not learn is left out, not invented.
    EXPECT_EQ(rows.at(6).at("managed"), nlohmann::json::object());
}

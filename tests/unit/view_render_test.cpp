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

// A page's heading says its level in both views, and its skeleton row how many elements its
// section holds (what a drill-down from it reads).
TEST(ViewText, HeadingsSayTheirLevelAndSection)
{
    TreeBuilder t;
    t.add(-1, "frame", "Docs");
    t.add(0, "document_web", "Docs");
    t.add(1, "heading", "Install");
    t.at(2).level = 2;
    t.add(2, "static", "Install");
    t.add(1, "paragraph");
    t.add(1, "heading", "Usage");
    t.at(5).level = 2;
    const auto s = t.snapshot("s4");
    const auto sk = project(s, skeleton_request());
    EXPECT_EQ(view_text(s, sk), "[0] frame \"Docs\" children=1 descendants=5\n"
                                "  [1] document_web \"Docs\" children=3 descendants=4\n"
                                "    [2] heading \"Install\" children=1 descendants=1 level=2 section=3\n"
                                "    [5] heading \"Usage\" children=0 descendants=0 level=2 section=1\n");
    const auto rows = rows_json(s, sk);
    EXPECT_EQ(rows[2]["level"], 2);
    EXPECT_EQ(rows[2]["section_count"], 3);
    EXPECT_FALSE(rows[1].contains("level"));
    EXPECT_FALSE(rows[1].contains("section_count"));
    const auto full = project(s, ViewRequest{});
    EXPECT_NE(view_text(s, full).find("[2] heading \"Install\" level=2\n"), std::string::npos) << view_text(s, full);
    EXPECT_EQ(rows_json(s, full)[2]["level"], 2);
    EXPECT_FALSE(rows_json(s, full)[2].contains("section_count"));

    // A heading without a name shows its text as its skeleton label (a word processor's heading).
    TreeBuilder w;
    w.add(-1, "frame", "Writer");
    w.add(0, "document_text", "Report");
    w.add(1, "heading");
    w.at(2).level = 1;
    w.at(2).value = "Summary";
    const auto ws = w.snapshot("s6");
    EXPECT_NE(view_text(ws, project(ws, skeleton_request())).find("[2] heading \"Summary\" children=0 descendants=0 level=1 section=1\n"),
              std::string::npos) << view_text(ws, project(ws, skeleton_request()));
    EXPECT_EQ(rows_json(ws, project(ws, skeleton_request()))[2]["label"], "Summary");
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

// Rendering again from an earlier rendering: the rows that did not change are copied (with the
// token of the snapshot now), the others rendered, and the bytes are those of a rendering from
// scratch.
namespace {

struct Rendered {
    std::string json, text;
    RenderedRows rows;
};

Rendered render_with(const Snapshot& s, const View& v, const PriorRendering* prior = nullptr)
{
    Rendered r;
    JsonWriter w(r.json);
    w.begin_object();
    w.key("elements");
    write_rows_json(w, s, v, prior, &r.rows);
    w.end_object();
    r.text = "header\n";
    append_view_text(r.text, s, v, prior, &r.rows);
    return r;
}

PriorRendering prior_of(const Snapshot& s, const Rendered& r) { return {&s, r.json, r.text, &r.rows}; }

// Renders `after` again from a rendering of `before`, checks it equals a rendering from scratch
// (bytes and spans), and returns both.
std::pair<Rendered, Rendered> expect_again_equals_fresh(const Snapshot& before, const Snapshot& after)
{
    const auto v = project(after, ViewRequest{});
    const auto was = render_with(before, project(before, ViewRequest{}));
    const auto prior = prior_of(before, was);
    auto again = render_with(after, v, &prior);
    auto fresh = render_with(after, v);
    EXPECT_EQ(again.json, fresh.json);
    EXPECT_EQ(again.text, fresh.text);
    EXPECT_EQ(again.rows.json, fresh.rows.json);
    EXPECT_EQ(again.rows.text, fresh.rows.text);
    return {std::move(again), std::move(fresh)};
}

// A prior whose every row reads as a marker after its token: a row copied from it shows the marker.
Rendered markers(const View& v)
{
    Rendered r;
    r.rows.rows = v.rows;
    r.json = "[";
    for (std::size_t i = 0; i < v.rows.size(); ++i) {
        const auto begin = r.json.size();
        r.json += "{\"element_index\":-1,\"element_token\":\"old\"";
        const auto tail = r.json.size();
        r.json += ",\"copied\":" + std::to_string(i) + "}";
        r.rows.json.push_back({static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(tail),
            static_cast<std::uint32_t>(r.json.size())});
        r.json += ",";
        const auto line = r.text.size();
        r.text += "copied " + std::to_string(i) + "\n";
        r.rows.text.emplace_back(static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(r.text.size()));
    }
    return r;
}

} // namespace

TEST(RenderAgain, TheSpansNoteWhereEachRowLies)
{
    const auto s = sample();
    for (const auto& req : {ViewRequest{}, skeleton_request()}) {
        const auto v = project(s, req);
        const auto r = render_with(s, v);
        ASSERT_EQ(r.rows.json.size(), v.rows.size());
        ASSERT_EQ(r.rows.text.size(), v.rows.size());
        const auto all = nlohmann::json::parse(r.json).at("elements");
        for (std::size_t i = 0; i < v.rows.size(); ++i) {
            const auto span = r.rows.json[i];
            EXPECT_EQ(nlohmann::json::parse(r.json.substr(span.begin, span.end - span.begin)), all[i]) << i;
            EXPECT_EQ(r.json.substr(span.tail, 8), ",\"role\":") << i;
            const auto [tb, te] = r.rows.text[i];
            EXPECT_EQ(r.text.substr(tb, te - tb), view_text(s, View{v.kind, v.root, {v.rows[i]}, false})) << i;
        }
    }
}

TEST(RenderAgain, OnlyRowsThatChangedAreRenderedAndTheBytesAreTheSameAsFromScratch)
{
    const auto before = sample();
    auto after = sample(); // the same id: same structure, some facts changed
    after.elements[3].states &= ~STATE_CHECKED;
    after.elements[5].value = "Grace";
    after.elements[7].frame = {1, 2, 3, 4};
    after.elements[7].has_frame = true;
    const auto v = project(after, ViewRequest{});
    const auto [again, fresh] = expect_again_equals_fresh(before, after);

    // Which rows were copied: those of a prior made of markers.
    const auto marked = markers(v);
    const auto from_markers = prior_of(before, marked);
    const auto mixed = render_with(after, v, &from_markers);
    const auto rows = nlohmann::json::parse(mixed.json).at("elements");
    ASSERT_EQ(rows.size(), v.rows.size());
    for (std::size_t i = 0; i < v.rows.size(); ++i) {
        const bool changed = v.rows[i].index == 3 || v.rows[i].index == 5 || v.rows[i].index == 7;
        EXPECT_EQ(rows[i].contains("copied"), !changed) << rows[i].dump();
        EXPECT_EQ(rows[i]["element_index"], v.rows[i].index);
        EXPECT_EQ(rows[i]["element_token"], "s5:" + std::to_string(v.rows[i].index));
        const auto [tb, te] = mixed.rows.text[i];
        EXPECT_EQ(mixed.text.substr(tb, te - tb).starts_with("copied"), !changed) << i;
    }
    // The password row is copied as the bytes it was: redacted then, redacted now.
    EXPECT_EQ(fresh.json.find(SECRET), std::string::npos);
}

TEST(RenderAgain, ANewSnapshotIdGivesCopiedRowsTheirNewTokens)
{
    // A structural change elsewhere gave the window a new id: every token changed, and the rows
    // whose facts did not are copied with their new tokens.
    const auto before = sample("s5");
    auto after = sample("s6");
    after.elements[2].name = "Say \"bye\"";
    const auto [again, fresh] = expect_again_equals_fresh(before, after);
    EXPECT_EQ(again.json.find("\"s5:"), std::string::npos);
}

TEST(RenderAgain, NothingIsCopiedForARowThatMoved)
{
    // The same elements, but a view whose rows differ (another depth): nothing is copied.
    const auto s = sample("s5");
    auto shallow = ViewRequest{};
    shallow.max_depth = 1;
    const auto narrow = project(s, shallow);
    auto moved = markers(narrow);
    for (auto& row : moved.rows.rows)
        ++row.depth;
    const auto from_moved = prior_of(s, moved);
    const auto r = render_with(s, narrow, &from_moved);
    EXPECT_EQ(r.json.find("copied"), std::string::npos);
    EXPECT_EQ(r.text.find("copied"), std::string::npos);
    EXPECT_EQ(r.json, render_with(s, narrow).json);

    // A prior of fewer rows than the view: the rows past its end are rendered.
    auto few = markers(narrow);
    few.rows.rows.resize(1);
    few.rows.json.resize(1);
    few.rows.text.resize(1);
    const auto from_few = prior_of(s, few);
    const auto rows = nlohmann::json::parse(render_with(s, narrow, &from_few).json).at("elements");
    for (std::size_t i = 0; i < rows.size(); ++i)
        EXPECT_EQ(rows[i].contains("copied"), i == 0) << rows[i].dump();
}

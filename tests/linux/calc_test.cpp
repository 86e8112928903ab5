// LibreOffice Calc, whose sheet is a table that manages its descendants: it reports 2,147,483,647
// children, and asking for them all never ends. A read never enumerates it; it reads the cells on
// screen and says in the sheet's row how big the sheet is (Element::managed). The window reads
// whole within a second; a number put into a cell headless reads back; scrolling brings other
// cells into the read.

#include "office_app.h"

#include <chrono>
#include <cstdio>
#include <memory>

namespace {

using namespace std::chrono_literals;
using nd_test::json;

class Calc : public nd_test::OfficeTest {
protected:
    void SetUp() override
    {
        start_office("--calc", "libreoffice-calc", [](const std::string&) { return std::vector<std::string>{}; });
        if (IsSkipped() || HasFatalFailure())
            return;
        // The sheet fills in after the frame: wait until its cells are in the read.
        ASSERT_TRUE(nd_test::wait_until([&] { return !cell(read_all(m_window), "A1").is_null(); }, 30s));
    }

    static json sheet(const json& read) { return find_row(read, "table", "Sheet Sheet1"); }

    // The cell named `address` ("B3") among the sheet's children, or null.
    static json cell(const json& read, const std::string& address)
    {
        auto table = sheet(read);
        if (table.is_null())
            return nullptr;
        return find_row(read, "table_cell", address,
                        [&](const json& row) { return row["parent_index"] == table["element_index"]; });
    }
};

// How long the reads take is printed for a person to see, not asserted: speed is the benchmarks'
// (scripts/bench-linux), and a loaded or sanitized run must not fail on it.
TEST_F(Calc, the_window_reads_whole_with_the_visible_cells)
{
    // A session that has not read the window yet: every read below is the engine's own.
    call("end_session");
    auto session = call("start_session", {{"apps", {"libreoffice-calc"}}});
    ASSERT_FALSE(session.is_error) << session.text;

    auto t0 = std::chrono::steady_clock::now();
    auto r = call("get_window_state", {{"window_id", m_window["window_id"]}, {"max_elements", 5000}, {"max_depth", 200}});
    auto whole_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_FALSE(r.is_error) << r.text;
    t0 = std::chrono::steady_clock::now();
    auto skel = call("get_window_state", {{"window_id", m_window["window_id"]}, {"skeleton", true}});
    auto skeleton_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_FALSE(skel.is_error) << skel.text;
    const auto& all = r.s;
    std::printf("Calc: whole window %zu elements in %.0f ms; skeleton %zu rows in %.0f ms\n",
                all["elements"].size(), whole_ms, skel.s["elements"].size(), skeleton_ms);
    EXPECT_FALSE(all.value("budget_truncated", false));
    EXPECT_FALSE(all.value("truncated", false));

    // Menus, toolbars and the formula bar.
    EXPECT_FALSE(find_row(all, "menu_bar").is_null());
    EXPECT_FALSE(find_row(all, "menu", "File").is_null());
    EXPECT_FALSE(find_row(all, "tool_bar", "Standard").is_null());
    EXPECT_FALSE(find_row(all, "tool_bar", "Formatting").is_null());
    
    // The formula bar: its Name Box (GTK3 leaves it unnamed) shows the active cell's address.
    auto formula_bar = find_row(all, "tool_bar", "Formula Tool Bar");
    ASSERT_FALSE(formula_bar.is_null());
    const auto bar = formula_bar["element_index"].get<int>();
    const auto bar_end = bar + formula_bar["descendant_count"].get<int>();
    auto name_box = find_row(all, "text", "", [&](const json& row) {
        const auto i = row["element_index"].get<int>();
        return i > bar && i <= bar_end && row.value("value", "") == "A1";
    });
    EXPECT_FALSE(name_box.is_null());
    EXPECT_FALSE(find_row(all, "push_button", "Function Wizard").is_null());

    // The sheet says how big it is and that its children are the visible part.
    auto table = sheet(all);
    ASSERT_FALSE(table.is_null()) << r.text.substr(0, 4000);
    ASSERT_TRUE(table.contains("managed")) << table.dump();
    const auto& m = table["managed"];
    EXPECT_EQ(m["children"], 2147483647);
    EXPECT_EQ(m["rows"], 1048576);
    EXPECT_EQ(m["columns"], 16384);
    EXPECT_EQ(m["visible_rows"][0], 0);
    EXPECT_EQ(m["visible_columns"][0], 0);
    const auto rows = m["visible_rows"][1].get<int>() + 1;
    const auto columns = m["visible_columns"][1].get<int>() + 1;
    EXPECT_GE(rows, 10);
    EXPECT_GE(columns, 5);
    EXPECT_EQ(table["child_count"], rows * columns);
    EXPECT_LE(table["child_count"].get<int>(), 500);
    EXPECT_NE(r.text.find("managed: children=2147483647 table=1048576x16384 visible=rows 0-"), std::string::npos);

    // The cells carry their addresses, row by row; the active one is focused.
    auto a1 = cell(all, "A1");
    ASSERT_FALSE(a1.is_null());
    EXPECT_TRUE(has_state(a1, "focused"));
    EXPECT_EQ(all["elements"][a1["element_index"].get<std::size_t>() + 1]["name"], "B1");
    EXPECT_FALSE(cell(all, "B3").is_null());

    // The skeleton names the sheet with its size too.
    auto skel_table = sheet(skel.s);
    ASSERT_FALSE(skel_table.is_null()) << skel.text;
    EXPECT_EQ(skel_table["managed"]["children"], 2147483647);
    EXPECT_NE(skel.text.find("managed: children=2147483647"), std::string::npos) << skel.text;
}

TEST_F(Calc, a_number_put_into_a_cell_headless_reads_back)
{
    auto b3 = cell(read_all(m_window), "B3");
    ASSERT_FALSE(b3.is_null());
    auto set = call("set_value", {{"element_token", b3["element_token"]}, {"value", "42.5"}});
    ASSERT_FALSE(set.is_error) << set.text;
    EXPECT_EQ(set.s["readback"], "match") << set.text;
    EXPECT_EQ(set.s["effect"], "confirmed") << set.text;
    // Read back by a fresh read, not the tool's word.
    EXPECT_EQ(cell(read_all(m_window), "B3").value("value", ""), "42.5");

    // Text has no headless route into a Calc cell (no EditableText): refused, nothing changes.
    auto c3 = cell(read_all(m_window), "C3");
    ASSERT_FALSE(c3.is_null());
    auto text = call("set_value", {{"element_token", c3["element_token"]}, {"value", "hello"}});
    EXPECT_TRUE(text.is_error);
    EXPECT_EQ(cell(read_all(m_window), "C3").value("value", ""), "");
}

// The sheet's cursor cell (A1 in a new document) has the focus; a scroll leaves it where it was.
TEST_F(Calc, a_scroll_brings_other_cells_into_the_read_and_keeps_the_cursor_cell)
{
    if (!backend().input() || !backend().watcher() || !backend().overlay())
        GTEST_SKIP() << "this X server lacks XTEST, XInput 2.1 or SHAPE";
    call("end_session");
    auto started = call("start_session", {{"apps", {"libreoffice-calc"}}, {"input", "takeover"}});
    ASSERT_FALSE(started.is_error) << started.text;
    auto front = call("bring_to_front", {{"window_id", m_window["window_id"]}});
    ASSERT_FALSE(front.is_error) << front.text;

    auto before = read_all(m_window);
    auto c10 = cell(before, "C10");
    ASSERT_FALSE(c10.is_null());
    auto scrolled = call("scroll", {{"element_token", c10["element_token"]}, {"direction", "down"}, {"amount", 10}});
    ASSERT_FALSE(scrolled.is_error) << scrolled.text;

    json after;
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            after = read_all(m_window);
            auto t = sheet(after);
            return !t.is_null() && t.contains("managed") && t["managed"]["visible_rows"][0].get<int>() > 0;
        },
        5s))
        << sheet(after).dump();
    const auto first = sheet(after)["managed"]["visible_rows"][0].get<int>();
    EXPECT_TRUE(cell(after, "B1").is_null()) << "row 1 scrolled out of the read";
    EXPECT_TRUE(cell(after, "A2").is_null()) << "row 2 scrolled out of the read";
    // The cursor cell stays in the read, off screen: the active child of the sheet.
    const auto a1 = cell(after, "A1");
    ASSERT_FALSE(a1.is_null()) << "the cursor cell, scrolled out of view, is not in the read";
    EXPECT_TRUE(has_state(a1, "focused")) << a1.dump();
    EXPECT_FALSE(has_state(a1, "showing")) << a1.dump();
    EXPECT_FALSE(cell(after, "A" + std::to_string(first + 1)).is_null());
    EXPECT_FALSE(cell(after, "B" + std::to_string(first + 10)).is_null());
    // A row that was below the visible part before is in the read now.
    const auto last_before = sheet(before)["managed"]["visible_rows"][1].get<int>();
    EXPECT_FALSE(cell(after, "A" + std::to_string(last_before + 2)).is_null());
}

} // namespace

// Warm reads (atspi_warm.h) equal cold reads, element for element, on real apps after a series of
// random acts and page mutations: a reader with warm reads and one without read the same window
// after every step. Also: an unchanged window is answered warm, and much faster.

#include "reader_compare.h"

#include <filesystem>
#include <map>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using nd_test::difference;
using nd_test::json;
using nd_test::LIMITS;
using nd_test::OwnedApp;
using nd_test::WarmReads;
using Clock = std::chrono::steady_clock;

// Reads the limits cut: each row they cut holds the first of its children, and the structure
// check compares only those. Before, the live children the read had left out looked like an
// unannounced change, and every read of a window bigger than its budget was cold.
void expect_answered_warm(nd_linux::AtspiTreeReader& reader, const nd_core::WindowInfo& info,
                          const nd_core::ReadLimits& limits)
{
    for (int i = 0; i < 3; ++i) {
        auto tree = reader.read_window(info, limits);
        ASSERT_TRUE(tree) << tree.error().message;
        EXPECT_TRUE(tree->truncated);
        EXPECT_TRUE(reader.last_read().warm) << "read " << i << ": " << reader.warm().stats().last_decline;
    }
}

// The chat page open in a browser (open_page, open_firefox): a reader's warm reads equal cold
// reads after each of 12 random acts; an unchanged page reads warm and far cheaper.
class WarmChat : public WarmReads {
protected:
    // The rows of `role` inside the window's documents, not the browser's own: a toggle of the
    // browser's (Firefox View) opens a tab in front of the page, and the scrolls then miss it.
    static std::vector<json> page_rows(const json& rows, const std::string& role)
    {
        std::vector<json> found;
        const auto& all = rows["elements"];
        for (const auto& page : all) {
            if (page["role"] != "document_web")
                continue;
            const auto first = page["element_index"].get<std::size_t>() + 1;
            const auto end = std::min(first + page.value("descendant_count", std::size_t{0}), all.size());
            for (auto i = first; i < end; ++i)
                if (all[i]["role"] == role)
                    found.push_back(all[i]);
        }
        return found;
    }

    void random_acts(const char* browser)
    {
        expect_warm_equals_cold("first read");
        // An unchanged window: warm, and far cheaper than cold.
        std::vector<double> warm_ms, cold_ms;
        for (int i = 0; i < 5; ++i) {
            auto t = Clock::now();
            ASSERT_TRUE(m_warm->read_window(m_info, LIMITS));
            warm_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
            EXPECT_TRUE(m_warm->last_read().warm) << m_warm->warm().stats().last_decline;
            t = Clock::now();
            ASSERT_TRUE(m_cold->read_window(m_info, LIMITS));
            cold_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
        }
        std::sort(warm_ms.begin(), warm_ms.end());
        std::sort(cold_ms.begin(), cold_ms.end());
        std::printf("chat page in %s, %zu elements: warm read %.2f ms, cold read %.1f ms (medians)\n", browser,
            m_warm->last_read().elements, warm_ms[2], cold_ms[2]);
        EXPECT_LT(warm_ms[2] * 5, cold_ms[2]);

        // Random acts: reaction toggles (states), the Mute toggle, Send (a new message: structure),
        // and a scroll of the page by another X client's wheel (no event announces it).
        std::mt19937 random(20261130);
        int followed = 0; // warm reads that followed a scroll
        for (int step = 0; step < 12; ++step) {
            if (step % 4 == 1) {
                const auto& f = m_info.frame;
                ASSERT_EQ(nd_test::run_command({"xdotool", "mousemove", std::to_string(f.x + f.w / 2),
                              std::to_string(f.y + f.h * 2 / 3), "click", "--repeat", "3", "--delay", "50",
                              step % 8 == 1 ? "5" : "4"}),
                    0);
                std::this_thread::sleep_for(std::chrono::milliseconds(500));
                expect_warm_equals_cold("step " + std::to_string(step) + " (scroll)");
                followed += m_warm->warm().stats().restated > 0;
                continue;
            }
            auto rows = fresh_rows();
            std::vector<json> toggles = page_rows(rows, "toggle_button");
            if (toggles.empty()) {
                std::map<std::string, int> roles;
                std::string docs;
                for (const auto& r : rows["elements"]) {
                    roles[r["role"].get<std::string>()]++;
                    if (r["role"] == "document_web")
                        docs += " " + r.dump().substr(0, 400);
                }
                std::string all;
                for (const auto& [role, n] : roles)
                    all += role + " " + std::to_string(n) + ", ";
                FAIL() << "step " << step << ": no toggle in the documents of a read of " << rows["elements"].size()
                       << " rows; roles: " << all << "documents:" << docs;
            }
            std::string what;
            json target;
            if (step % 4 == 3) {
                target = find_row(rows, "push_button", "Send");
                what = "Send";
            } else {
                target = toggles[random() % toggles.size()];
                what = "toggle " + target.value("name", "");
            }
            ASSERT_FALSE(target.is_null()) << what;
            auto r = call("click", {{"element_token", target["element_token"]}});
            ASSERT_FALSE(r.is_error) << what << ": " << r.text;
            expect_warm_equals_cold("step " + std::to_string(step) + " (" + what + ")");
            followed += m_warm->warm().stats().restated > 0; // Gecko scrolls what it clicks into view
        }
        const auto& stats = m_warm->warm().stats();
        std::printf("chat page in %s: %d of %d reads warm, %d of them after a scroll; %zu declined (last: %s)\n",
            browser, m_warm_answers, m_reads, followed, stats.declined, stats.last_decline.c_str());
        EXPECT_GE(m_warm_answers, m_reads / 2);
        // Scrolled pages are answered warm too: every row's states asked again (follow_scroll).
        EXPECT_GE(followed, 2) << "no scroll was followed warm";
    }
};

TEST_F(WarmChat, ChromiumChatPageStaysEqualToColdReadsThroughRandomActs)
{
    open_page("chat.html", 3500);
    random_acts("Chromium");
}

// Gecko announces its changes otherwise (its own events, its first layout): the same acts.
TEST_F(WarmChat, FirefoxChatPageStaysEqualToColdReadsThroughRandomActs)
{
    open_firefox("chat.html", 2000, "1200", "900");
    find_window();
    random_acts("Firefox");
}

// A tab the browser opens (Firefox View, by its own button) starts with a first document that the
// page replaces. Gecko's bridge keeps the first, defunct, in its item cache for a second or two as
// its frame's only child, where GetChildren already lists the page: a cold read that took the
// frame's children from the cache read the new tab empty while a warm one (told by the events)
// read the page, and token checks saw the window change structure. Reads right after the click
// equal, and the page is read whole.
TEST_F(WarmChat, FirefoxTabTheBrowserOpensReadsWholeWhileItsFirstDocumentLingers)
{
    open_firefox("chat.html", 2000, "1200", "900");
    find_window();
    expect_warm_equals_cold("first read");
    auto rows = fresh_rows();
    const auto button = find_row(rows, "toggle_button", "Firefox View");
    if (button.is_null())
        GTEST_SKIP() << "this Firefox has no Firefox View button";
    auto r = call("click", {{"element_token", button["element_token"]}});
    ASSERT_FALSE(r.is_error) << r.text;
    for (int k = 0; k < 6; ++k) {
        expect_warm_equals_cold("read " + std::to_string(k) + " after the tab opened");
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    auto cold = read(*m_cold);
    ASSERT_TRUE(cold);
    // The second document (the new tab's page) and the rows below it.
    std::size_t documents = 0, tab_rows = 0;
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(cold->elements.size()); ++i)
        if (cold->elements[static_cast<std::size_t>(i)].role == "document_web" && ++documents == 2)
            tab_rows = static_cast<std::size_t>(nd_core::subtree_end(cold->elements, i) - i - 1);
    EXPECT_EQ(documents, 2u) << "the new tab's page is not in the read";
    EXPECT_GT(tab_rows, 10u) << "the new tab's page reads nearly empty";
    // A token of a read now holds for an act: the browser's button, pressed again.
    rows = fresh_rows();
    const auto again = find_row(rows, "toggle_button", "Firefox View");
    ASSERT_FALSE(again.is_null());
    r = call("click", {{"element_token", again["element_token"]}});
    EXPECT_FALSE(r.is_error) << r.text;
}

TEST_F(WarmReads, Gtk3WidgetFactoryStaysEqualToColdReadsThroughClicks)
{
    open_app({"gtk3-widget-factory"}, "gtk3-widget-factory", 200);
    expect_warm_equals_cold("first read");
    std::mt19937 random(7);
    for (int step = 0; step < 10; ++step) {
        auto rows = fresh_rows();
        std::vector<json> targets;
        for (const auto& row : rows["elements"])
            if ((row["role"] == "check_box" || row["role"] == "toggle_button" || row["role"] == "radio_button") &&
                has_state(row, "enabled") && has_state(row, "showing"))
                targets.push_back(row);
        ASSERT_FALSE(targets.empty());
        const auto target = targets[random() % targets.size()];
        auto r = call("click", {{"element_token", target["element_token"]}});
        ASSERT_FALSE(r.is_error) << r.text;
        expect_warm_equals_cold("step " + std::to_string(step) + " (" + target.value("name", "") + ")");
    }
    std::printf("gtk3-widget-factory: %d of %d reads warm\n", m_warm_answers, m_reads);
}

// GTK 4.8 answers GetChildren of a stack with its pages' children, while its item cache, which the
// cold read walks, puts the pages (GtkStackPage) between: a part read again warm lost the pages,
// and every warm read of a GTK 4 window with a stack had fewer rows than a cold one (Nautilus: 247
// against 253). Walks and the structure check now ask GTK 4 for children one by one.
TEST_F(WarmReads, Gtk4StackPagesStayEqualToColdReadsAsTheyShow)
{
    // A fixture of our own: gtk4-widget-factory's spinners and progress bars never let two cold
    // reads agree.
    open_app({"/usr/bin/python3", std::string(NISH_SOURCE_DIR) + "/fixtures/apps/gtk4_pages.py"}, "gtk4_pages.py", 6);
    expect_warm_equals_cold("first read");
    for (int step = 0; step < 4; ++step) {
        ASSERT_EQ(::kill(m_app->pid(), SIGUSR1), 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        expect_warm_equals_cold("switch " + std::to_string(step));
    }
    std::printf("gtk4_pages.py: %d of %d reads warm\n", m_warm_answers, m_reads);
    EXPECT_GT(m_warm_answers, 0);
}

// Qt 5 announces that a menu or a submenu opened or shut by the state of the popup alone, not of
// each item inside it: the warm reads read the items of a part whose showing changed again, so a
// submenu's items show in a warm read as in a cold one. Before, they stayed hidden in warm reads.
// Shutting them with Escape gives the menu bar the focus with its item, announcing only the item's;
// a further Escape takes the item's focus with no event at all: the warm reads ask a focused row's
// parent again, and every row that reads focused. Before, the menu bar read unfocused warm.
TEST_F(WarmReads, Qt5MenusAndSubmenusOpenAndShutAsInColdReads)
{
    open_app({nd_test::qt5_example("widgets/mainwindows/menus/menus")}, "menus", 20);
    expect_warm_equals_cold("first read");
    auto click_item = [&](const std::string& name) {
        json item;
        const auto rows = fresh_rows();
        for (const auto& row : rows["elements"])
            if (row["role"] == "menu_item" && row.value("name", "") == name && has_state(row, "showing") &&
                row["frame"].is_object())
                item = row;
        ASSERT_FALSE(item.is_null()) << name << " does not show";
        const auto& f = item["frame"];
        ASSERT_EQ(nd_test::run_command({"xdotool", "mousemove", std::to_string(f["x"].get<int>() + f["w"].get<int>() / 2),
                                        std::to_string(f["y"].get<int>() + f["h"].get<int>() / 2), "click", "1"}),
                  0);
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    };
    click_item("Edit");
    expect_warm_equals_cold("the Edit menu opened");
    click_item("Format");
    expect_warm_equals_cold("the Format submenu opened");
    auto key = [&](const char* name) {
        ASSERT_EQ(nd_test::run_command({"xdotool", "key", name}), 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    };
    key("Escape");
    expect_warm_equals_cold("the Format submenu shut");
    key("Escape");
    expect_warm_equals_cold("the Edit menu shut");
    key("Escape");
    expect_warm_equals_cold("the menu bar left");
    EXPECT_GT(m_warm_answers, 0) << "no read was answered warm";
    std::printf("Qt 5 menus: %d of %d reads warm\n", m_warm_answers, m_reads);
}

// A granted session prepares the reader (TreeReader::prepare): its event connection opens then, so
// the first read's tree can be trusted and the very next read is warm, even of an app that has
// sent nothing since. Before, a reader opened its events at its first read, and the reads of the
// next second were cold.
TEST_F(WarmReads, AReaderPreparedBeforeItsFirstReadAnswersTheSecondWarm)
{
    open_page("chat.html", 3000);
    nd_linux::AtspiTreeReader fresh(*m_bus);
    fresh.prepare();
    std::this_thread::sleep_for(nd_linux::WarmTrees::LISTENER_SETTLE + std::chrono::milliseconds(100));
    auto first = fresh.read_window(m_info, m_limits);
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_FALSE(fresh.last_read().warm);
    auto second = fresh.read_window(m_info, m_limits);
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_TRUE(fresh.last_read().warm) << fresh.warm().stats().last_decline;
}

TEST_F(WarmReads, ChromiumPageBiggerThanTheBudgetIsAnsweredWarmAndEqualsColdReads)
{
    open_page("dense.html", 4000); // about 12,000 objects against the budget's 5,000
    expect_warm_equals_cold("first read");
    expect_answered_warm(*m_warm, m_info, m_limits);
    expect_warm_equals_cold("after the warm reads");
}

TEST_F(WarmReads, Gtk3WindowCutByTheBudgetOrTheDepthIsAnsweredWarmAndEqualsColdReads)
{
    m_limits.max_elements = 120; // of about 260
    open_app({"gtk3-widget-factory"}, "gtk3-widget-factory", 200);
    expect_warm_equals_cold("first read, budget cut");
    expect_answered_warm(*m_warm, m_info, m_limits);
    m_limits = LIMITS;
    m_limits.max_depth = 6;
    expect_warm_equals_cold("first read, depth cut");
    expect_answered_warm(*m_warm, m_info, m_limits);
    // A click still shows, warm or cold.
    ASSERT_NO_FATAL_FAILURE(click_a_showing_check_box());
    expect_warm_equals_cold("after a click, depth cut");
}

// A read that changed nothing answers `unchanged` to a caller holding its tree's version, and the
// whole tree to any other; a change makes a new version, and the tree read then equals a cold one.
TEST_F(WarmReads, AnUnchangedWindowIsAnsweredUnchangedToTheHolderOfItsVersion)
{
    open_app({"gtk3-widget-factory"}, "gtk3-widget-factory", 200);
    nd_core::RawTree held;
    for (int i = 0; i < 3 && !m_warm->last_read().warm; ++i) {
        auto tree = m_warm->read_window(m_info, m_limits);
        ASSERT_TRUE(tree) << tree.error().message;
        held = std::move(*tree);
    }
    ASSERT_TRUE(m_warm->last_read().warm) << m_warm->warm().stats().last_decline;
    ASSERT_NE(held.version, 0u);
    ASSERT_FALSE(held.unchanged);

    auto limits = m_limits;
    limits.held_version = held.version;
    auto same = m_warm->read_window(m_info, limits);
    ASSERT_TRUE(same) << same.error().message;
    EXPECT_TRUE(same->unchanged);
    EXPECT_EQ(same->version, held.version);
    EXPECT_TRUE(same->elements.empty());
    EXPECT_EQ(m_warm->last_read().elements, held.elements.size());

    limits.held_version = held.version + 1000; // not what the reader has
    auto whole = m_warm->read_window(m_info, limits);
    ASSERT_TRUE(whole);
    EXPECT_FALSE(whole->unchanged);
    EXPECT_EQ(whole->version, held.version);
    EXPECT_EQ(difference(*whole, held), "");

    // A click changes a state: a new version, answered whole to the holder of the old one.
    ASSERT_NO_FATAL_FAILURE(click_a_showing_check_box());
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    limits.held_version = held.version;
    auto after = m_warm->read_window(m_info, limits);
    ASSERT_TRUE(after) << after.error().message;
    EXPECT_FALSE(after->unchanged);
    EXPECT_NE(after->version, held.version);
    expect_warm_equals_cold("after the click");
}

// A GTK3 window of our own: a scrolled column of 40 buttons (widgets: they keep showing when
// scrolled out of view) beside a scrolled tree view of 60 rows (cells: they show while they lie in
// the view's visible part, and nothing announces it).
const char* GTK3_SCROLL_APP =
    "import gi\n"
    "gi.require_version('Gtk', '3.0')\n"
    "from gi.repository import Gtk\n"
    "w = Gtk.Window(title='Warm scroll fixture')\n"
    "w.set_default_size(600, 320)\n"
    "row = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=8)\n"
    "left = Gtk.ScrolledWindow()\n"
    "left.set_policy(Gtk.PolicyType.NEVER, Gtk.PolicyType.ALWAYS)\n"
    "column = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)\n"
    "for i in range(40):\n"
    "    column.pack_start(Gtk.Button(label='Button %d' % i), False, False, 0)\n"
    "left.add(column)\n"
    "store = Gtk.ListStore(str, str)\n"
    "for i in range(60):\n"
    "    store.append(['Item %d' % i, 'Note %d' % i])\n"
    "view = Gtk.TreeView(model=store)\n"
    "for k, title in enumerate(['Item', 'Note']):\n"
    "    view.append_column(Gtk.TreeViewColumn(title, Gtk.CellRendererText(), text=k))\n"
    "right = Gtk.ScrolledWindow()\n"
    "right.set_policy(Gtk.PolicyType.NEVER, Gtk.PolicyType.ALWAYS)\n"
    "right.add(view)\n"
    "row.pack_start(left, True, True, 0)\n"
    "row.pack_start(right, True, True, 0)\n"
    "w.add(row)\n"
    "w.connect('destroy', Gtk.main_quit)\n"
    "w.show_all()\n"
    "Gtk.main()\n";

// GTK3 announces whether a widget shows (map, unmap), and a scroll moves a widget's place only:
// its warm reads leave the showing rows' frames to the view, as its cold reads do, and compare its
// structure in one Collection call; the cells of its tree views show by their place, so their
// frames are read by each warm read to tell a scroll. Scrolls of both by another X client's wheel:
// every warm read equals a cold read, frames and showing states included (the test's reads ask
// every row's frame).
TEST_F(WarmReads, Gtk3ScrollsOfWidgetsAndOfTreeCellsStayEqualToColdReads)
{
    if (!nd_test::PythonFixture::available())
        GTEST_SKIP() << "no /usr/bin/python3 for the GTK3 fixture";
    nd_test::PythonFixture app("warmscroll", GTK3_SCROLL_APP);
    ASSERT_TRUE(app.ok());
    open_app(app.argv(), "Warmscroll", 60);
    expect_warm_equals_cold("first read");
    const auto at = [](const nd_core::RawTree& t, std::int32_t row) { return t.elements[static_cast<std::size_t>(row)]; };
    auto find = [&](const nd_core::RawTree& t, const std::string& role, const std::string& name) {
        for (std::size_t i = 0; i < t.elements.size(); ++i)
            if (t.elements[i].role == role && t.elements[i].name == name)
                return static_cast<std::int32_t>(i);
        return -1;
    };
    auto wheel_over = [&](const nd_core::Frame& f) {
        ASSERT_EQ(nd_test::run_command({"xdotool", "mousemove", std::to_string(f.x + f.w / 2),
                      std::to_string(f.y + f.h / 2), "click", "--repeat", "3", "--delay", "50", "5"}),
            0);
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    };

    // The buttons: a scroll moves them, all keep showing; answered warm, its frames read by the view.
    auto cold = read(*m_cold);
    ASSERT_TRUE(cold);
    const auto button = find(*cold, "push_button", "Button 2");
    ASSERT_GE(button, 0);
    const auto before = at(*cold, button).frame;
    wheel_over(before);
    auto after = read(*m_cold);
    ASSERT_TRUE(after);
    ASSERT_EQ(find(*after, "push_button", "Button 2"), button);
    EXPECT_NE(at(*after, button).frame.y, before.y) << "the wheel scrolled the buttons";
    int answers = m_warm_answers;
    expect_warm_equals_cold("after scrolling the buttons");
    EXPECT_GT(m_warm_answers, answers) << "answered warm; last decline: " << m_warm->warm().stats().last_decline;
    EXPECT_EQ(m_warm->warm().stats().checked, 1u) << "one Collection call compared the window's structure";

    // The tree view's cells: a scroll changes which show. Warm or cold, the read equals a cold one.
    const auto cell = find(*after, "table_cell", "Item 1");
    ASSERT_GE(cell, 0);
    ASSERT_TRUE(at(*after, cell).is(nd_core::STATE_SHOWING));
    const auto table = at(*after, at(*after, cell).parent).frame;
    wheel_over(table);
    wheel_over(table);
    auto scrolled = read(*m_cold);
    ASSERT_TRUE(scrolled);
    // GTK3 keeps a tree view's cells showing when scrolled out of view, placed far above it.
    EXPECT_NE(at(*scrolled, find(*scrolled, "table_cell", "Item 1")).frame.y, at(*after, cell).frame.y)
        << "the wheel scrolled the tree view";
    expect_warm_equals_cold("after scrolling the tree view");
}

} // namespace

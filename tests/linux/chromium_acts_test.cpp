// Headless clicks on Chromium's own controls (fixtures/web/controls.html): a button, a toggle
// button with aria-pressed, a check box, a radio, a link, a <details> summary, an ARIA menu item,
// tab and tree item, a contenteditable region and a <select>. Each runs the action Chromium names for
// it (press, check, jump, open, ...) through the act table (core/model/act_actions.h), and the rows a read
// returns carry those names, not the empty localized ones. The checks are shared with the Firefox
// test (browser_acts.h).

#include "browser_acts.h"

#include "backend/linux/atspi/atspi_tree_reader.h"

#include <algorithm>
#include <chrono>
#include <map>

namespace {

using nd_test::json;

class ChromiumActs : public nd_test::BrowserActs {
protected:
    void open(const char* page, int min_elements)
    {
        m_app_label = "chromium";
        open_chromium(page, min_elements);
    }
};

// Also prints how long a whole read of the page takes.
TEST_F(ChromiumActs, ReadsNameEveryActionOfTheRowsTheyReturn)
{
    open("controls.html", 40);
    auto all = read_with("toggle_button", "Bold");
    std::map<std::string, std::string> first; // role "name" -> its first action
    int with_actions = 0;
    for (const auto& row : all["elements"]) {
        if (row["actions"].empty())
            continue;
        ++with_actions;
        for (const auto& a : row["actions"])
            EXPECT_NE(a.get<std::string>(), "") << row["role"] << " \"" << row["name"] << "\"";
        first[row["role"].get<std::string>() + " \"" + row["name"].get<std::string>() + "\""] = row["actions"][0];
    }
    EXPECT_GT(with_actions, 5);
    // A button with aria-pressed is a toggle button whose verb is "check" (Chromium 120 and later).
    EXPECT_EQ(first["toggle_button \"Bold\""], "check");
    EXPECT_EQ(first["push_button \"Reload\""], "press");
    EXPECT_EQ(first["radio_button \"Large\""], "check");
    EXPECT_EQ(first["static \"More options\""], "clickAncestor");
    EXPECT_EQ(first["check_box \"Subscribe\""], "check");
    EXPECT_EQ(first["link \"Next section\""], "jump");
    EXPECT_EQ(first["push_button \"Save\""], "press");
    EXPECT_EQ(first["menu_item \"Paste\""], "select");
    EXPECT_EQ(first["page_tab \"Grid view\""], "click");
    EXPECT_EQ(first["entry \"Notes\""], "activate");
    for (const auto& [row, action] : first)
        if (row.find("Bold") != std::string::npos || row.find("Subscribe") != std::string::npos ||
            row.find("Next section") != std::string::npos || row.find("More options") != std::string::npos ||
            row.find("Save") != std::string::npos || row.find("Notes") != std::string::npos ||
            row.rfind("combo_box", 0) == 0 || row.rfind("radio_button", 0) == 0 || row.rfind("menu_item", 0) == 0 ||
            row.rfind("page_tab", 0) == 0 || row.rfind("tree_item", 0) == 0)
            std::printf("chromium action: %s -> %s\n", row.c_str(), action.c_str());
    EXPECT_GT(median_read_ms(7), 0.0);
}

// A repeat read of the unchanged page answers with the rendering of the read before
// (nd_core::ViewCache). The row that reads focused is asked again on every warm read, and Chromium
// leaves its action names empty there as everywhere: asked again with them, it is the same row, not
// a change that renders the whole page afresh on every read. A click still shows at the next read.
TEST_F(ChromiumActs, RepeatReadsOfTheUnchangedPageAnswerWithTheirRendering)
{
    open("controls.html", 40);
    auto all = read_with("check_box", "Subscribe");
    auto hits = [this] { return engine().session()->views.hits(); };
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            const auto before = hits();
            all = read_all(m_window);
            return hits() > before;
        },
        std::chrono::seconds(15)))
        << "no repeat read of the unchanged page was answered from its rendering";
    bool focused = false;
    for (const auto& row : all["elements"])
        focused = focused || (std::find(row["states"].begin(), row["states"].end(), "focused") != row["states"].end() &&
                              !row["actions"].empty());
    EXPECT_TRUE(focused) << "no focused row with actions: the case this test is about is not on the page";
    for (int i = 0; i < 3; ++i) {
        const auto before = hits();
        all = read_all(m_window);
        EXPECT_EQ(hits(), before + 1) << "repeat read " << i << " rendered the unchanged page afresh";
    }
    auto box = find_row(all, "check_box", "Subscribe");
    ASSERT_FALSE(box.is_null());
    const bool was = has_state(box, "checked");
    click(box, "Subscribe");
    // The check box read again after its event carries its new verb, asked with it: the read
    // after the one that shows it is answered from its rendering (no names learned in between).
    EXPECT_TRUE(eventually([&](const json& read) {
        auto now = find_row(read, "check_box", "Subscribe");
        return !now.is_null() && has_state(now, "checked") != was && !now["actions"].empty() &&
               now["actions"][0] == (was ? "check" : "uncheck");
    })) << "the click did not show in a read";
    const auto before = hits();
    all = read_all(m_window);
    EXPECT_EQ(hits(), before + 1) << "the read after the click's was rendered afresh";
}

TEST_F(ChromiumActs, HeadlessClickOnEachControlChangesThePage)
{
    open("controls.html", 40);
    click_every_role();
}

// Chromium gives every row of a page an action: "doDefault" where it has no verb (a heading, a
// paragraph), which dispatches a click. So a click on the heading runs, and as the page does not
// change the result still recommends a foreground click in a takeover. (The act with no action at
// all is firefox_acts_test's: Gecko's headings have none.)
TEST_F(ChromiumActs, ClickOnAHeadingRunsDoDefaultAndRecommendsTakeover)
{
    open("controls.html", 40);
    auto all = read_with("push_button", "Save");
    auto heading = find_row(all, "heading", "Controls");
    ASSERT_FALSE(heading.is_null());
    EXPECT_EQ(heading["actions"][0], "doDefault");
    auto r = call("click", {{"element_token", heading["element_token"]}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(r.s["path"], "semantic");
    EXPECT_EQ(r.s["escalation"]["recommend"], "takeover") << r.s.dump();
    std::printf("chromium: heading \"Controls\": %s\n", r.text.c_str());
}

// What naming the actions adds to a full view of the dense page (fixtures/web/dense.html): the read
// is the same as before, a view read the frames of its rows before too, the names are new. Measured
// for a view of the default size (250 rows) and for the whole 5,000-row budget.
TEST_F(ChromiumActs, NamingTheActionsOfAViewCostsLittle)
{
    open("dense.html", 4000);
    auto* trees = backend().trees();
    // What naming costs against a cold read: warm reads (and the action names they keep) off.
    if (auto* atspi = dynamic_cast<nd_linux::AtspiTreeReader*>(trees))
        atspi->warm().set_enabled(false);
    auto listed = listed_window();
    ASSERT_TRUE(listed) << listed.error().text();
    const nd_core::WindowInfo window = *listed;
    const nd_core::ReadLimits limits{5000, 200, std::chrono::seconds(10), nd_core::FrameMode::deferred};
    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::time_point from) { return std::chrono::duration<double, std::milli>(Clock::now() - from).count(); };
    auto median = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
    std::vector<double> reads;
    std::map<std::size_t, std::vector<double>> before, after; // by view size
    std::map<std::size_t, std::size_t> unnamed;
    for (int round = 0; round < 5; ++round) {
        auto t = Clock::now();
        auto tree = trees->read_window(window, limits);
        ASSERT_TRUE(tree) << tree.error().message;
        reads.push_back(ms(t));
        for (std::size_t size : {std::size_t{250}, tree->elements.size()}) {
            std::vector<std::int32_t> rows;
            unnamed[size] = 0;
            for (std::size_t i = 0; i < size && i < tree->elements.size(); ++i) {
                rows.push_back(static_cast<std::int32_t>(i));
                for (const auto& a : tree->elements[i].actions)
                    unnamed[size] += a.empty();
            }
            // The order alternates so that neither warms the other.
            for (int k = 0; k < 2; ++k) {
                const bool names = (round + k) % 2 == 0;
                auto elements = tree->elements;
                t = Clock::now();
                ASSERT_TRUE(trees->read_frames(window, elements, rows, std::chrono::seconds(10), names));
                (names ? after : before)[size].push_back(ms(t));
                if (!names)
                    continue;
                for (auto row : rows)
                    for (const auto& a : elements[static_cast<std::size_t>(row)].actions) {
                        EXPECT_NE(a, "");
                    }
            }
        }
    }
    const double read = median(reads);
    for (const auto& [size, times] : after)
        std::printf("chromium dense page: read %.0f ms; a view of %zu rows: frames %.1f ms, frames and %zu action "
                    "names %.1f ms (+%.1f%% of read and view)\n",
            read, size, median(before[size]), unnamed[size], median(times),
            100.0 * (median(times) - median(before[size])) / (read + median(before[size])));
    EXPECT_GT(unnamed[250], 100u);
    // A view of the default size: a few percent, with room for a loaded machine.
    EXPECT_LT(median(after[250]) - median(before[250]), 0.08 * (read + median(before[250])));
}

} // namespace

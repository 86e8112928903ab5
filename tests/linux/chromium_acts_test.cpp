// Headless clicks on Chromium's own controls (fixtures/web/controls.html): a toggle button with
// aria-pressed, a check box, a radio, a link, a <select> and a <details> summary. Each runs the
// action Chromium names for it (press, check, jump, open, ...) through the act table
// (core/act_actions.h), and the rows a read returns carry those names, not the empty localized ones.

#include "tool_test_support.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>

namespace {

using nd_test::json;
using nd_test::OwnedApp;

class ChromiumActs : public nd_test::LinuxToolTest {
protected:
    void open(const char* page, int min_elements)
    {
        std::string dir = (std::filesystem::temp_directory_path() / "nish-chromium-XXXXXX").string();
        ASSERT_NE(::mkdtemp(dir.data()), nullptr) << std::strerror(errno);
        m_profile = dir;
        const auto path = std::filesystem::absolute(std::string(NISH_SOURCE_DIR) + "/fixtures/web/" + page);
        ASSERT_TRUE(std::filesystem::exists(path)) << path;
        // As in apps_linux_test.cpp: the crash handlers leave the group and end with the browser.
        m_app = std::make_unique<OwnedApp>(std::vector<std::string>{"chromium", "--force-renderer-accessibility",
            "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--user-data-dir=" + m_profile, "--window-size=1000,800",
            "file://" + path.string()});
        m_window = wait_for_window(*m_app, "chromium", min_elements, std::chrono::seconds(30));
        ASSERT_FALSE(m_window.is_null());
    }

    void TearDown() override
    {
        if (m_app)
            m_app->stop();
        if (!m_profile.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(m_profile, ec);
        }
    }

    // A fresh read once the page's row of `role` named `name` is in it (the document loads late).
    json read_with(const std::string& role, const std::string& name)
    {
        json all;
        nd_test::wait_until([&] { all = read_all(m_window); return !find_row(all, role, name).is_null(); },
            std::chrono::seconds(10));
        return all;
    }

    // Waits until `check` holds of a fresh read.
    bool eventually(const std::function<bool(const json&)>& check)
    {
        return nd_test::wait_until([&] { return check(read_all(m_window)); }, std::chrono::seconds(3));
    }

    void click(const json& row, const std::string& what)
    {
        ASSERT_FALSE(row.is_null()) << what;
        auto r = call("click", {{"element_token", row["element_token"]}});
        ASSERT_FALSE(r.is_error) << what << ": " << r.text;
        EXPECT_EQ(r.s["path"], "semantic") << what;
    }

    static std::string status_of(const json& all)
    {
        auto status = find_row(all, "status_bar");
        if (status.is_null())
            return "";
        // The status paragraph's text is its child's name (Chromium's static text).
        const auto& next = all["elements"][status["element_index"].get<std::size_t>() + 1];
        return next.value("name", "");
    }

    std::string m_profile;
    std::unique_ptr<OwnedApp> m_app;
    json m_window;
};

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
    for (const auto& [row, action] : first)
        if (row.find("Bold") != std::string::npos || row.find("Subscribe") != std::string::npos ||
            row.find("Next section") != std::string::npos || row.find("More options") != std::string::npos ||
            row.rfind("combo_box", 0) == 0 || row.rfind("radio_button", 0) == 0)
            std::printf("chromium action: %s -> %s\n", row.c_str(), action.c_str());
}

TEST_F(ChromiumActs, HeadlessClickOnEachControlChangesThePage)
{
    open("controls.html", 40);
    auto all = read_with("toggle_button", "Bold");

    click(find_row(all, "toggle_button", "Bold"), "the toggle button");
    EXPECT_TRUE(eventually([](const json& a) { return status_of(a) == "Bold on"; })) << "aria-pressed did not toggle";
    EXPECT_TRUE(eventually([](const json& a) { return has_state(find_row(a, "toggle_button", "Bold"), "pressed"); }));

    all = read_all(m_window);
    click(find_row(all, "check_box", "Subscribe"), "the check box");
    EXPECT_TRUE(eventually([](const json& a) { return has_state(find_row(a, "check_box", "Subscribe"), "checked"); }));

    all = read_all(m_window);
    click(find_row(all, "radio_button", "Large"), "the radio");
    EXPECT_TRUE(eventually([](const json& a) {
        return has_state(find_row(a, "radio_button", "Large"), "checked") &&
               !has_state(find_row(a, "radio_button", "Small"), "checked");
    }));

    all = read_all(m_window);
    click(find_row(all, "link", "Next section"), "the link");
    EXPECT_TRUE(eventually([](const json& a) { return status_of(a) == "Jumped"; })) << "the link's click did not run";

    all = read_all(m_window);
    EXPECT_TRUE(find_row(all, "static", "Hidden text").is_null()) << "the details start closed";
    json summary;
    for (const auto& row : all["elements"])
        if (row.value("name", "") == "More options" && !row["actions"].empty()) {
            summary = row;
            break;
        }
    click(summary, "the summary");
    EXPECT_TRUE(eventually([](const json& a) {
        for (const auto& row : a["elements"])
            if (row.value("name", "") == "Hidden text")
                return true;
        return false;
    })) << "the details did not open";

    all = read_all(m_window);
    click(find_row(all, "combo_box"), "the select");
    EXPECT_TRUE(eventually([](const json& a) { return has_state(find_row(a, "combo_box"), "expanded"); }))
        << "the select did not open";
    EXPECT_TRUE(m_app->running());
}

// What naming the actions adds to a full view of the dense page (fixtures/web/dense.html): the read
// is the same as before, a view read the frames of its rows before too, the names are new. Measured
// for a view of the default size (250 rows) and for the whole 5,000-row budget.
TEST_F(ChromiumActs, NamingTheActionsOfAViewCostsLittle)
{
    open("dense.html", 4000);
    auto* trees = backend().trees();
    nd_core::WindowInfo window;
    auto listed = backend().windows()->list_windows();
    ASSERT_TRUE(listed);
    for (const auto& w : *listed)
        if (w.window_id == m_window["window_id"].get<std::int64_t>())
            window = w;
    ASSERT_NE(window.window_id, 0);
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

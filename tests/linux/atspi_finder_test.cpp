// Searches through AtspiFinder on the virtual desktop: Collection.GetMatches on gtk3-widget-factory
// and on Chromium's dense page, the whole-window fallback on gtk4-widget-factory, and the finder
// contract (the read's elements, preorder prefixes, truncation, no values, the read's errors) and
// the path each toolkit takes (Qt 5 too). The first tests need no desktop.

#include "atspi_test_app.h"
#include "browser_acts.h"
#include "tool_test_support.h"

#include "backend/linux/atspi/atspi_finder.h"
#include "backend/linux/atspi/atspi_matches.h"
#include "backend/linux/atspi/atspi_roles.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <thread>

namespace {

using namespace nd_test;
using nd_core::ErrorCode;
using nd_core::FindQuery;
using nd_core::FindResult;
using nd_linux::AtspiFinder;

double elapsed_ms(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<std::string> keys(const std::vector<nd_core::Element>& elements)
{
    std::vector<std::string> out;
    for (const auto& e : elements)
        out.push_back(e.key);
    return out;
}

// The keys a whole read gives for a query, in read order: what a search must agree with.
std::vector<std::string> keys_by_read(const nd_core::RawTree& tree, const FindQuery& query)
{
    std::vector<std::string> out;
    for (const auto& e : tree.elements)
        if (nd_core::query_matches(query, e.role, e.name))
            out.push_back(e.key);
    return out;
}

// GetMatches lists in the toolkit's child order (GetChildren's), a read orders a node's children by
// index in parent where the app's cache has them: GTK3's header bar lists its end children in
// reverse in the former. So a search is compared with a read as a set.
std::vector<std::string> sorted(std::vector<std::string> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

// The app's window as the X side lists it (pid, title, frame), for apps with several top-levels.
nd_core::WindowInfo x_window_of(OwnedApp& app, std::chrono::milliseconds timeout)
{
    nd_core::WindowInfo found;
    auto backend = nd_linux::LinuxBackend::open();
    if (!backend) {
        ADD_FAILURE() << backend.error().text();
        return found;
    }
    wait_until(
        [&] {
            auto list = (*backend)->windows()->list_windows();
            if (list)
                for (const auto& w : *list)
                    if (app.owns(static_cast<pid_t>(w.pid)))
                        found = w;
            return found.window_id != 0;
        },
        timeout);
    return found;
}

FindQuery query(std::string role, std::string name = {}, std::int32_t max_results = 1000)
{
    FindQuery q;
    q.role = std::move(role);
    q.name = std::move(name);
    q.max_results = max_results;
    q.deadline = std::chrono::seconds(10);
    return q;
}

void expect_search_hits(const FindResult& r)
{
    for (const auto& e : r.elements) {
        EXPECT_EQ(e.parent, -1);
        EXPECT_EQ(e.depth, 0);
        EXPECT_TRUE(e.value.empty()) << e.role << " " << e.key;
        EXPECT_TRUE(nd_linux::parse_key(e.key)) << e.key;
        if (e.has_frame) {
            EXPECT_TRUE(e.is(nd_core::STATE_SHOWING)) << e.key;
        }
    }
}

// ---- without a desktop ---------------------------------------------------------------------------

TEST(AtspiMatchRule, role_names_map_back_to_their_numbers)
{
    for (std::uint32_t r = 0; r < 130; ++r)
        EXPECT_EQ(nd_linux::atspi_role_from_name(nd_linux::atspi_role_name(r)), r);
    EXPECT_EQ(nd_linux::atspi_role_from_name("push_button"), 43u);
    EXPECT_FALSE(nd_linux::atspi_role_from_name("no_such_role"));
    EXPECT_FALSE(nd_linux::atspi_role_from_name(""));
}

TEST(AtspiMatchRule, roles_travel_as_a_bit_set_of_32_bit_words)
{
    EXPECT_TRUE(nd_linux::role_bits({}).empty());
    EXPECT_EQ(nd_linux::role_bits({43}), (std::vector<std::int32_t>{0, 1 << 11}));
    EXPECT_EQ(nd_linux::role_bits({0, 31, 32}),
              (std::vector<std::int32_t>{static_cast<std::int32_t>(0x80000001u), 1}));
    EXPECT_EQ(nd_linux::role_bits({129}).size(), 5u);
}

// ---- gtk3-widget-factory: Collection.GetMatches --------------------------------------------------

class AtspiFinderGtk3 : public WidgetFactoryTest {
protected:
    void SetUp() override
    {
        WidgetFactoryTest::SetUp();
        if (IsSkipped() || HasFatalFailure())
            return;
        m_finder = std::make_unique<AtspiFinder>(*m_bus);
        // The first read that reaches 200 elements may come while the window is still being built
        // (257 of 260 on a loaded machine): compare searches with a read of the finished window.
        for (int i = 0; i < 20; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            auto again = reread();
            if (again.elements.size() == m_tree.elements.size())
                break;
            m_tree = std::move(again);
        }
    }

    FindResult find(const FindQuery& q)
    {
        auto r = m_finder->find(m_window, q);
        if (!r) {
            ADD_FAILURE() << r.error().text();
            return {};
        }
        expect_search_hits(*r);
        return std::move(r).value();
    }

    std::unique_ptr<AtspiFinder> m_finder;
};

TEST_F(AtspiFinderGtk3, a_role_search_uses_get_matches_and_gives_every_push_button_a_read_has)
{
    auto t0 = std::chrono::steady_clock::now();
    auto r = find(query("push_button"));
    double ms = elapsed_ms(t0);
    const auto& last = m_finder->last_find();
    std::printf("gtk3 role search: %zu push buttons in %.2f ms (GetMatches named %zu, %zu calls, %zu from the "
                "cache)\n",
                r.elements.size(), ms, last.matches, last.calls, last.from_cache);
    EXPECT_TRUE(last.used_matches);
    EXPECT_FALSE(r.truncated);
    EXPECT_GE(r.elements.size(), 15u);
    EXPECT_EQ(sorted(keys(r.elements)), sorted(keys_by_read(m_tree, query("push_button"))));
    int showing = 0;
    for (const auto& e : r.elements) {
        EXPECT_EQ(e.role, "push_button");
        EXPECT_FALSE(e.actions.empty()) << e.key;
        if (e.is(nd_core::STATE_SHOWING)) {
            ++showing;
            EXPECT_TRUE(e.has_frame) << e.key;
        }
    }
    EXPECT_GE(showing, 3);
}

TEST_F(AtspiFinderGtk3, a_name_fragment_finds_a_visible_button_whatever_its_case)
{
    auto r = find(query("push_button", "sans REG"));
    EXPECT_TRUE(m_finder->last_find().used_matches);
    ASSERT_EQ(r.elements.size(), 1u);
    const auto& button = r.elements[0];
    EXPECT_EQ(button.name, "Sans Regular");
    EXPECT_TRUE(button.is(nd_core::STATE_SHOWING));
    ASSERT_TRUE(button.has_frame);
    EXPECT_GT(button.frame.w, 0);
    EXPECT_EQ(button.key, m_tree.elements[static_cast<std::size_t>(WidgetFactoryTest::find(m_tree, "push_button",
                                                                                            "Sans Regular"))].key);

    // Without a role every element is a candidate and names are filtered on our side.
    for (const char* fragment : {"volume", "ABOUT widget", "a"}) {
        auto any = find(query("", fragment));
        EXPECT_TRUE(m_finder->last_find().used_matches);
        EXPECT_FALSE(any.truncated) << fragment;
        EXPECT_EQ(sorted(keys(any.elements)), sorted(keys_by_read(m_tree, query("", fragment)))) << fragment;
        EXPECT_FALSE(any.elements.empty()) << fragment;
    }
}

TEST_F(AtspiFinderGtk3, max_results_keeps_a_preorder_prefix_and_says_so)
{
    const auto all = keys(find(query("push_button")).elements);
    ASSERT_GE(all.size(), 6u);

    auto cut = find(query("push_button", "", 5));
    EXPECT_TRUE(cut.truncated);
    EXPECT_EQ(keys(cut.elements), std::vector<std::string>(all.begin(), all.begin() + 5));

    auto exact = find(query("push_button", "", static_cast<std::int32_t>(all.size())));
    EXPECT_FALSE(exact.truncated);
    EXPECT_EQ(keys(exact.elements), all);

    const auto volume = keys(find(query("", "volume")).elements);
    ASSERT_GE(volume.size(), 2u);
    auto named = find(query("", "volume", 1));
    EXPECT_TRUE(named.truncated);
    EXPECT_EQ(keys(named.elements), std::vector<std::string>{volume.front()});

    // No constraint at all: the frame first, as in a read, then the app's preorder.
    const auto everything = keys(find(query("", "", 5000)).elements);
    EXPECT_EQ(sorted(everything), sorted(keys(m_tree.elements)));
    auto first = find(query("", "", 3));
    EXPECT_TRUE(first.truncated);
    EXPECT_EQ(keys(first.elements), std::vector<std::string>(everything.begin(), everything.begin() + 3));
    EXPECT_EQ(first.elements[0].role, "frame");
    EXPECT_EQ(first.elements[0].key, m_tree.elements[0].key);
}

TEST_F(AtspiFinderGtk3, a_search_that_matches_nothing_is_empty_not_an_error)
{
    auto none = find(query("push_button", "no element is called this"));
    EXPECT_TRUE(none.elements.empty());
    EXPECT_FALSE(none.truncated);
    EXPECT_TRUE(m_finder->last_find().used_matches);
    EXPECT_TRUE(find(query("no_such_role")).elements.empty());
    EXPECT_TRUE(find(query("password_text")).elements.empty()); // the widget factory has none
}

TEST_F(AtspiFinderGtk3, a_stopped_app_fails_within_the_deadline)
{
    m_app->signal(SIGSTOP);
    auto q = query("push_button");
    q.deadline = std::chrono::milliseconds(500);
    auto t0 = std::chrono::steady_clock::now();
    auto r = m_finder->find(m_window, q);
    double ms = elapsed_ms(t0);
    m_app->signal(SIGCONT);
    ASSERT_FALSE(r);
    EXPECT_TRUE(r.error().code == ErrorCode::app_not_responding || r.error().code == ErrorCode::timed_out)
        << r.error().text();
    EXPECT_LT(ms, 700.0);
    auto again = m_finder->find(m_window, query("push_button"));
    EXPECT_TRUE(again) << again.error().text();
}

TEST_F(AtspiFinderGtk3, an_app_that_exits_mid_search_gives_clean_errors)
{
    // Searches (every element a candidate) while the app is killed under them: each ends with hits
    // or a clean error, the last ones with the window gone.
    std::atomic<bool> stop{false};
    std::thread killer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        m_app->kill_now();
        stop = true;
    });
    nd_core::Error last;
    bool last_failed = false;
    for (int i = 0; i < 200; ++i) {
        auto r = m_finder->find(m_window, query("", "a"));
        last_failed = !r;
        if (!r) {
            last = r.error();
            EXPECT_TRUE(last.code == ErrorCode::window_target_not_found || last.code == ErrorCode::element_not_found ||
                        last.code == ErrorCode::app_not_responding)
                << last.text();
        }
        if (stop && last_failed)
            break;
    }
    killer.join();
    ASSERT_TRUE(last_failed);
    EXPECT_TRUE(last.code == ErrorCode::window_target_not_found || last.code == ErrorCode::element_not_found)
        << last.text();
}

// ---- gtk4-widget-factory: no Collection, the whole-window fallback -------------------------------

TEST(AtspiFinderGtk4, an_app_without_collection_is_read_whole_and_filtered)
{
    NISH_REQUIRE_DESKTOP();
    auto bus = nd_linux::AtspiBus::open();
    ASSERT_TRUE(bus) << bus.error().text();
    nd_linux::AtspiTreeReader reader(**bus);
    // GTK 4 finds the accessibility bus through the session bus, so it keeps ours (TestApp's
    // session bus leads nowhere); the tests run one at a time, so GApplication stays unique.
    OwnedApp app({"gtk4-widget-factory"});
    ASSERT_GT(app.pid(), 0) << app.error();
    auto window = x_window_of(app, std::chrono::seconds(30));
    ASSERT_NE(window.window_id, 0) << "gtk4-widget-factory showed no window";
    // GTK 4 builds accessible objects as they are first asked for: wait until two reads agree.
    std::size_t last = 0;
    nd_core::RawTree tree;
    for (int i = 0; i < 100; ++i) {
        auto read = wait_for_window(reader, window, 500, std::chrono::seconds(30));
        ASSERT_TRUE(read) << read.error().text();
        if (read->elements.size() == last) {
            tree = std::move(read).value();
            break;
        }
        last = read->elements.size();
    }
    ASSERT_FALSE(tree.elements.empty()) << "the window never held still";

    AtspiFinder finder(**bus);
    auto t0 = std::chrono::steady_clock::now();
    auto buttons = finder.find(window, query("push_button"));
    double ms = elapsed_ms(t0);
    ASSERT_TRUE(buttons) << buttons.error().text();
    std::printf("gtk4 role search (fallback): %zu push buttons in %.2f ms, read %zu elements\n",
                buttons->elements.size(), ms, finder.last_find().read_elements);
    EXPECT_FALSE(finder.last_find().used_matches);
    EXPECT_GT(finder.last_find().read_elements, 500u);
    expect_search_hits(*buttons);
    EXPECT_FALSE(buttons->truncated);
    EXPECT_GE(buttons->elements.size(), 20u);
    EXPECT_EQ(keys(buttons->elements), keys_by_read(tree, query("push_button")));

    auto sw = finder.find(window, query("check_box", "gtkswitch"));
    ASSERT_TRUE(sw) << sw.error().text();
    EXPECT_FALSE(finder.last_find().used_matches); // remembered: GetMatches is not asked again
    ASSERT_FALSE(sw->elements.empty());
    EXPECT_EQ(sw->elements[0].name, "GtkSwitch");

    // The password entry: found, marked secure, its value never carried.
    auto pw = finder.find(window, query("password_text", "", 5));
    ASSERT_TRUE(pw) << pw.error().text();
    ASSERT_FALSE(pw->elements.empty());
    EXPECT_TRUE(pw->elements[0].is(nd_core::STATE_SECURE));
    expect_search_hits(*pw);

    auto cut = finder.find(window, query("push_button", "", 3));
    ASSERT_TRUE(cut) << cut.error().text();
    EXPECT_TRUE(cut->truncated);
    EXPECT_EQ(cut->elements.size(), 3u);
}

// ---- Qt 5: no Collection either ------------------------------------------------------------------

TEST(AtspiFinderQt5, the_calculator_example_is_searched_through_the_fallback_and_survives_it)
{
    NISH_REQUIRE_DESKTOP();
    const char* dir = std::getenv("NISH_QT5_EXAMPLES");
    const std::string program = std::string(dir && *dir ? dir : "/usr/lib/x86_64-linux-gnu/qt5/examples") +
                                "/widgets/widgets/calculator/calculator";
    if (!std::filesystem::exists(program))
        GTEST_SKIP() << "no Qt 5 calculator example (qtbase5-examples)";
    auto bus = nd_linux::AtspiBus::open();
    ASSERT_TRUE(bus) << bus.error().text();
    OwnedApp app({program});
    ASSERT_GT(app.pid(), 0) << app.error();
    auto window = x_window_of(app, std::chrono::seconds(30));
    ASSERT_NE(window.window_id, 0) << "the calculator showed no window";

    AtspiFinder finder(**bus);
    nd_core::Result<FindResult> seven = nd_core::make_error(ErrorCode::timed_out, "not searched yet");
    wait_until(
        [&] {
            seven = finder.find(window, query("push_button", "7"));
            return seven && !seven->elements.empty();
        },
        std::chrono::seconds(20));
    ASSERT_TRUE(seven) << seven.error().text();
    std::printf("qt5 search: used GetMatches = %d, read %zu elements\n", finder.last_find().used_matches,
                finder.last_find().read_elements);
    ASSERT_EQ(seven->elements.size(), 1u);
    EXPECT_EQ(seven->elements[0].name, "7");
    expect_search_hits(*seven);
    auto digits = finder.find(window, query("push_button", "", 100));
    ASSERT_TRUE(digits) << digits.error().text();
    EXPECT_GE(digits->elements.size(), 10u);
    EXPECT_TRUE(app.running()) << "the calculator died";
}

// ---- Chromium on the dense page: GetMatches against the full read -------------------------------

TEST(AtspiFinderChromium, a_role_search_on_a_dense_page_answers_far_faster_than_a_full_read)
{
    NISH_REQUIRE_DESKTOP();
    auto bus = nd_linux::AtspiBus::open();
    ASSERT_TRUE(bus) << bus.error().text();
    std::string profile = (std::filesystem::temp_directory_path() / "nish-chromium-XXXXXX").string();
    ASSERT_NE(::mkdtemp(profile.data()), nullptr) << std::strerror(errno);
    const auto page = std::filesystem::absolute(std::string(NISH_SOURCE_DIR) + "/fixtures/web/dense.html");
    ASSERT_TRUE(std::filesystem::exists(page)) << page;
    {
        // Started as apps_linux_test starts it.
        OwnedApp app(nd_test::chromium_argv(profile, "file://" + page.string(), "1200,900"));
        ASSERT_GT(app.pid(), 0) << app.error();
        auto window = x_window_of(app, std::chrono::seconds(30));
        ASSERT_NE(window.window_id, 0) << "chromium showed no window";
        nd_linux::AtspiTreeReader reader(**bus);
        nd_core::ReadLimits whole;
        whole.max_elements = 50000;
        whole.deadline = std::chrono::seconds(20);
        nd_core::RawTree tree;
        double read_ms = 0;
        std::string last_problem = "none";
        const bool loaded = wait_until(
            [&] {
                auto t0 = std::chrono::steady_clock::now();
                auto read = reader.read_window(window, whole);
                read_ms = elapsed_ms(t0);
                last_problem = read ? std::to_string(read->elements.size()) + " elements" : read.error().text();
                if (read && read->elements.size() > 9000)
                    tree = std::move(read).value();
                return !tree.elements.empty();
            },
            std::chrono::seconds(60));
        ASSERT_TRUE(loaded) << "the dense page never read in full; last read: " << last_problem;
        // A second full read, the page settled, is the one to compare with: a cold one, as a
        // search reads the app afresh too (a warm read would answer from the first).
        reader.warm().set_enabled(false);
        auto t0 = std::chrono::steady_clock::now();
        auto again = reader.read_window(window, whole);
        read_ms = elapsed_ms(t0);
        ASSERT_TRUE(again) << again.error().text();
        tree = std::move(again).value();
        ASSERT_FALSE(tree.truncated);

        AtspiFinder finder(**bus);
        t0 = std::chrono::steady_clock::now();
        auto all = finder.find(window, query("push_button", "", 5000));
        const double all_ms = elapsed_ms(t0);
        ASSERT_TRUE(all) << all.error().text();
        const auto stats = finder.last_find();
        t0 = std::chrono::steady_clock::now();
        auto first = finder.find(window, query("push_button", "", 50));
        const double first_ms = elapsed_ms(t0);
        ASSERT_TRUE(first) << first.error().text();
        t0 = std::chrono::steady_clock::now();
        auto replies = finder.find(window, query("push_button", "reply", 5000));
        const double named_ms = elapsed_ms(t0);
        ASSERT_TRUE(replies) << replies.error().text();
        t0 = std::chrono::steady_clock::now();
        auto any = finder.find(window, query("", "sign in", 50));
        const double any_ms = elapsed_ms(t0);
        ASSERT_TRUE(any) << any.error().text();
        const auto any_stats = finder.last_find();

        std::printf("chromium dense page: full read %zu elements in %.0f ms\n", tree.elements.size(), read_ms);
        std::printf("  find push_button (all):        %zu in %.0f ms (GetMatches named %zu, %zu calls)\n",
                    all->elements.size(), all_ms, stats.matches, stats.calls);
        std::printf("  find push_button (first 50):   %zu in %.0f ms\n", first->elements.size(), first_ms);
        std::printf("  find push_button \"reply\":      %zu in %.0f ms\n", replies->elements.size(), named_ms);
        std::printf("  find any role \"sign in\":       %zu in %.0f ms (GetMatches named %zu, %zu calls)\n",
                    any->elements.size(), any_ms, any_stats.matches, any_stats.calls);

        EXPECT_TRUE(stats.used_matches);
        expect_search_hits(*all);
        EXPECT_FALSE(all->truncated);
        EXPECT_GT(all->elements.size(), 1000u);
        EXPECT_EQ(sorted(keys(all->elements)), sorted(keys_by_read(tree, query("push_button"))));
        EXPECT_TRUE(first->truncated);
        const auto all_keys = keys(all->elements);
        ASSERT_GE(all_keys.size(), 50u);
        EXPECT_EQ(keys(first->elements), std::vector<std::string>(all_keys.begin(), all_keys.begin() + 50));
        EXPECT_EQ(sorted(keys(replies->elements)), sorted(keys_by_read(tree, query("push_button", "reply"))));
        EXPECT_GT(replies->elements.size(), 100u);
        EXPECT_EQ(sorted(keys(any->elements)), sorted(keys_by_read(tree, query("", "sign in"))));

        auto pw = finder.find(window, query("password_text"));
        ASSERT_TRUE(pw) << pw.error().text();
        ASSERT_EQ(pw->elements.size(), 1u);
        EXPECT_TRUE(pw->elements[0].is(nd_core::STATE_SECURE));
        expect_search_hits(*pw);

        // Generous sanity bounds only: the numbers above are the measurement.
        EXPECT_LT(first_ms, read_ms);
        EXPECT_LT(all_ms, 5000.0);
        app.stop();
    }
    std::error_code ec;
    std::filesystem::remove_all(profile, ec);
    EXPECT_FALSE(ec) << ec.message();
}

} // namespace

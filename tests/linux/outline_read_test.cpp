// A Chromium or Gecko page its app's item cache lacks is read through its outline (one
// Collection.GetTree call, backend/linux/atspi/atspi_outline.h): the same tree as a walk of it,
// element for element, in fewer calls, also when the budget cuts it or the outline misses the
// read's deadline. And Chromium's action names asked once per role are each row's own.

#include "reader_compare.h"

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_names.h"
#include "backend/linux/linux_backend.h"

namespace {

using nd_test::json;
using nd_test::WarmReads;

TEST_F(WarmReads, ChromiumPageReadThroughItsOutlineEqualsItsWalk)
{
    open_page("chat.html", 3500);
    expect_outline_equals_walk("chat.html");
}

// A view's rows name their actions (Chromium leaves GetActions' names empty): the first of each row
// asked of the row, the others once per role and count (AlikeActionNames). Every name must be the
// one Action.GetName gives for that very row, asked here one by one.
TEST_F(WarmReads, ChromiumActionNamesAskedOncePerRoleAreEachRowsOwn)
{
    open_page("chat.html", 3500);
    auto tree = m_cold->read_window(m_info, m_limits);
    ASSERT_TRUE(tree) << tree.error().message;
    std::vector<std::int32_t> rows(tree->elements.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i] = static_cast<std::int32_t>(i);
    const auto before = m_cold->action_name_calls();
    ASSERT_TRUE(m_cold->read_frames(m_info, tree->elements, rows, m_limits.deadline, true));
    const auto asked = m_cold->action_name_calls() - before;

    std::vector<std::vector<std::string>> own(tree->elements.size());
    std::size_t actions = 0;
    nd_linux::AtspiBatch batch(*m_bus, nd_linux::deadline_in(std::chrono::seconds(30)));
    for (std::size_t k = 0; k < tree->elements.size(); ++k) {
        const auto ref = nd_linux::parse_key(tree->elements[k].key);
        if (!ref)
            continue;
        own[k].resize(tree->elements[k].actions.size());
        for (std::size_t i = 0; i < own[k].size(); ++i, ++actions)
            batch.add({ref->bus, ref->path, nd_linux::IFACE_ACTION, "GetName"},
                      [i](sd_bus_message* m) { return sd_bus_message_append(m, "i", static_cast<std::int32_t>(i)); },
                      [&own, k, i](const nd_linux::Reply& r) {
                          if (r.ok())
                              (void)nd_linux::read_string(r.message, own[k][i]);
                      });
    }
    ASSERT_TRUE(batch.run());
    std::size_t differ = 0;
    for (std::size_t k = 0; k < own.size(); ++k)
        if (!own[k].empty() && own[k] != tree->elements[k].actions && ++differ <= 5)
            ADD_FAILURE() << "row " << k << " (" << tree->elements[k].role << " \"" << tree->elements[k].name
                          << "\"): its actions read " << json(tree->elements[k].actions).dump() << ", its own are "
                          << json(own[k]).dump();
    EXPECT_EQ(differ, 0u);
    std::printf("chat page: %zu action names asked for %zu actions of %zu rows\n", asked, actions, rows.size());
    EXPECT_LT(asked * 3, actions * 2) << "the names past the first are asked once per role";
}

// A page that was open when the browser's item cache was made (a browser a person used before any
// assistive client came) is read from the cache, and Chromium's action counts, which the cache
// lacks and GetActions would give one object a call, come in one outline of Action.NActions alone:
// the same read as a walk of the page, in fewer calls. Nothing of this process touches the
// accessibility bus until the page is loaded (a listener of ours would have the browser make its
// cache at its start, without the page): the window is found through X first.
TEST(ChromiumItemCache, APageInTheCacheCountsItsActionsInOneOutlineAsItsWalkDoes)
{
    NISH_REQUIRE_DESKTOP();
    if (std::system("command -v chromium >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "chromium is not installed";
    std::string profile = (std::filesystem::temp_directory_path() / "nish-chromium-XXXXXX").string();
    ASSERT_NE(::mkdtemp(profile.data()), nullptr);
    const auto page = std::filesystem::absolute(std::string(NISH_SOURCE_DIR) + "/fixtures/web/chat.html");
    {
        nd_test::OwnedApp chromium(nd_test::chromium_argv(profile, "file://" + page.string(), "1200,900"));
        ASSERT_GT(chromium.pid(), 0) << chromium.error();
        const auto window_id = nd_test::x_window_titled(chromium.pid(), "Chat fixture", std::chrono::seconds(40));
        ASSERT_NE(window_id, 0) << "Chromium showed no window of the page";
        std::this_thread::sleep_for(std::chrono::seconds(3)); // the page's tree, before anyone asks

        auto backend = nd_linux::LinuxBackend::open();
        ASSERT_TRUE(backend) << backend.error().text();
        auto bus = nd_linux::AtspiBus::open();
        ASSERT_TRUE(bus) << bus.error().text();
        nd_core::WindowInfo window;
        ASSERT_TRUE(nd_test::wait_until(
            [&] {
                auto listed = (*backend)->windows()->list_windows();
                for (const auto& w : listed ? *listed : std::vector<nd_core::WindowInfo>{})
                    if (w.window_id == window_id)
                        window = w;
                return window.window_id == window_id;
            },
            std::chrono::seconds(10)));
        auto read = [&](nd_linux::AtspiTreeReader& reader) -> nd_core::Result<nd_core::RawTree> {
            auto tree = TRY(reader.read_window(window, nd_test::LIMITS));
            std::vector<std::int32_t> rows(tree.elements.size());
            for (std::size_t i = 0; i < rows.size(); ++i)
                rows[i] = static_cast<std::int32_t>(i);
            TRY_VOID(reader.read_frames(window, tree.elements, rows, nd_test::LIMITS.deadline, false));
            return tree;
        };
        std::string diff = "never read";
        for (int attempt = 0; attempt < 5 && !diff.empty(); ++attempt) {
            // Chromium makes its cache when it learns of our listener (the bus's), a moment after;
            // a reader that found none would not ask again (as of an app without one).
            nd_linux::AtspiTreeReader cached(**bus);
            cached.warm().set_enabled(false);
            nd_linux::AtspiTreeReader walked(**bus);
            walked.warm().set_enabled(false);
            walked.set_outlines(false);
            auto through_cache = read(cached);
            ASSERT_TRUE(through_cache) << through_cache.error().message;
            const auto last = cached.last_read();
            if (last.from_cache < through_cache->elements.size() * 9 / 10 && attempt < 4) {
                std::this_thread::sleep_for(std::chrono::seconds(1));
                continue;
            }
            auto walk = read(walked);
            ASSERT_TRUE(walk) << walk.error().message;
            ASSERT_GE(last.from_cache, through_cache->elements.size() * 9 / 10)
                << "the item cache did not hold the page: " << last.from_cache << " of " << through_cache->elements.size();
            EXPECT_GE(last.outlined, through_cache->elements.size()) << "the action counts came in no outline";
            EXPECT_LT(last.calls * 2, walked.last_read().calls)
                << "GetActions were asked: " << last.calls << " calls against " << walked.last_read().calls;
            std::printf("chat.html from the item cache: %zu elements, %zu calls with an outline of action counts "
                        "(%zu objects), %zu without\n",
                        through_cache->elements.size(), last.calls, last.outlined, walked.last_read().calls);
            // A page may change between two reads (a late image): only a difference that stays fails.
            diff = nd_test::difference(*through_cache, *walk);
        }
        EXPECT_EQ(diff, "") << "the read with an outline of action counts differs from the walk";
    }
    std::error_code ec;
    std::filesystem::remove_all(profile, ec);
}

// The budget cuts an outlined page where it cuts a walked one: its first 5,000 objects breadth-first.
TEST_F(WarmReads, ChromiumPageBiggerThanTheBudgetReadThroughItsOutlineEqualsItsWalk)
{
    open_page("dense.html", 4000);
    expect_outline_equals_walk("dense.html");
}

// An outline that does not come by the read's deadline fails that read as a walk past its deadline
// does, and the window is walked from then on: the next read awaits Chromium's late answer and
// reads the page whole. Deadlines from short to longer, until one lets the locating pass and
// stops the outline (the 12,000-object page's takes Chromium about 100 ms).
TEST_F(WarmReads, AnOutlinePastTheDeadlineFailsThatReadAndTheWindowIsWalkedSince)
{
    open_page("dense.html", 4000);
    for (int ms : {20, 40, 60, 90, 130, 180}) {
        nd_linux::AtspiTreeReader reader(*m_bus);
        reader.warm().set_enabled(false);
        auto limits = m_limits;
        limits.deadline = std::chrono::milliseconds(ms);
        auto quick = reader.read_window(m_info, limits);
        if (quick)
            continue;
        EXPECT_TRUE(quick.error().code == nd_core::ErrorCode::timed_out ||
                    quick.error().code == nd_core::ErrorCode::app_not_responding)
            << quick.error().text();
        auto next = reader.read_window(m_info, m_limits);
        ASSERT_TRUE(next) << next.error().text();
        EXPECT_EQ(next->elements.size(), 5000u);
        if (reader.last_read().outlined == 0) {
            std::printf("an outline past a %d ms deadline: that read failed, the next walked the page\n", ms);
            return;
        }
        // The locating itself ran out: try a longer deadline.
    }
    ADD_FAILURE() << "no deadline stopped the outline rather than the locating";
}

// Gecko's bridge answers GetTree too; the form's number and range inputs (value roles, whose Value
// the outline cannot tell) read their values as the walk does.
TEST_F(WarmReads, FirefoxFormReadThroughItsOutlineEqualsItsWalk)
{
    open_firefox("settings-form.html", 40, "1000", "900");
    find_window();
    expect_outline_equals_walk("settings-form.html in Firefox");
}

} // namespace

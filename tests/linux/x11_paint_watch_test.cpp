// X11PaintWatch (x11_paint_watch.h) on windows of the test's own: it tells where a window was drawn
// in since a moment, the parts another window covers, that anything changed when the window moved,
// and nothing once the window is gone (a window that takes its id is watched anew).

#include "own_window.h"
#include "x11_test_support.h"

#include "backend/linux/x11/x11_paint_watch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;
using nd_core::Frame;
using nd_test::OwnWindow;

class X11PaintWatchTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_DESKTOP();
        auto x = nd_linux::X11Display::open();
        ASSERT_TRUE(x) << x.error().text();
        m_x = std::move(x).value();
        m_watch = nd_linux::X11PaintWatch::open("");
        ASSERT_TRUE(m_watch) << "no DAMAGE or XFixes on the test desktop";
    }

    std::optional<nd_linux::PaintNews> news(xcb_window_t window, Clock::time_point since)
    {
        return m_watch->news(window, since, Clock::now() + std::chrono::seconds(2));
    }

    // Fills `part` (window coordinates) of `window` and waits for the server to have drawn it.
    void fill(xcb_window_t window, Frame part)
    {
        auto* c = m_x->connection();
        const auto gc = xcb_generate_id(c);
        const std::uint32_t black = m_x->screen().black_pixel;
        xcb_create_gc(c, gc, window, XCB_GC_FOREGROUND, &black);
        const xcb_rectangle_t r{static_cast<std::int16_t>(part.x), static_cast<std::int16_t>(part.y),
                                static_cast<std::uint16_t>(part.w), static_cast<std::uint16_t>(part.h)};
        xcb_poly_fill_rectangle(c, window, gc, 1, &r);
        xcb_free_gc(c, gc);
        free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nullptr)); // a round trip: drawn
    }

    static bool holds(const std::vector<Frame>& parts, Frame part)
    {
        return std::any_of(parts.begin(), parts.end(), [&](const Frame& p) { return p.shared(part) == part; });
    }

    std::unique_ptr<nd_linux::X11Display> m_x;
    std::unique_ptr<nd_linux::X11PaintWatch> m_watch;
};

TEST_F(X11PaintWatchTest, TellsWhereAWindowWasDrawnInAndWhatCoversIt)
{
    const Frame at{200, 150, 300, 200};
    OwnWindow window(*m_x, "", at, OwnWindow::Kind::override_redirect);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    auto first = news(window.id(), Clock::now() - std::chrono::seconds(1));
    ASSERT_TRUE(first);
    EXPECT_TRUE(first->anything) << "a window not watched before";

    // Nothing drawn since: no part, not anything.
    const auto before = Clock::now();
    auto quiet = news(window.id(), before);
    ASSERT_TRUE(quiet);
    EXPECT_FALSE(quiet->anything);
    EXPECT_TRUE(quiet->parts.empty()) << quiet->parts.size() << " parts";

    // A part drawn: told in screen coordinates, and only since before it.
    fill(window.id(), {10, 20, 30, 40});
    auto drawn = news(window.id(), before);
    ASSERT_TRUE(drawn);
    EXPECT_FALSE(drawn->anything);
    EXPECT_TRUE(holds(drawn->parts, {at.x + 10, at.y + 20, 30, 40}));
    EXPECT_FALSE(holds(drawn->parts, {at.x + 100, at.y + 100, 10, 10}));
    auto later = news(window.id(), Clock::now());
    ASSERT_TRUE(later);
    EXPECT_TRUE(later->parts.empty()) << "a part drawn before the moment asked of";

    // Covered in part by a window above: anything once (the windows above changed), then the
    // covered part at every ask.
    {
        OwnWindow cover(*m_x, "", {at.x + 250, at.y + 150, 100, 100}, OwnWindow::Kind::override_redirect);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        auto came = news(window.id(), Clock::now());
        ASSERT_TRUE(came);
        EXPECT_TRUE(came->anything) << "a window above came";
        auto covered = news(window.id(), Clock::now());
        ASSERT_TRUE(covered);
        EXPECT_FALSE(covered->anything);
        EXPECT_TRUE(holds(covered->parts, {at.x + 250, at.y + 150, 50, 50}));
    }

    // Moved: anything.
    ASSERT_EQ(nd_test::run_command({"xdotool", "windowmove", std::to_string(window.id()), "240", "160"}), 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    auto moved = news(window.id(), Clock::now());
    ASSERT_TRUE(moved);
    EXPECT_TRUE(moved->anything);
}

TEST_F(X11PaintWatchTest, AWindowGoneIsNoLongerWatched)
{
    xcb_window_t id = 0;
    {
        OwnWindow window(*m_x, "", {100, 100, 200, 200}, OwnWindow::Kind::override_redirect);
        id = window.id();
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        ASSERT_TRUE(news(id, Clock::now()));
        ASSERT_TRUE(news(id, Clock::now()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    // Its damage object went with it: the watch says nothing of that id, and drops it, so that a
    // window that takes the id later is watched from its own first ask.
    EXPECT_FALSE(news(id, Clock::now()));
    EXPECT_FALSE(news(id, Clock::now()));
}

} // namespace

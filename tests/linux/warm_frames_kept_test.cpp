// Frames kept (atspi_warm.h, atspi_paint_watch.h): a warm read of a window asks a sample of eight
// frames of the app, and those of the rows where the window was drawn in lately or that another
// window covers; one that scrolled (another X client's wheel), moved, or whose windows above
// changed asks them all. Every read equals a cold one.

#include "own_window.h"
#include "reader_compare.h"

#include "backend/linux/x11/x11_overlay.h"

#include <algorithm>

namespace {

using nd_test::WarmReads;

class FramesKept : public WarmReads {
protected:
    // Reads warm until a read keeps its frames, asking no more than `most` of them: a second or
    // so after the window's last drawing, where it was drawn in.
    void until_kept(const std::string& step, std::size_t most = nd_linux::WarmTrees::FRAME_SAMPLES)
    {
        for (int i = 0; i < 40; ++i) {
            auto tree = m_warm->read_window(m_info, m_limits);
            ASSERT_TRUE(tree) << step << ": " << tree.error().message;
            const auto& stats = m_warm->warm().stats();
            if (m_warm->last_read().warm && stats.frames_kept && stats.framed <= most) {
                EXPECT_GE(stats.framed, nd_linux::WarmTrees::FRAME_SAMPLES) << step;
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
        }
        FAIL() << step << ": no read kept its frames asking at most " << most << " (last: "
               << m_warm->warm().stats().framed << " asked; last decline: " << m_warm->warm().stats().last_decline
               << ")";
    }

    // Reads warm until a read keeps its frames; that read kept those of the rows outside `parts`,
    // and asked those of the rows whose frame meets one, besides the sample.
    void expect_asked_only_in(const std::vector<nd_core::Frame>& parts, const std::string& step)
    {
        nd_core::Result<nd_core::RawTree> tree = nd_core::RawTree{};
        const auto& stats = m_warm->warm().stats();
        for (int i = 0; i < 40; ++i) {
            tree = m_warm->read_window(m_info, m_limits);
            ASSERT_TRUE(tree) << step << ": " << tree.error().message;
            if (m_warm->last_read().warm && stats.frames_kept)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
        }
        ASSERT_TRUE(m_warm->last_read().warm && stats.frames_kept) << step << ": " << stats.last_decline;
        std::size_t meeting = 0, framed = 0;
        for (const auto& x : tree->elements) {
            framed += x.has_frame ? 1 : 0;
            meeting += x.has_frame && std::any_of(parts.begin(), parts.end(),
                                                  [&](const nd_core::Frame& p) { return x.frame.meets(p); });
        }
        std::printf("%s: %zu frames asked, %zu rows meet the parts, %zu rows have a frame\n", step.c_str(),
                    stats.framed, meeting, framed);
        EXPECT_GT(meeting, 2u) << step << ": the parts meet too few rows to tell";
        EXPECT_GE(stats.framed, meeting) << step;
        EXPECT_LE(stats.framed, meeting + nd_linux::WarmTrees::FRAME_SAMPLES) << step;
        EXPECT_LT(stats.framed, framed / 2) << step << ": " << framed << " rows have a frame";
    }

    // The next warm read asks its frames.
    void expect_asked(const std::string& step)
    {
        auto tree = m_warm->read_window(m_info, m_limits);
        ASSERT_TRUE(tree) << step << ": " << tree.error().message;
        const auto& stats = m_warm->warm().stats();
        EXPECT_TRUE(m_warm->last_read().warm) << step << ": " << stats.last_decline;
        EXPECT_FALSE(stats.frames_kept) << step;
    }
};

TEST_F(FramesKept, AChromiumPageKeepsItsFramesUntilItScrollsMovesOrIsCovered)
{
    open_page("dense.html", 4000);
    expect_warm_equals_cold("first read");
    ASSERT_NO_FATAL_FAILURE(until_kept("unchanged"));
    expect_warm_equals_cold("unchanged, frames kept");

    // A scroll by another X client's wheel: the page draws, and no event says so.
    const auto& f = m_info.frame;
    ASSERT_EQ(nd_test::run_command({"xdotool", "mousemove", std::to_string(f.x + f.w / 2),
                  std::to_string(f.y + f.h * 2 / 3), "click", "--repeat", "3", "--delay", "50", "5"}),
        0);
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    expect_asked("after a scroll");
    expect_warm_equals_cold("after a scroll");

    // Covered in part by another client's window: what the page draws under it is not reported,
    // so the rows under it are asked at every read, and only they with the sample. The cover's
    // coming asks them all once, and so does its going (what it covered shows again).
    ASSERT_NO_FATAL_FAILURE(until_kept("scrolled"));
    {
        auto x = nd_linux::X11Display::open();
        ASSERT_TRUE(x) << x.error().text();
        const nd_core::Frame part{f.x + f.w - 400, f.y + 300, 100, 100};
        nd_test::OwnWindow cover(**x, "", part, nd_test::OwnWindow::Kind::override_redirect);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        expect_asked("covered");
        expect_warm_equals_cold("covered");
        expect_asked_only_in({part}, "still covered");
        expect_warm_equals_cold("still covered");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    expect_asked("uncovered");
    expect_warm_equals_cold("uncovered");

    // Moved by another client: the page draws nothing new, and every row's place changed.
    ASSERT_NO_FATAL_FAILURE(until_kept("uncovered"));
    ASSERT_EQ(nd_test::run_command({"xdotool", "windowmove", std::to_string(m_info.window_id), std::to_string(f.x + 40),
                  std::to_string(f.y + 30)}),
        0);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    auto listed = listed_window();
    ASSERT_TRUE(listed) << listed.error().text();
    m_info = *listed;
    expect_asked("moved");
    expect_warm_equals_cold("moved");
    ASSERT_NO_FATAL_FAILURE(until_kept("moved"));
    expect_warm_equals_cold("moved, frames kept");
}

// In a takeover the indicator's windows (a frame round the screen and a label) lie above the app's
// window: the rows under them are asked at every read, and the others kept.
TEST_F(FramesKept, InATakeoverOnlyTheRowsUnderTheIndicatorAreAsked)
{
    open_page("dense.html", 4000);
    // At the screen's corner, so that the indicator's left and top edges and its label lie on it.
    ASSERT_EQ(nd_test::run_command({"xdotool", "windowmove", std::to_string(m_info.window_id), "0", "0"}), 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    auto listed = listed_window();
    ASSERT_TRUE(listed) << listed.error().text();
    m_info = *listed;
    expect_warm_equals_cold("first read");
    ASSERT_NO_FATAL_FAILURE(until_kept("unchanged"));

    nd_linux::PressClock clock;
    nd_linux::PersonRule rule("", clock);
    nd_linux::X11Overlay overlay("", rule);
    ASSERT_TRUE(overlay.show_indicator());
    auto x = nd_linux::X11Display::open();
    ASSERT_TRUE(x) << x.error().text();
    std::vector<nd_core::Frame> parts;
    for (auto id : overlay.window_ids()) {
        auto geometry = (*x)->wait<xcb_get_geometry_reply_t>(xcb_get_geometry((*x)->connection(), id),
                                                             nd_linux::deadline_after(nd_linux::X11_BATCH_TIMEOUT));
        ASSERT_TRUE(geometry && *geometry);
        const nd_core::Frame place{(*geometry)->x, (*geometry)->y, (*geometry)->width, (*geometry)->height};
        if (const auto part = place.shared(m_info.frame); part.w > 0 && part.h > 0)
            parts.push_back(part);
    }
    ASSERT_GE(parts.size(), 2u) << "the indicator should lie on the window's left and top edges";
    expect_asked("indicator shown");
    expect_warm_equals_cold("indicator shown");
    expect_asked_only_in(parts, "in a takeover");
    expect_warm_equals_cold("in a takeover");
    overlay.hide_indicator();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    expect_asked("indicator gone");
    expect_warm_equals_cold("indicator gone");
}

// An app that animates in one part (gtk3-widget-factory's spinner and progress bars, 60 times a
// second, in one rectangle about a quarter of its window) keeps the frames of its other rows: a
// read asks only those where it draws, those off the screen (the window is wider than the test
// desktop), and the sample.
TEST_F(FramesKept, AnAppThatAnimatesKeepsTheFramesOfTheRowsItDoesNotDrawOver)
{
    open_app({"gtk3-widget-factory"}, "gtk3-widget-factory", 200);
    expect_warm_equals_cold("first read");
    auto tree = m_warm->read_window(m_info, m_limits);
    ASSERT_TRUE(tree) << tree.error().message;
    std::size_t framed = 0;
    for (const auto& x : tree->elements)
        framed += x.has_frame ? 1 : 0;
    ASSERT_NO_FATAL_FAILURE(until_kept("animating", framed * 2 / 3));
    std::printf("gtk3-widget-factory: %zu frames asked of %zu\n", m_warm->warm().stats().framed, framed);
    expect_warm_equals_cold("animating, frames kept");
    // A click still shows (its events ask every frame), and the frames are kept again after it.
    ASSERT_NO_FATAL_FAILURE(click_a_showing_check_box());
    expect_warm_equals_cold("after a click");
    ASSERT_NO_FATAL_FAILURE(until_kept("after a click", framed * 2 / 3));
    expect_warm_equals_cold("after a click, frames kept");
}

// A window system that reports no drawing at all: the frames are kept by its word, and the sample
// asked with every such read still sees a scroll (the app's tree placed the rows anew) and has all
// asked again.
class NothingDrawn final : public nd_linux::PaintWatch {
public:
    std::optional<nd_linux::PaintNews> news(std::int64_t, Clock::time_point, Clock::time_point) override
    {
        return nd_linux::PaintNews{};
    }
    void forget(std::int64_t) override {}
};

TEST_F(FramesKept, ASampleOfTheFramesSeesAScrollTheWindowSystemDidNotTell)
{
    m_warm->warm().set_paint_watch(std::make_unique<NothingDrawn>());
    open_page("dense.html", 4000);
    expect_warm_equals_cold("first read");
    ASSERT_NO_FATAL_FAILURE(until_kept("unchanged"));
    const auto& f = m_info.frame;
    for (const char* wheel : {"5", "4"}) {
        ASSERT_EQ(nd_test::run_command({"xdotool", "mousemove", std::to_string(f.x + f.w / 2),
                      std::to_string(f.y + f.h * 2 / 3), "click", "--repeat", "3", "--delay", "50", wheel}),
            0);
        std::this_thread::sleep_for(std::chrono::milliseconds(1000)); // Chromium places rows ~300 ms after it drew
        expect_asked(std::string("after a scroll by wheel button ") + wheel);
        expect_warm_equals_cold(std::string("after a scroll by wheel button ") + wheel);
        ASSERT_NO_FATAL_FAILURE(until_kept("scrolled"));
    }
}

} // namespace

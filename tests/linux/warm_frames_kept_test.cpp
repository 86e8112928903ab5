// Frames kept (atspi_warm.h, atspi_paint_watch.h): a warm read of a window that drew nothing since
// its frames were read asks a sample of eight frames of the app; one that drew (a scroll by another X client),
// moved, or lies partly under another window asks them all. Every read equals a cold one.

#include "own_window.h"
#include "reader_compare.h"

namespace {

using nd_test::WarmReads;

class FramesKept : public WarmReads {
protected:
    // Reads warm until a read keeps its frames: a second or so after the window's last drawing.
    void until_kept(const std::string& step)
    {
        for (int i = 0; i < 40; ++i) {
            auto tree = m_warm->read_window(m_info, m_limits);
            ASSERT_TRUE(tree) << step << ": " << tree.error().message;
            const auto& stats = m_warm->warm().stats();
            if (m_warm->last_read().warm && stats.frames_kept) {
                EXPECT_EQ(stats.framed, nd_linux::WarmTrees::FRAME_SAMPLES) << step;
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
        }
        FAIL() << step << ": no read kept its frames (last decline: " << m_warm->warm().stats().last_decline << ")";
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

    // Covered in part by another client's window: what the page draws under it is not reported.
    ASSERT_NO_FATAL_FAILURE(until_kept("scrolled"));
    {
        auto x = nd_linux::X11Display::open();
        ASSERT_TRUE(x) << x.error().text();
        nd_test::OwnWindow cover(**x, "", {f.x + f.w - 150, f.y + 100, 100, 100}, nd_test::OwnWindow::Kind::override_redirect);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        expect_asked("covered");
        expect_asked("still covered");
        expect_warm_equals_cold("covered");
    }

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

// A window system that reports no drawing at all: the frames are kept by its word, and the sample
// asked with every such read still sees a scroll (the app's tree placed the rows anew) and has all
// asked again.
class NothingDrawn final : public nd_linux::PaintWatch {
public:
    std::optional<Clock::time_point> last_change(std::int64_t, Clock::time_point) override { return Clock::time_point{}; }
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

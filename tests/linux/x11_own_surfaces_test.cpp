// X11OwnSurfaces on the virtual desktop (scripts/test-desktop, openbox): a marked override-redirect
// window is found where it shows and only there; one with an empty input shape (the indicator's
// frame and label) still counts; an unmarked window on top of it hides it (the topmost window
// decides); an unmapped one is gone; a managed window, which openbox reparents into a frame, is
// found through its frame (the title bar too); and the focus on a marked window is reported.

#include "linux/own_window.h"
#include "linux/x11_test_support.h"

#include "backend/linux/x11/x11_own_surfaces.h"

#include <gtest/gtest.h>

#include <thread>

namespace {

using namespace std::chrono_literals;
using nd_test::OwnWindow;

class X11OwnSurfacesTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        REQUIRE_DISPLAY();
        auto mine = nd_linux::X11Display::open();
        ASSERT_TRUE(mine.ok()) << mine.error().text();
        m_x = std::move(mine).value();
        auto backend_side = nd_linux::X11Display::open();
        ASSERT_TRUE(backend_side.ok()) << backend_side.error().text();
        m_display = std::move(backend_side).value();
        m_surfaces = std::make_unique<nd_linux::X11OwnSurfaces>(*m_display);
    }

    std::optional<nd_core::OwnSurface> at(std::int32_t x, std::int32_t y)
    {
        auto found = m_surfaces->at({x, y});
        EXPECT_TRUE(found.ok()) << found.error().text();
        return found.ok() ? *found : std::nullopt;
    }

    std::string kind_at(std::int32_t x, std::int32_t y)
    {
        auto s = at(x, y);
        return s ? s->kind : std::string("none");
    }

    std::unique_ptr<nd_linux::X11Display> m_x;       // makes the test's windows
    std::unique_ptr<nd_linux::X11Display> m_display; // the backend's connection
    std::unique_ptr<nd_linux::X11OwnSurfaces> m_surfaces;
};

TEST_F(X11OwnSurfacesTest, AMarkedOverrideRedirectWindowIsFoundWhereItShows)
{
    OwnWindow button(*m_x, nd_linux::SURFACE_CONTINUE, {40, 40, 160, 90}, OwnWindow::Kind::override_redirect);
    button.wait_shown();
    auto found = at(100, 80);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->kind, "continue_button");
    EXPECT_EQ(found->frame, (nd_core::Frame{40, 40, 160, 90}));
    EXPECT_EQ(kind_at(40, 40), "continue_button");
    EXPECT_EQ(kind_at(199, 129), "continue_button");
    EXPECT_EQ(kind_at(200, 80), "none");
    EXPECT_EQ(kind_at(100, 130), "none");

    // Someone else's window on top of part of it: there, the topmost window decides.
    OwnWindow other(*m_x, "", {120, 60, 100, 50}, OwnWindow::Kind::override_redirect);
    other.wait_shown();
    EXPECT_EQ(kind_at(130, 70), "none");
    EXPECT_EQ(kind_at(60, 60), "continue_button");

    button.unmap();
    ASSERT_TRUE(nd_test::wait_until([&] { return !button.shown(); }, 2s));
    EXPECT_EQ(kind_at(60, 60), "none");
}

TEST_F(X11OwnSurfacesTest, AClickThroughIndicatorWindowStillCounts)
{
    OwnWindow edge(*m_x, nd_linux::SURFACE_INDICATOR, {0, 300, 400, 6}, OwnWindow::Kind::click_through);
    edge.wait_shown();
    EXPECT_EQ(kind_at(10, 302), "takeover_indicator");
}

TEST_F(X11OwnSurfacesTest, AForgedOrGarbledMarkStillCountsWithoutItsText)
{
    OwnWindow forged(*m_x, "Allow <b>me</b>", {500, 40, 60, 60}, OwnWindow::Kind::override_redirect);
    forged.wait_shown();
    EXPECT_EQ(kind_at(520, 60), "surface");
}

TEST_F(X11OwnSurfacesTest, AManagedWindowIsFoundThroughItsWindowManagerFrame)
{
    OwnWindow dialog(*m_x, nd_linux::SURFACE_CONSENT_DIALOG, {300, 200, 320, 220}, OwnWindow::Kind::managed);
    const auto client = dialog.wait_shown(true);
    std::this_thread::sleep_for(200ms); // openbox may still place it
    const auto settled = dialog.shown().value_or(client);
    auto found = at(settled.x + settled.w / 2, settled.y + settled.h / 2);
    ASSERT_TRUE(found) << "nothing of ours at the dialog's centre";
    EXPECT_EQ(found->kind, "consent_dialog");
    // The frame is openbox's, with the title bar above the client: it is the dialog's too (its close
    // button denies).
    EXPECT_LT(found->frame.y, settled.y);
    EXPECT_EQ(kind_at(settled.x + settled.w / 2, found->frame.y + 2), "consent_dialog");

    // The keyboard focus on it.
    xcb_set_input_focus(m_x->connection(), XCB_INPUT_FOCUS_PARENT, dialog.id(), XCB_CURRENT_TIME);
    xcb_flush(m_x->connection());
    std::optional<nd_core::OwnSurface> focused;
    ASSERT_TRUE(nd_test::wait_until([&] {
        auto f = m_surfaces->focused();
        focused = f.ok() ? *f : std::nullopt;
        return focused.has_value();
    }, 2s));
    EXPECT_EQ(focused->kind, "consent_dialog");

    // And on someone else's window: none.
    OwnWindow other(*m_x, "", {700, 40, 100, 100}, OwnWindow::Kind::managed);
    other.wait_shown(true);
    xcb_set_input_focus(m_x->connection(), XCB_INPUT_FOCUS_PARENT, other.id(), XCB_CURRENT_TIME);
    xcb_flush(m_x->connection());
    EXPECT_TRUE(nd_test::wait_until([&] {
        auto f = m_surfaces->focused();
        return f.ok() && !f->has_value();
    }, 2s));
}

TEST_F(X11OwnSurfacesTest, AStoppedServerGivesAnErrorNotAnAnswer)
{
    auto own = nd_test::OwnXvfb::start();
    ASSERT_TRUE(own.display) << "no Xvfb of our own";
    nd_linux::X11OwnSurfaces surfaces(*own.display);
    auto before = surfaces.at({10, 10});
    ASSERT_TRUE(before.ok()) << before.error().text();
    EXPECT_FALSE(before->has_value());
    ::kill(own.process->pid(), SIGSTOP);
    auto stopped = surfaces.at({10, 10});
    ::kill(own.process->pid(), SIGCONT);
    ASSERT_FALSE(stopped.ok());
    EXPECT_EQ(stopped.error().code, nd_core::ErrorCode::timed_out) << stopped.error().text();
}

} // namespace

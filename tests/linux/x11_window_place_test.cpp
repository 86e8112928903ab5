// The climb from a window to the root's child that holds it (x11_window_place.h), on a real X
// server: windows of this test's own, nested as a window manager nests a client in its frame, and
// deeper than any window manager does.

#include "linux/x11_test_support.h"

#include "backend/linux/x11/x11_window_place.h"

#include <gtest/gtest.h>

#include <vector>

using nd_linux::climb_to_top_level;
using nd_linux::RootChild;
using nd_linux::X11Display;

namespace {

// A chain of `depth` windows, each inside the one before; the first is a child of the root.
std::vector<xcb_window_t> nest(X11Display& display, int depth)
{
    auto* c = display.connection();
    std::vector<xcb_window_t> chain;
    xcb_window_t parent = display.root();
    for (int i = 0; i < depth; ++i) {
        const auto w = xcb_generate_id(c);
        xcb_create_window(c, XCB_COPY_FROM_PARENT, w, parent, 0, 0, 40, 40, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                          XCB_COPY_FROM_PARENT, 0, nullptr);
        chain.push_back(w);
        parent = w;
    }
    xcb_flush(c);
    return chain;
}

nd_core::Result<RootChild> climb(X11Display& display, xcb_window_t window, xcb_window_t parent)
{
    return climb_to_top_level(display, window, parent, nd_linux::deadline_after(std::chrono::seconds(5)));
}

} // namespace

TEST(X11WindowPlace, AClimbFindsTheRootsChildThatHoldsAWindow)
{
    REQUIRE_DISPLAY();
    auto display = X11Display::open();
    ASSERT_TRUE(display.ok()) << display.error().text();
    auto& x = *display.value();
    const auto chain = nest(x, 3); // a frame, a client inside it, a child of the client

    auto top = climb(x, chain[2], chain[1]);
    ASSERT_TRUE(top.ok()) << top.error().text();
    EXPECT_EQ(top->end, RootChild::End::found);
    EXPECT_EQ(top->window, chain[0]);

    auto itself = climb(x, chain[0], x.root());
    ASSERT_TRUE(itself.ok());
    EXPECT_EQ(itself->end, RootChild::End::found);
    EXPECT_EQ(itself->window, chain[0]); // a child of the root is its own top level

    auto root = climb(x, x.root(), XCB_WINDOW_NONE);
    ASSERT_TRUE(root.ok());
    EXPECT_EQ(root->end, RootChild::End::is_root);
    xcb_destroy_window(x.connection(), chain[0]);
    xcb_flush(x.connection());
}

TEST(X11WindowPlace, AClimbThroughAWindowThatWentOrPastAnyRealNestingEnds)
{
    REQUIRE_DISPLAY();
    auto display = X11Display::open();
    ASSERT_TRUE(display.ok()) << display.error().text();
    auto& x = *display.value();

    // The frame went (with everything inside it) between the caller's QueryTree and the climb.
    const auto chain = nest(x, 3);
    xcb_destroy_window(x.connection(), chain[0]);
    xcb_flush(x.connection());
    auto gone = climb(x, chain[2], chain[1]);
    ASSERT_TRUE(gone.ok()) << gone.error().text();
    EXPECT_EQ(gone->end, RootChild::End::gone);
    EXPECT_EQ(gone->x_error, XCB_WINDOW); // BadWindow

    // Deeper than any window manager nests a client: a loop or a hostile tree.
    const auto deep = nest(x, nd_linux::MAX_TOP_LEVEL_CLIMB + 3);
    auto too_deep = climb(x, deep.back(), deep[deep.size() - 2]);
    ASSERT_TRUE(too_deep.ok()) << too_deep.error().text();
    EXPECT_EQ(too_deep->end, RootChild::End::too_deep);
    // As deep as it may be, it is found.
    const auto at_limit = deep[static_cast<std::size_t>(nd_linux::MAX_TOP_LEVEL_CLIMB)];
    auto found = climb(x, at_limit, deep[static_cast<std::size_t>(nd_linux::MAX_TOP_LEVEL_CLIMB) - 1]);
    ASSERT_TRUE(found.ok());
    EXPECT_EQ(found->end, RootChild::End::found);
    EXPECT_EQ(found->window, deep[0]);
    xcb_destroy_window(x.connection(), deep[0]);
    xcb_flush(x.connection());
}

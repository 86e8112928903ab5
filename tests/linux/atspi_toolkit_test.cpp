// GTK 4's frames, answered relative to the surface each object lies on, placed on the screen
// (place_on_screen), without a desktop: the window's content, a popover on a popup surface of its
// own, borders the app draws itself, and rows read later.

#include "backend/linux/atspi/atspi_toolkit.h"

#include <gtest/gtest.h>

namespace {

using namespace nd_linux;
using nd_core::Element;
using nd_core::Frame;
using nd_core::WindowInfo;

Element row(std::int32_t depth, std::optional<Frame> frame)
{
    Element e;
    e.depth = depth;
    e.has_frame = frame.has_value();
    e.frame = frame.value_or(Frame{});
    return e;
}

// A 400x600 window's content in an X window 10 px larger each way at (300, 200); a File button;
// its popover (128x284, answered at the button's place) with one item; a button after it.
std::vector<Element> window_with_popover()
{
    return {row(0, Frame{0, 0, 400, 600}), row(1, Frame{8, 4, 23, 16}), row(2, Frame{8, 4, 128, 284}),
            row(3, Frame{29, 12, 86, 30}), row(1, Frame{50, 500, 80, 30}), row(1, std::nullopt)};
}

WindowInfo x_window(Frame frame, WindowInfo::Extents border = {})
{
    WindowInfo w;
    w.frame = frame;
    w.client_decor = border;
    return w;
}

TEST(PlaceOnScreen, the_window_content_lies_inside_the_border_gtk_draws_without_a_compositor)
{
    auto el = window_with_popover();
    place_on_screen(el, x_window({300, 200, 410, 610}), {});
    EXPECT_EQ(el[0].frame, (Frame{305, 205, 400, 600}));
    EXPECT_EQ(el[1].frame, (Frame{313, 209, 23, 16}));
    EXPECT_EQ(el[4].frame, (Frame{355, 705, 80, 30}));
    EXPECT_FALSE(el[5].has_frame) << "a row without a frame gains none";
}

TEST(PlaceOnScreen, a_border_the_app_names_is_taken_as_named)
{
    auto el = window_with_popover();
    // Shadows as a compositor shows them: wider at the bottom.
    place_on_screen(el, x_window({300, 200, 440, 650}, {20, 20, 15, 35}), {});
    EXPECT_EQ(el[0].frame, (Frame{320, 215, 400, 600}));
}

TEST(PlaceOnScreen, a_popover_lies_on_its_own_surface)
{
    auto el = window_with_popover();
    place_on_screen(el, x_window({300, 200, 410, 610}), {x_window({298, 242, 128, 284})});
    EXPECT_EQ(el[2].frame, (Frame{298, 242, 128, 284})) << "the popover takes its surface's place";
    EXPECT_EQ(el[3].frame, (Frame{327, 254, 86, 30})) << "its item moves by the surface's origin";
    EXPECT_EQ(el[4].frame, (Frame{355, 705, 80, 30})) << "the row after the popover is the window's again";
    EXPECT_EQ(el[1].frame, (Frame{313, 209, 23, 16}));
}

TEST(PlaceOnScreen, a_popup_of_another_size_leaves_the_rows_on_the_window)
{
    auto el = window_with_popover();
    place_on_screen(el, x_window({300, 200, 410, 610}), {x_window({10, 10, 200, 30})});
    EXPECT_EQ(el[2].frame, (Frame{313, 209, 128, 284}));
}

TEST(PlaceOnScreen, rows_read_later_are_placed_alone_and_by_the_surface_they_lie_on)
{
    auto el = window_with_popover();
    const std::vector<WindowInfo> popups{x_window({298, 242, 128, 284})};
    el[3].has_frame = false; // the item's frame was left for later
    place_on_screen(el, x_window({300, 200, 410, 610}), popups);
    el[3].has_frame = true;
    el[3].frame = {29, 42, 86, 30}; // as the app answers it now
    const std::vector<std::int32_t> rows{3};
    place_on_screen(el, x_window({300, 200, 410, 610}), popups, &rows);
    EXPECT_EQ(el[3].frame, (Frame{327, 284, 86, 30}));
    EXPECT_EQ(el[0].frame, (Frame{305, 205, 400, 600})) << "rows placed before stay where they are";
    EXPECT_EQ(el[2].frame, (Frame{298, 242, 128, 284}));
}

} // namespace

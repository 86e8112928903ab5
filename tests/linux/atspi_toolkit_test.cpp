// GTK 4's frames, answered relative to the surface each object lies on, placed on the screen
// (place_on_screen), without a desktop: the window's content, a popover on a popup surface of its
// own, borders the app draws itself, and rows read later; and what GTK 4 does not draw.

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
// its popover (128x284, answered at the button's place, as GTK 4.8 does) with one item 21 px in
// and 8 down (answered at the button's place plus that); a button after it.
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
    EXPECT_EQ(el[3].frame, (Frame{319, 250, 86, 30})) << "its item lies where it is in the popover";
    EXPECT_EQ(el[4].frame, (Frame{355, 705, 80, 30})) << "the row after the popover is the window's again";
    EXPECT_EQ(el[1].frame, (Frame{313, 209, 23, 16}));
}

TEST(PlaceOnScreen, a_popover_row_that_lands_off_its_popup_has_no_place)
{
    auto el = window_with_popover();
    el[3].frame = {380, 560, 86, 30}; // 372 px into a popover 128 px wide
    place_on_screen(el, x_window({300, 200, 410, 610}), {x_window({298, 242, 128, 284})});
    EXPECT_FALSE(el[3].has_frame) << "better no frame than a click on something else";
    EXPECT_EQ(el[4].frame, (Frame{355, 705, 80, 30}));
}

TEST(PlaceOnScreen, a_popup_of_another_size_leaves_the_rows_on_the_window)
{
    auto el = window_with_popover();
    place_on_screen(el, x_window({300, 200, 410, 610}), {x_window({10, 10, 200, 30})});
    EXPECT_EQ(el[2].frame, (Frame{313, 209, 128, 284}));
}

TEST(PlaceOnScreen, rows_read_later_are_placed_alone)
{
    auto el = window_with_popover();
    const std::vector<WindowInfo> popups{x_window({298, 242, 128, 284})};
    el[3].has_frame = false; // the frames of the item and the last button were left for later
    place_on_screen(el, x_window({300, 200, 410, 610}), popups);
    el[3] = row(3, Frame{29, 42, 86, 30}); // as the app answers them now
    el[5] = row(1, Frame{150, 500, 80, 30});
    const std::vector<std::int32_t> rows{3, 5};
    place_on_screen(el, x_window({300, 200, 410, 610}), popups, &rows);
    EXPECT_EQ(el[5].frame, (Frame{455, 705, 80, 30}));
    EXPECT_EQ(el[0].frame, (Frame{305, 205, 400, 600})) << "rows placed before stay where they are";
    EXPECT_EQ(el[2].frame, (Frame{298, 242, 128, 284}));
    EXPECT_FALSE(el[3].has_frame) << "the popover's top was placed already: what its row moves by is gone";
}

} // namespace

// What GTK 4 does not draw (hide_unplaced_subtrees): a window; a revealer folded away (its place
// has no area) whose bar keeps the place it last had; a stack page with no place anywhere inside
// it; a wrapper without a place of its own around a page that has one.
std::vector<Element> window_with_folds()
{
    auto at = [](std::int32_t parent, std::int32_t depth, std::optional<Frame> frame, bool empty = false) {
        auto e = row(depth, frame);
        e.parent = parent;
        e.empty_frame = empty;
        e.states = nd_core::STATE_SHOWING;
        return e;
    };
    return {at(-1, 0, Frame{0, 0, 400, 600}),
            at(0, 1, std::nullopt, true),        // 1: the revealer, 400x0
            at(1, 2, Frame{0, 0, 400, 34}),      // 2: its bar, where it was
            at(2, 3, Frame{112, 5, 83, 24}),     // 3: a button on it
            at(0, 1, std::nullopt, true),        // 4: a page, 0x0
            at(4, 2, std::nullopt, true),        // 5: its label, 0x0
            at(0, 1, std::nullopt),              // 6: a wrapper without a place (no Component)
            at(6, 2, Frame{0, 34, 400, 500})};   // 7: the page shown
}

TEST(HideUnplacedSubtrees, what_lies_in_a_fold_loses_its_place_and_the_fold_is_hidden)
{
    auto el = window_with_folds();
    hide_unplaced_subtrees(el);
    for (int i : {2, 3}) {
        EXPECT_FALSE(el[i].has_frame) << i;
        EXPECT_FALSE(el[i].is(nd_core::STATE_SHOWING)) << i;
    }
    for (int i : {1, 2, 3, 4, 5})
        EXPECT_TRUE(el[i].is(nd_core::STATE_HIDDEN)) << i;
    for (int i : {0, 6, 7})
        EXPECT_FALSE(el[i].is(nd_core::STATE_HIDDEN)) << i;
    EXPECT_TRUE(el[7].has_frame);
}

TEST(HideUnplacedSubtrees, a_window_without_a_place_hides_nothing)
{
    auto el = window_with_folds();
    el[0].has_frame = false;
    hide_unplaced_subtrees(el);
    for (const auto& e : el)
        EXPECT_FALSE(e.is(nd_core::STATE_HIDDEN));
    EXPECT_TRUE(el[3].has_frame);
}

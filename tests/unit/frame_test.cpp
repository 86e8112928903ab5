// nd_core::Frame: which frames share area (a warm read asks the frames of the rows that meet a
// part drawn in), and what they share.

#include "core/model/element.h"

#include <gtest/gtest.h>

#include <limits>

namespace {

using nd_core::Frame;

TEST(Frame, FramesMeetWhenTheyShareAreaNotWhenTheyOnlyTouch)
{
    const Frame part{100, 100, 50, 50};
    EXPECT_TRUE((Frame{140, 140, 20, 20}).meets(part));
    EXPECT_TRUE((Frame{0, 0, 1000, 1000}).meets(part)); // holds it
    EXPECT_TRUE(part.meets(Frame{0, 0, 1000, 1000}));
    EXPECT_FALSE((Frame{150, 100, 10, 10}).meets(part)); // beside it, edge to edge
    EXPECT_FALSE((Frame{100, 150, 10, 10}).meets(part)); // below it
    EXPECT_FALSE((Frame{120, 120, 0, 10}).meets(part));  // no area
}

TEST(Frame, ARowPlacedFarOffMeetsNothingWithoutOverflowing)
{
    // GTK3 places a tree view's cells scrolled out of view at INT_MIN.
    constexpr auto low = std::numeric_limits<std::int32_t>::min();
    constexpr auto high = std::numeric_limits<std::int32_t>::max();
    EXPECT_FALSE((Frame{low, low, 20, 20}).meets(Frame{0, 0, 100, 100}));
    EXPECT_FALSE((Frame{high - 5, high - 5, 100, 100}).meets(Frame{0, 0, 100, 100}));
    EXPECT_TRUE((Frame{high - 5, 0, 100, 100}).meets(Frame{high - 10, 0, 100, 100}));
}

TEST(Frame, TheSharedPartIsWhereBothLieAndEmptyWhenNone)
{
    EXPECT_EQ((Frame{0, 0, 100, 100}).shared(Frame{50, 60, 100, 100}), (Frame{50, 60, 50, 40}));
    EXPECT_EQ((Frame{0, 0, 100, 100}).shared(Frame{10, 10, 5, 5}), (Frame{10, 10, 5, 5}));
    const auto none = Frame{0, 0, 10, 10}.shared(Frame{20, 20, 10, 10});
    EXPECT_EQ(none.w, 0);
    EXPECT_EQ(none.h, 0);
    EXPECT_FALSE(none.has_area());
}

TEST(Frame, AnAreaNeedsAWidthAndAHeight)
{
    EXPECT_TRUE((Frame{-5, -5, 1, 1}).has_area());
    EXPECT_FALSE((Frame{0, 0, 0, 10}).has_area());
    EXPECT_FALSE((Frame{0, 0, 10, 0}).has_area());
    EXPECT_FALSE((Frame{0, 0, -10, 10}).has_area());
}

} // namespace

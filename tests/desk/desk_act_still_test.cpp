// The still detector of desk_still (src/desk/still_detector.h) on synthetic frames: a quiet screen
// stays unchanged, a real change counts once, the threshold is 24 per channel, a block that goes
// through three contents (a spinner) turns volatile and stops counting, and a block that goes back
// to a content it showed (a caret) counts no more. And the 320-pixel scaling it watches.

#include "desk/still_detector.h"

#include <gtest/gtest.h>

namespace {

using nd_core::Image;
using nd_desk::StillDetector;

Image flat(std::int32_t w, std::int32_t h, std::uint8_t v)
{
    Image img;
    img.width = w;
    img.height = h;
    img.rgba.assign(static_cast<std::size_t>(w) * h * 4, v);
    for (std::size_t i = 3; i < img.rgba.size(); i += 4)
        img.rgba[i] = 255;
    return img;
}

// Sets one pixel's red channel.
Image with_pixel(Image img, std::int32_t x, std::int32_t y, std::uint8_t red)
{
    img.rgba[(static_cast<std::size_t>(y) * img.width + x) * 4] = red;
    return img;
}

// Paints the 8x8 block at block coordinates (bx, by) grey `v`.
Image with_block(Image img, std::int32_t bx, std::int32_t by, std::uint8_t v)
{
    for (std::int32_t y = by * 8; y < by * 8 + 8 && y < img.height; ++y)
        for (std::int32_t x = bx * 8; x < bx * 8 + 8 && x < img.width; ++x)
            for (int c = 0; c < 3; ++c)
                img.rgba[(static_cast<std::size_t>(y) * img.width + x) * 4 + c] = v;
    return img;
}

TEST(DeskActStill, AQuietScreenNeverChanges)
{
    StillDetector d;
    const auto frame = flat(320, 256, 100);
    EXPECT_EQ(d.feed(frame).changed_blocks, 0);
    EXPECT_EQ(d.blocks(), 40 * 32);
    for (int i = 0; i < 10; ++i) {
        auto step = d.feed(frame);
        EXPECT_EQ(step.changed_blocks, 0);
        EXPECT_EQ(step.volatile_blocks, 0);
    }
    EXPECT_FALSE(d.changed());
}

TEST(DeskActStill, TheThresholdIsMoreThan24InAChannel)
{
    StillDetector d;
    const auto base = flat(64, 64, 100);
    (void)d.feed(base);
    // 24 is noise (anti-aliasing, dithering): it does not count.
    EXPECT_EQ(d.feed(with_pixel(base, 10, 10, 124)).changed_blocks, 0);
    EXPECT_FALSE(d.changed());
    // 25 does, in exactly the one block that holds the pixel.
    EXPECT_EQ(d.feed(with_pixel(base, 10, 10, 125)).changed_blocks, 1);
    EXPECT_TRUE(d.changed());
}

TEST(DeskActStill, ANewContentCountsOnce)
{
    StillDetector d;
    const auto a = flat(64, 64, 50);
    (void)d.feed(a);
    const auto b = with_block(a, 2, 3, 200);
    EXPECT_EQ(d.feed(b).changed_blocks, 1);
    // Holding the new content is no further change.
    EXPECT_EQ(d.feed(b).changed_blocks, 0);
    EXPECT_EQ(d.volatile_blocks(), 0);
}

TEST(DeskActStill, ASpinnerBlockTurnsVolatileAndStopsCounting)
{
    StillDetector d;
    const auto a = flat(64, 64, 50);
    (void)d.feed(a);
    EXPECT_EQ(d.feed(with_block(a, 1, 1, 120)).changed_blocks, 1);
    // The third content in the same block: volatile, not counted.
    auto step = d.feed(with_block(a, 1, 1, 200));
    EXPECT_EQ(step.changed_blocks, 0);
    EXPECT_EQ(step.volatile_blocks, 1);
    // It keeps spinning through contents, new or old: nothing counts any more.
    for (std::uint8_t v : {10, 90, 160, 240, 120})
        EXPECT_EQ(d.feed(with_block(a, 1, 1, v)).changed_blocks, 0);
    EXPECT_EQ(d.volatile_blocks(), 1);
    // Another block still counts.
    EXPECT_EQ(d.feed(with_block(with_block(a, 1, 1, 120), 5, 5, 200)).changed_blocks, 1);
}

TEST(DeskActStill, ACaretGoingBackIsNotCounted)
{
    StillDetector d;
    const auto off = flat(64, 64, 255);
    const auto on = with_block(off, 3, 2, 0);
    (void)d.feed(off);
    EXPECT_EQ(d.feed(on).changed_blocks, 1); // first blink: new content
    EXPECT_EQ(d.feed(off).changed_blocks, 0); // back to what it showed
    EXPECT_EQ(d.feed(on).changed_blocks, 0);
    EXPECT_EQ(d.feed(off).changed_blocks, 0);
    EXPECT_EQ(d.volatile_blocks(), 0);
    // A third content in the caret's block turns it volatile, uncounted.
    EXPECT_EQ(d.feed(with_block(off, 3, 2, 128)).changed_blocks, 0);
    EXPECT_EQ(d.volatile_blocks(), 1);
}

TEST(DeskActStill, ASizeChangeCountsEverywhere)
{
    StillDetector d;
    (void)d.feed(flat(64, 64, 0));
    auto step = d.feed(flat(32, 64, 0));
    EXPECT_EQ(step.changed_blocks, 4 * 8);
    EXPECT_TRUE(d.changed());
}

TEST(DeskActStill, EdgeBlocksArePartial)
{
    StillDetector d;
    const auto a = flat(20, 10, 0); // 3 x 2 blocks, the last column 4 wide, the last row 2 high
    (void)d.feed(a);
    EXPECT_EQ(d.blocks(), 6);
    EXPECT_EQ(d.feed(with_pixel(a, 19, 9, 200)).changed_blocks, 1);
}

TEST(DeskActStill, ScalingKeepsTheAspectAndAverages)
{
    auto big = flat(1280, 1024, 0);
    // The top-left 4x4 source box turns white: one target pixel, fully white.
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x)
            for (int c = 0; c < 3; ++c)
                big.rgba[(static_cast<std::size_t>(y) * 1280 + x) * 4 + c] = 255;
    auto small = nd_desk::scale_to_long_edge(big);
    EXPECT_EQ(small.width, 320);
    EXPECT_EQ(small.height, 256);
    EXPECT_EQ(small.rgba[0], 255);
    EXPECT_EQ(small.rgba[4], 0);
    EXPECT_EQ(small.rgba[3], 255); // alpha kept
    // Half a box white: the average.
    auto half = flat(1280, 1024, 0);
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 4; ++x)
            half.rgba[(static_cast<std::size_t>(y) * 1280 + x) * 4] = 200;
    EXPECT_EQ(nd_desk::scale_to_long_edge(half).rgba[0], 100);
    // Small images pass unchanged.
    auto tiny = flat(100, 50, 7);
    EXPECT_EQ(nd_desk::scale_to_long_edge(tiny).width, 100);
}

} // namespace

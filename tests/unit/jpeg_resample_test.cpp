// The vision verbs' picture path in the core: area-average scaling keeps a flat colour exact and
// averages a fine pattern to its mean (a dropped-pixel scaler would keep one of its stripes), sizes
// fit a long edge, and JPEG bytes decode (libjpeg's own decoder) to the size and colours encoded.

#include "core/encode/jpeg.h"
#include "core/encode/resample.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <jpeglib.h>

namespace {

using nd_core::Image;

Image filled(std::int32_t w, std::int32_t h, std::uint8_t r, std::uint8_t g, std::uint8_t b)
{
    Image img{w, h, std::vector<std::uint8_t>(static_cast<std::size_t>(w) * h * 4)};
    for (std::size_t p = 0; p < img.rgba.size(); p += 4) {
        img.rgba[p] = r;
        img.rgba[p + 1] = g;
        img.rgba[p + 2] = b;
        img.rgba[p + 3] = 255;
    }
    return img;
}

// Decodes a JPEG to RGB with libjpeg, for the round trip.
bool decode(const std::string& bytes, std::int32_t& w, std::int32_t& h, std::vector<std::uint8_t>& rgb)
{
    jpeg_decompress_struct info{};
    jpeg_error_mgr err{};
    info.err = jpeg_std_error(&err);
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    if (jpeg_read_header(&info, TRUE) != JPEG_HEADER_OK) {
        jpeg_destroy_decompress(&info);
        return false;
    }
    info.out_color_space = JCS_RGB;
    jpeg_start_decompress(&info);
    w = static_cast<std::int32_t>(info.output_width);
    h = static_cast<std::int32_t>(info.output_height);
    rgb.resize(static_cast<std::size_t>(w) * h * 3);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = rgb.data() + static_cast<std::size_t>(info.output_scanline) * w * 3;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return true;
}

TEST(Resample, FitsTheLongEdgeKeepingTheAspect)
{
    std::int32_t w = 0, h = 0;
    nd_core::fit_long_edge(1280, 800, 1024, w, h);
    EXPECT_EQ(w, 1024);
    EXPECT_EQ(h, 640);
    nd_core::fit_long_edge(800, 1280, 512, w, h);
    EXPECT_EQ(w, 320);
    EXPECT_EQ(h, 512);
    nd_core::fit_long_edge(1280, 800, 0, w, h); // 0: full size
    EXPECT_EQ(w, 1280);
    nd_core::fit_long_edge(640, 400, 1024, w, h); // never larger
    EXPECT_EQ(w, 640);
    nd_core::fit_long_edge(5000, 1, 100, w, h); // never below one pixel
    EXPECT_EQ(h, 1);
}

TEST(Resample, KeepsAFlatColourExactly)
{
    const auto out = nd_core::resize_area(filled(1280, 800, 10, 200, 33), 1024, 640);
    ASSERT_EQ(out.width, 1024);
    ASSERT_EQ(out.height, 640);
    for (std::size_t p = 0; p < out.rgba.size(); p += 4) {
        ASSERT_EQ(out.rgba[p], 10);
        ASSERT_EQ(out.rgba[p + 1], 200);
        ASSERT_EQ(out.rgba[p + 2], 33);
    }
}

TEST(Resample, AveragesAFinePatternToItsMean)
{
    // One-pixel black and white columns scaled to half: every target pixel covers one of each.
    Image img = filled(200, 10, 0, 0, 0);
    for (std::int32_t y = 0; y < 10; ++y)
        for (std::int32_t x = 1; x < 200; x += 2)
            for (int c = 0; c < 3; ++c)
                img.rgba[(static_cast<std::size_t>(y) * 200 + x) * 4 + c] = 255;
    const auto half = nd_core::resize_area(img, 100, 5);
    for (std::size_t p = 0; p < half.rgba.size(); p += 4)
        ASSERT_NEAR(half.rgba[p], 128, 1);
    // At 1.25 (1280 -> 1024) no target pixel is pure black or white either: each mixes both.
    const auto odd = nd_core::resize_area(img, 160, 8);
    for (std::size_t p = 0; p < odd.rgba.size(); p += 4) {
        ASSERT_GT(odd.rgba[p], 40);
        ASSERT_LT(odd.rgba[p], 215);
    }
}

TEST(Resample, EveryTapCountAveragesAndStaysInsideTheRow)
{
    // A horizontal ramp: each target pixel is the mean of the source columns it covers, whatever
    // the scale: 1.25 and 2.5 (8-bit weights, 2 and 3-4 taps), 5 (6 taps, the general loop) and 40
    // (16-bit weights). The right edge checks that the padded taps read no further than the row.
    Image ramp = filled(400, 3, 0, 0, 0);
    for (std::int32_t y = 0; y < 3; ++y)
        for (std::int32_t x = 0; x < 400; ++x)
            ramp.rgba[(static_cast<std::size_t>(y) * 400 + x) * 4] = static_cast<std::uint8_t>(x * 255 / 399);
    for (std::int32_t width : {320, 160, 80, 10}) {
        const auto out = nd_core::resize_area(ramp, width, 3);
        ASSERT_EQ(out.width, width);
        const double step = 400.0 / width;
        for (std::int32_t x = 0; x < width; ++x) {
            double sum = 0;
            for (std::int32_t s = 0; s < 400; ++s) {
                const double cover = std::max(0.0, std::min<double>(s + 1, (x + 1) * step) - std::max<double>(s, x * step));
                sum += cover * (s * 255 / 399);
            }
            ASSERT_NEAR(out.rgba[(static_cast<std::size_t>(1) * width + x) * 4], sum / step, 2.0) << "width " << width << " x " << x;
        }
    }
}

TEST(Resample, ANarrowLineSurvivesTheScale)
{
    // A one-pixel dark line on white, as in a text field's border: still visible after 1.25.
    Image img = filled(100, 100, 255, 255, 255);
    for (std::int32_t y = 0; y < 100; ++y)
        for (int c = 0; c < 3; ++c)
            img.rgba[(static_cast<std::size_t>(y) * 100 + 37) * 4 + c] = 0;
    const auto out = nd_core::resize_area(img, 80, 80);
    std::uint8_t darkest = 255;
    for (std::int32_t x = 0; x < 80; ++x)
        darkest = std::min(darkest, out.rgba[(static_cast<std::size_t>(40) * 80 + x) * 4]);
    EXPECT_LT(darkest, 160); // spread over two pixels at 60 % of white, not dropped
}

TEST(Jpeg, RoundTripsSizeAndColour)
{
    const auto bytes = nd_core::encode_jpeg(filled(64, 48, 200, 30, 90));
    ASSERT_GE(bytes.size(), 4u);
    EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0xFF);
    EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0xD8);
    std::int32_t w = 0, h = 0;
    std::vector<std::uint8_t> rgb;
    ASSERT_TRUE(decode(bytes, w, h, rgb));
    EXPECT_EQ(w, 64);
    EXPECT_EQ(h, 48);
    EXPECT_NEAR(rgb[0], 200, 6);
    EXPECT_NEAR(rgb[1], 30, 6);
    EXPECT_NEAR(rgb[2], 90, 6);
}

TEST(Jpeg, RefusesAnInvalidImage)
{
    EXPECT_TRUE(nd_core::encode_jpeg(Image{}).empty());
    Image short_pixels{10, 10, std::vector<std::uint8_t>(12)};
    EXPECT_TRUE(nd_core::encode_jpeg(short_pixels).empty());
    Image too_wide{70000, 1, std::vector<std::uint8_t>(70000 * 4)};
    EXPECT_TRUE(nd_core::encode_jpeg(too_wide).empty());
}

} // namespace

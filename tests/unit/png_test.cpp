#include "core/base64.h"
#include "core/png.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

using nd_core::Frame;
using nd_core::Image;

std::uint32_t read_u32(const std::string& s, std::size_t at)
{
    auto b = [&](std::size_t i) { return std::uint32_t(static_cast<unsigned char>(s.at(at + i))); };
    return b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3);
}

struct Chunk {
    std::string type;
    std::string data;
    std::uint32_t crc = 0;
};

struct Decoded {
    std::int32_t width = 0, height = 0;
    int depth = 0, colour = 0, compression = 0, filter = 0, interlace = 0;
    std::vector<Chunk> chunks;
    std::vector<std::uint8_t> rgba;
};

int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// A small independent PNG reader for 8-bit RGBA: chunks, CRCs, inflate and all five filters.
Decoded decode(const std::string& png)
{
    Decoded d;
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    std::size_t at = 8;
    std::string idat;
    while (at < png.size()) {
        Chunk c;
        std::uint32_t len = read_u32(png, at);
        c.type = png.substr(at + 4, 4);
        c.data = png.substr(at + 8, len);
        c.crc = read_u32(png, at + 8 + len);
        uLong crc = crc32(0, reinterpret_cast<const Bytef*>(png.data() + at + 4), 4 + len);
        EXPECT_EQ(c.crc, crc) << "CRC of " << c.type;
        if (c.type == "IDAT")
            idat += c.data;
        d.chunks.push_back(c);
        at += 12 + len;
    }
    EXPECT_EQ(at, png.size());
    if (d.chunks.empty() || d.chunks[0].type != "IHDR" || d.chunks[0].data.size() != 13) {
        ADD_FAILURE() << "no IHDR first";
        return d;
    }
    const std::string& h = d.chunks[0].data;
    d.width = static_cast<std::int32_t>(read_u32(h, 0));
    d.height = static_cast<std::int32_t>(read_u32(h, 4));
    d.depth = h[8], d.colour = h[9], d.compression = h[10], d.filter = h[11], d.interlace = h[12];

    // Colour type 2 (RGB, written for opaque images) or 6 (RGBA); decoded to RGBA either way.
    const std::size_t bpp = d.colour == 2 ? 3 : 4;
    std::size_t stride = std::size_t(d.width) * bpp;
    std::vector<std::uint8_t> raw((stride + 1) * d.height);
    uLongf raw_size = raw.size();
    EXPECT_EQ(uncompress(raw.data(), &raw_size, reinterpret_cast<const Bytef*>(idat.data()), idat.size()), Z_OK);
    EXPECT_EQ(raw_size, raw.size());

    d.rgba.assign(stride * d.height, 0);
    for (std::int32_t y = 0; y < d.height; ++y) {
        const std::uint8_t* in = raw.data() + y * (stride + 1);
        std::uint8_t* out = d.rgba.data() + y * stride;
        const std::uint8_t* up = y > 0 ? out - stride : nullptr;
        for (std::size_t i = 0; i < stride; ++i) {
            int a = i >= bpp ? out[i - bpp] : 0, b = up ? up[i] : 0, c = (up && i >= bpp) ? up[i - bpp] : 0;
            int pred = 0;
            switch (in[0]) {
            case 0: pred = 0; break;
            case 1: pred = a; break;
            case 2: pred = b; break;
            case 3: pred = (a + b) / 2; break;
            case 4: pred = paeth(a, b, c); break;
            default: ADD_FAILURE() << "bad filter " << int(in[0]); return d;
            }
            out[i] = static_cast<std::uint8_t>(in[1 + i] + pred);
        }
    }
    if (bpp == 3) {
        std::vector<std::uint8_t> rgba(std::size_t(d.width) * d.height * 4);
        for (std::size_t p = 0; p < std::size_t(d.width) * d.height; ++p) {
            rgba[p * 4] = d.rgba[p * 3];
            rgba[p * 4 + 1] = d.rgba[p * 3 + 1];
            rgba[p * 4 + 2] = d.rgba[p * 3 + 2];
            rgba[p * 4 + 3] = 255;
        }
        d.rgba = std::move(rgba);
    }
    return d;
}

TEST(PngTest, OpaqueImagesAreWrittenAsRgb)
{
    Image img{64, 48, std::vector<std::uint8_t>(64 * 48 * 4)};
    std::mt19937 rng(7);
    for (std::size_t i = 0; i < img.rgba.size(); ++i)
        img.rgba[i] = i % 4 == 3 ? 255 : static_cast<std::uint8_t>(rng());
    Decoded d = decode(nd_core::encode_png(img));
    EXPECT_EQ(d.colour, 2);
    EXPECT_EQ(d.rgba, img.rgba);
}

Image random_image(std::int32_t w, std::int32_t h, unsigned seed)
{
    Image img{w, h, std::vector<std::uint8_t>(std::size_t(w) * h * 4)};
    std::mt19937 rng(seed);
    for (auto& b : img.rgba)
        b = static_cast<std::uint8_t>(rng());
    return img;
}

TEST(PngTest, HeaderChunksAndPixelsRoundTrip)
{
    for (auto [w, h] : {std::pair{1, 1}, {3, 2}, {257, 33}}) {
        Image img = random_image(w, h, unsigned(w * 31 + h));
        std::string png = nd_core::encode_png(img);
        Decoded d = decode(png);
        EXPECT_EQ(d.width, w);
        EXPECT_EQ(d.height, h);
        EXPECT_EQ(d.depth, 8);
        EXPECT_EQ(d.colour, 6);
        EXPECT_EQ(d.compression, 0);
        EXPECT_EQ(d.filter, 0);
        EXPECT_EQ(d.interlace, 0);
        ASSERT_GE(d.chunks.size(), 3u);
        EXPECT_EQ(d.chunks.back().type, "IEND");
        EXPECT_EQ(d.chunks.back().crc, 0xAE426082u); // the fixed CRC of every IEND
        EXPECT_EQ(d.rgba, img.rgba) << w << "x" << h;
    }
}

TEST(PngTest, LargeImageSplitsIdat)
{
    Image img = random_image(700, 600, 7); // about 1.6 MiB of incompressible pixels
    Decoded d = decode(nd_core::encode_png(img));
    int idats = 0;
    for (const auto& c : d.chunks)
        idats += c.type == "IDAT";
    EXPECT_GE(idats, 2);
    EXPECT_EQ(d.rgba, img.rgba);
}

TEST(PngTest, FlatImageCompresses)
{
    Image img{800, 600, std::vector<std::uint8_t>(800 * 600 * 4, 0xEE)};
    std::string png = nd_core::encode_png(img);
    EXPECT_LT(png.size(), 20000u);
    EXPECT_EQ(decode(png).rgba, img.rgba);
}

TEST(PngTest, InvalidImagesGiveEmpty)
{
    EXPECT_EQ(nd_core::encode_png(Image{}), "");
    EXPECT_EQ(nd_core::encode_png(Image{2, 2, std::vector<std::uint8_t>(15)}), "");
    EXPECT_EQ(nd_core::encode_png(Image{-2, -2, std::vector<std::uint8_t>(16)}), "");
    EXPECT_EQ(nd_core::encode_png(Image{0, 5, {}}), "");
    EXPECT_FALSE(nd_core::image_is_valid(Image{2, 2, std::vector<std::uint8_t>(17)}));
    EXPECT_TRUE(nd_core::image_is_valid(Image{2, 2, std::vector<std::uint8_t>(16)}));
}

// The pixels of `img` that black_out turned black, as a w*h mask.
std::string black_mask(const Image& img)
{
    std::string mask;
    for (std::size_t i = 0; i < img.rgba.size(); i += 4) {
        bool black = img.rgba[i] == 0 && img.rgba[i + 1] == 0 && img.rgba[i + 2] == 0 && img.rgba[i + 3] == 255;
        mask += black ? '#' : '.';
    }
    return mask;
}

Image white(std::int32_t w, std::int32_t h) { return Image{w, h, std::vector<std::uint8_t>(std::size_t(w) * h * 4, 255)}; }

TEST(PngTest, BlackOutClips)
{
    Image img = white(4, 3);
    nd_core::black_out(img, Frame{1, 1, 2, 1});
    EXPECT_EQ(black_mask(img), "...." ".##." "....");

    img = white(4, 3);
    nd_core::black_out(img, Frame{-2, -5, 3, 6}); // off the top-left corner
    EXPECT_EQ(black_mask(img), "#..." "...." "....");

    img = white(4, 3);
    nd_core::black_out(img, Frame{3, 2, 100, 100}); // past the bottom-right corner
    EXPECT_EQ(black_mask(img), "...." "...." "...#");

    img = white(4, 3);
    nd_core::black_out(img, Frame{INT32_MAX - 1, 0, INT32_MAX, 3});
    nd_core::black_out(img, Frame{-10, -10, 5, 5});
    nd_core::black_out(img, Frame{4, 0, 2, 2});
    nd_core::black_out(img, Frame{1, 1, 0, 5});
    nd_core::black_out(img, Frame{1, 1, -3, -3});
    EXPECT_EQ(black_mask(img), "...." "...." "....");

    img = white(4, 3);
    nd_core::black_out(img, Frame{INT32_MIN, INT32_MIN, INT32_MAX, INT32_MAX}); // ends at -1: outside
    EXPECT_EQ(black_mask(img), "...." "...." "....");
    nd_core::black_out(img, Frame{-1, -1, INT32_MAX, INT32_MAX});
    EXPECT_EQ(black_mask(img), "####" "####" "####");

    Image broken{4, 3, std::vector<std::uint8_t>(5, 255)};
    nd_core::black_out(broken, Frame{0, 0, 4, 3}); // malformed: left alone, no crash
    EXPECT_EQ(broken.rgba, std::vector<std::uint8_t>(5, 255));
}

TEST(Base64Test, Rfc4648Vectors)
{
    using nd_core::base64_encode;
    EXPECT_EQ(base64_encode(""), "");
    EXPECT_EQ(base64_encode("f"), "Zg==");
    EXPECT_EQ(base64_encode("fo"), "Zm8=");
    EXPECT_EQ(base64_encode("foo"), "Zm9v");
    EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
    EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
    EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
    EXPECT_EQ(base64_encode(std::string("\xfb\xff", 2)), "+/8=");
    EXPECT_EQ(base64_encode(std::string("\0\0\0", 3)), "AAAA");
    EXPECT_EQ(base64_encode(std::string("\x89PNG", 4)), "iVBORw==");
}

} // namespace

#include "core/encode/base64.h"
#include "core/encode/png.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

using nd_core::PixelRect;
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

Image opaque_random(std::int32_t w, std::int32_t h, unsigned seed)
{
    Image img = random_image(w, h, seed);
    for (std::size_t i = 3; i < img.rgba.size(); i += 4)
        img.rgba[i] = 255;
    return img;
}

void fill(Image& img, std::int32_t x0, std::int32_t y0, std::int32_t w, std::int32_t h, std::uint32_t rgb)
{
    for (std::int32_t y = std::max(y0, 0); y < std::min(y0 + h, img.height); ++y)
        for (std::int32_t x = std::max(x0, 0); x < std::min(x0 + w, img.width); ++x) {
            std::uint8_t* p = img.rgba.data() + (std::size_t(y) * img.width + x) * 4;
            p[0] = std::uint8_t(rgb >> 16), p[1] = std::uint8_t(rgb >> 8), p[2] = std::uint8_t(rgb), p[3] = 255;
        }
}

// What a window looks like to the encoder: a title bar with a vertical gradient, panels with
// borders, lines of antialiased "glyphs" from a small random font, a horizontal colour ramp and a
// photo-like square of noise.
Image window_like(std::int32_t w, std::int32_t h, unsigned seed)
{
    Image img{w, h, std::vector<std::uint8_t>(std::size_t(w) * h * 4)};
    std::mt19937 rng(seed);
    fill(img, 0, 0, w, h, 0xF6F5F4);
    for (std::int32_t y = 0; y < std::min(h, 30); ++y)
        fill(img, 0, y, w, 1, 0xE0E0E0 - 0x010101u * std::uint32_t(y));
    for (int panel = 0; panel < 6; ++panel) {
        std::int32_t px = std::int32_t(rng() % std::uint32_t(w)), py = std::int32_t(rng() % std::uint32_t(h));
        std::int32_t pw = 40 + std::int32_t(rng() % 300), ph = 30 + std::int32_t(rng() % 200);
        fill(img, px, py, pw, ph, 0xC0BFBC);
        fill(img, px + 1, py + 1, pw - 2, ph - 2, panel % 2 ? 0xFFFFFF : 0xEDEDED);
    }
    std::array<std::array<std::uint8_t, 7 * 11>, 26> font{};
    for (auto& glyph : font)
        for (auto& px : glyph)
            px = rng() % 3 == 0 ? std::uint8_t(rng() % 4 == 0 ? 255 : rng()) : 0;
    for (std::int32_t line = 40; line + 11 < h; line += 18) {
        std::int32_t x = 8;
        while (x + 7 < w && x < w * 2 / 3) {
            if (rng() % 6 == 0) {
                x += 8; // a space
                continue;
            }
            const auto& glyph = font[rng() % font.size()];
            for (std::int32_t gy = 0; gy < 11; ++gy)
                for (std::int32_t gx = 0; gx < 7; ++gx) {
                    std::uint8_t* p = img.rgba.data() + (std::size_t(line + gy) * w + x + gx) * 4;
                    const int a = glyph[std::size_t(gy * 7 + gx)];
                    for (int c = 0; c < 3; ++c)
                        p[c] = std::uint8_t((p[c] * (255 - a) + 0x2E * a) / 255);
                }
            x += 8;
        }
    }
    if (h > 60)
        for (std::int32_t x = 0; x < w; ++x)
            fill(img, x, h - 40, 1, 12, std::uint32_t(x * 255 / w) << 16 | std::uint32_t(255 - x * 255 / w));
    for (std::int32_t y = 0; y < std::min(h, 32); ++y)
        for (std::int32_t x = 0; x < std::min(w, 32); ++x)
            fill(img, w - 40 + x, h / 2 + y, 1, 1, std::uint32_t(rng()) & 0xFFFFFF);
    return img;
}

// The size of a PNG's pixel data before compression: filter bytes and RGB rows.
std::size_t raw_rgb_size(const Image& img) { return (std::size_t(img.width) * 3 + 1) * img.height; }

TEST(PngTest, NoiseRoundTripsAndStaysNearRawSize)
{
    for (auto [w, h] : {std::pair{640, 480}, {333, 77}, {1, 1}, {2, 1}}) {
        Image img = opaque_random(w, h, unsigned(w + h));
        std::string png = nd_core::encode_png(img);
        Decoded d = decode(png);
        EXPECT_EQ(d.colour, 2);
        EXPECT_EQ(d.rgba, img.rgba) << w << "x" << h;
        // Incompressible rows are stored: 5 bytes a block (16 KiB or more), plus the chunks.
        EXPECT_LE(png.size(), raw_rgb_size(img) + raw_rgb_size(img) / 2000 + 100) << w << "x" << h;
    }
}

TEST(PngTest, FlatImagesOfEveryKindRoundTrip)
{
    for (std::uint32_t rgb : {0x000000u, 0xFFFFFFu, 0x123456u}) {
        Image img{517, 301, std::vector<std::uint8_t>(517 * 301 * 4)};
        fill(img, 0, 0, img.width, img.height, rgb);
        std::string png = nd_core::encode_png(img);
        EXPECT_LT(png.size(), 2000u);
        EXPECT_EQ(decode(png).rgba, img.rgba);
    }
    Image clear{300, 200, std::vector<std::uint8_t>(300 * 200 * 4, 0)}; // transparent black
    std::string png = nd_core::encode_png(clear);
    EXPECT_LT(png.size(), 2000u);
    Decoded d = decode(png);
    EXPECT_EQ(d.colour, 6);
    EXPECT_EQ(d.rgba, clear.rgba);
}

TEST(PngTest, WindowLikeImagesRoundTripNearZlibSize)
{
    for (auto [w, h] : {std::pair{1000, 800}, {1366, 741}, {641, 479}, {97, 1013}}) {
        Image img = window_like(w, h, unsigned(w * 7 + h));
        std::string png = nd_core::encode_png(img);
        Decoded d = decode(png);
        EXPECT_EQ(d.colour, 2);
        ASSERT_EQ(d.rgba, img.rgba) << w << "x" << h;

        // The same rows through zlib's default level, for scale: the fast encoder gives up a little
        // (about 11% on these).
        std::vector<std::uint8_t> rows;
        for (std::int32_t y = 0; y < h; ++y) {
            rows.push_back(1);
            for (std::int32_t x = 0; x < w * 3; ++x) {
                const std::uint8_t* p = img.rgba.data() + std::size_t(y) * w * 4;
                const std::size_t at = std::size_t(x / 3) * 4 + std::size_t(x % 3);
                rows.push_back(std::uint8_t(p[at] - (x >= 3 ? p[at - 4] : 0)));
            }
        }
        uLongf zsize = compressBound(rows.size());
        std::vector<Bytef> z(zsize);
        ASSERT_EQ(compress2(z.data(), &zsize, rows.data(), rows.size(), 6), Z_OK);
        EXPECT_LT(png.size(), zsize * 5 / 4) << w << "x" << h << ": zlib -6 gives " << zsize;
    }
}

TEST(PngTest, ExtremeShapesRoundTrip)
{
    // Very wide (rows longer than deflate's window), very tall, and widths that are multiples of
    // nothing in particular.
    for (auto [w, h] : {std::pair{20000, 1}, {1, 20000}, {11000, 3}, {5462, 4}, {1, 1}, {3, 1}, {1, 3}, {7, 5},
             {13, 17}, {255, 9}, {257, 3}, {1023, 2}, {4099, 3}}) {
        Image noisy = opaque_random(w, h, unsigned(w ^ h));
        EXPECT_EQ(decode(nd_core::encode_png(noisy)).rgba, noisy.rgba) << w << "x" << h;
        Image window = window_like(w, h, unsigned(w + 3 * h));
        EXPECT_EQ(decode(nd_core::encode_png(window)).rgba, window.rgba) << w << "x" << h;
    }
}

TEST(PngTest, TransparencyKeepsAlpha)
{
    // Alpha anywhere, including only the very last or very first pixel: those are RGBA.
    Image img = window_like(333, 211, 5);
    for (std::int32_t y = 50; y < 150; ++y)
        for (std::int32_t x = 20; x < 120; ++x)
            img.rgba[(std::size_t(y) * img.width + x) * 4 + 3] = std::uint8_t(x + y);
    Decoded d = decode(nd_core::encode_png(img));
    EXPECT_EQ(d.colour, 6);
    EXPECT_EQ(d.rgba, img.rgba);

    for (std::size_t pixel : {std::size_t(0), std::size_t(333 * 211 - 1), std::size_t(333 * 100 + 5)}) {
        Image one = window_like(333, 211, 6);
        one.rgba[pixel * 4 + 3] = 254;
        Decoded od = decode(nd_core::encode_png(one));
        EXPECT_EQ(od.colour, 6) << pixel;
        EXPECT_EQ(od.rgba, one.rgba) << pixel;
    }
}

TEST(PngTest, EncodingIsDeterministic)
{
    // Per-thread state carries nothing from one image to the next.
    Image a = window_like(400, 300, 1);
    Image b = window_like(400, 300, 2);
    std::string first = nd_core::encode_png(a);
    nd_core::encode_png(b);
    EXPECT_EQ(nd_core::encode_png(a), first);
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
    nd_core::black_out(img, nd_core::PixelRect{1, 1, 2, 1});
    EXPECT_EQ(black_mask(img), "...." ".##." "....");

    img = white(4, 3);
    nd_core::black_out(img, nd_core::PixelRect{-2, -5, 3, 6}); // off the top-left corner
    EXPECT_EQ(black_mask(img), "#..." "...." "....");

    img = white(4, 3);
    nd_core::black_out(img, nd_core::PixelRect{3, 2, 100, 100}); // past the bottom-right corner
    EXPECT_EQ(black_mask(img), "...." "...." "...#");

    img = white(4, 3);
    nd_core::black_out(img, nd_core::PixelRect{INT32_MAX - 1, 0, INT32_MAX, 3});
    nd_core::black_out(img, nd_core::PixelRect{-10, -10, 5, 5});
    nd_core::black_out(img, nd_core::PixelRect{4, 0, 2, 2});
    nd_core::black_out(img, nd_core::PixelRect{1, 1, 0, 5});
    nd_core::black_out(img, nd_core::PixelRect{1, 1, -3, -3});
    EXPECT_EQ(black_mask(img), "...." "...." "....");

    img = white(4, 3);
    nd_core::black_out(img, nd_core::PixelRect{INT32_MIN, INT32_MIN, INT32_MAX, INT32_MAX}); // ends at -1: outside
    EXPECT_EQ(black_mask(img), "...." "...." "....");
    nd_core::black_out(img, nd_core::PixelRect{-1, -1, INT32_MAX, INT32_MAX});
    EXPECT_EQ(black_mask(img), "####" "####" "####");

    Image broken{4, 3, std::vector<std::uint8_t>(5, 255)};
    nd_core::black_out(broken, PixelRect{0, 0, 4, 3}); // malformed: left alone, no crash
    EXPECT_EQ(broken.rgba, std::vector<std::uint8_t>(5, 255));
}

// A frame far off the screen (GTK3 places what does not show at INT_MIN) taken relative to an
// image's corner stays far off: subtracting the corner must not wrap it onto the image.
TEST(PngTest, AFarOffFrameStaysOffTheImage)
{
    constexpr auto far = std::numeric_limits<std::int32_t>::min();
    const auto rect = nd_core::PixelRect::relative(far, far, 50, 50, 100, 100);
    EXPECT_EQ(rect.x, far);
    EXPECT_EQ(rect.y, far);
    Image img = white(8, 8);
    nd_core::black_out(img, rect);
    for (std::size_t i = 0; i < img.rgba.size(); i += 4)
        ASSERT_EQ(img.rgba[i], 255) << "a far-off frame blacked out a pixel";
    const auto near = nd_core::PixelRect::relative(105, 102, 3, 4, 100, 100);
    EXPECT_EQ(near.x, 5);
    EXPECT_EQ(near.y, 2);
    EXPECT_EQ(near.w, 3);
    EXPECT_EQ(near.h, 4);
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

// libFuzzer target for the PNG and deflate encoder (core/encode/png.h, png_deflate.h,
// docs/fuzzing.md): a round trip through zlib must give back exactly what went in. The input's
// bytes are compressed as they are (with a scanline shape from its first byte) and inflated by zlib;
// and they fill an image of up to 48 x 48 pixels (its size from the first bytes), whose PNG is
// decoded with zlib and must hold the same pixels (RGB when every pixel is opaque, as the encoder
// chooses). Adler-32 must agree with zlib's, and a blacked-out rectangle must be black and only it.

#include "core/encode/png.h"
#include "core/encode/png_deflate.h"
#include "fuzz_check.h"
#include "tools/png_decode.h"

#include <zlib.h>

#include <vector>

namespace {

using nd_fuzz::require;

void deflate_round_trip(std::span<const std::uint8_t> bytes, nd_core::ScanlineShape shape)
{
    std::vector<std::uint8_t> packed(nd_core::zlib_bound(bytes.size()));
    const auto written = nd_core::zlib_compress(bytes, shape, packed);
    require(written > 0 && written <= packed.size());
    std::vector<std::uint8_t> back(bytes.size() + 1);
    uLongf back_size = back.size();
    require(uncompress(back.data(), &back_size, packed.data(), written) == Z_OK);
    require(back_size == bytes.size() && std::equal(bytes.begin(), bytes.end(), back.begin()));
    require(nd_core::adler32_of(bytes) == adler32(1, bytes.data(), static_cast<uInt>(bytes.size())));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 3)
        return 0;
    const std::span<const std::uint8_t> body(data + 3, size - 3);
    const std::size_t pixel = 1 + data[2] % 4;
    deflate_round_trip(body, {pixel, (data[2] & 0x80) ? pixel * (1 + data[0] % 48) + 1 : 0});

    nd_core::Image image;
    image.width = 1 + data[0] % 48;
    image.height = 1 + data[1] % 48;
    image.rgba.resize(static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4);
    const bool opaque = data[2] & 0x40;
    for (std::size_t i = 0; i < image.rgba.size(); ++i)
        image.rgba[i] = body.empty() ? 0 : body[i % body.size()];
    if (opaque)
        for (std::size_t i = 3; i < image.rgba.size(); i += 4)
            image.rgba[i] = 0xFF;
    require(nd_core::image_is_valid(image));
    const auto png = nd_core::encode_png(image);
    require(png.size() > 8 && png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    nd_test::Pixels decoded;
    require(nd_test::decode_png(png, decoded));
    require(decoded.width == image.width && decoded.height == image.height && decoded.rgba == image.rgba);

    // A blacked-out rectangle (it may reach past the edges) is opaque black, and nothing else moved.
    const nd_core::PixelRect rect{data[0] % 64 - 8, data[1] % 64 - 8, data[2] % 32, data[2] % 29};
    auto blacked = image;
    nd_core::black_out(blacked, rect);
    for (std::int32_t y = 0; y < image.height; ++y)
        for (std::int32_t x = 0; x < image.width; ++x) {
            const auto at = (static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) + static_cast<std::size_t>(x)) * 4;
            const bool inside = x >= rect.x && x < rect.x + rect.w && y >= rect.y && y < rect.y + rect.h;
            for (std::size_t c = 0; c < 4; ++c)
                require(blacked.rgba[at + c] == (inside ? (c == 3 ? 0xFF : 0) : image.rgba[at + c]));
        }
    return 0;
}

#include "core/encode/png.h"

#include "core/encode/png_deflate.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace nd_core {

namespace {

void put_u32(std::string& out, std::uint32_t v)
{
    out += static_cast<char>((v >> 24) & 0xFF);
    out += static_cast<char>((v >> 16) & 0xFF);
    out += static_cast<char>((v >> 8) & 0xFF);
    out += static_cast<char>(v & 0xFF);
}

// length, type, data, CRC-32 of type and data (PNG §5.3).
void put_chunk(std::string& out, const char (&type)[5], std::string_view data)
{
    put_u32(out, static_cast<std::uint32_t>(data.size()));
    std::size_t type_at = out.size();
    out.append(type, 4);
    out.append(data);
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(out.data() + type_at), static_cast<uInt>(4 + data.size()));
    put_u32(out, static_cast<std::uint32_t>(crc));
}

// One row under the Sub filter (PNG §9.2: each byte minus the same byte of the previous pixel), the
// filter under which the flat areas that fill most window captures become runs of zeros, packed as
// RGB on the way: a quarter less to compress. Writes one byte past the row's end. Returns whether
// every pixel of the row is opaque; if not, the row must be written as RGBA instead.
bool sub_row_rgb(const std::uint8_t* src, std::uint8_t* dst, std::size_t width)
{
    std::size_t x = 0;
    std::uint8_t alpha = 255;
    std::uint8_t prev[3] = {0, 0, 0};
#if defined(__SSE2__)
    auto store32 = [](std::uint8_t* at, int v) { std::memcpy(at, &v, sizeof v); };
    // Four pixels a step: subtract the vector shifted by one pixel, then store each pixel's four
    // bytes 3 apart (the fourth is overwritten by the next pixel).
    __m128i last = _mm_setzero_si128(); // the previous step's pixels; its top one is needed
    __m128i alphas = _mm_set1_epi8(-1);
    for (; x + 4 <= width; x += 4, src += 16, dst += 12) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
        alphas = _mm_and_si128(alphas, v);
        const __m128i d = _mm_sub_epi8(v, _mm_or_si128(_mm_slli_si128(v, 4), _mm_srli_si128(last, 12)));
        last = v;
        store32(dst, _mm_cvtsi128_si32(d));
        store32(dst + 3, _mm_cvtsi128_si32(_mm_srli_si128(d, 4)));
        store32(dst + 6, _mm_cvtsi128_si32(_mm_srli_si128(d, 8)));
        store32(dst + 9, _mm_cvtsi128_si32(_mm_srli_si128(d, 12)));
    }
    if (x > 0) {
        alignas(16) std::uint8_t bytes[16];
        _mm_store_si128(reinterpret_cast<__m128i*>(bytes), alphas);
        alpha = bytes[3] & bytes[7] & bytes[11] & bytes[15];
        std::memcpy(prev, src - 4, 3);
    }
#endif
    for (; x < width; ++x, src += 4, dst += 3) {
        for (int c = 0; c < 3; ++c) {
            dst[c] = static_cast<std::uint8_t>(src[c] - prev[c]);
            prev[c] = src[c];
        }
        alpha &= src[3];
    }
    return alpha == 255;
}

// The same for RGBA rows, for images that are not opaque.
void sub_row_rgba(const std::uint8_t* src, std::uint8_t* dst, std::size_t width)
{
    std::size_t i = 0;
    const std::size_t n = width * 4;
#if defined(__SSE2__)
    __m128i last = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
        const __m128i d = _mm_sub_epi8(v, _mm_or_si128(_mm_slli_si128(v, 4), _mm_srli_si128(last, 12)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), d);
        last = v;
    }
#endif
    for (; i < n; ++i)
        dst[i] = static_cast<std::uint8_t>(src[i] - (i >= 4 ? src[i - 4] : 0));
}

// The filtered scanlines (PNG §9), each row starting with its filter type. Packed as RGB when every
// pixel is opaque (every capture): that is found out on the way, and only an image with
// transparency is filtered again, as RGBA. Returns whether it is opaque; `out` holds the rows and
// one byte of slack.
bool filter_rows(const Image& image, std::vector<std::uint8_t>& out)
{
    const std::size_t width = static_cast<std::size_t>(image.width);
    const std::size_t height = static_cast<std::size_t>(image.height);
    out.resize((width * 3 + 1) * height + 1);
    std::uint8_t* row = out.data();
    const std::uint8_t* src = image.rgba.data();
    bool opaque = true;
    for (std::size_t y = 0; y < height && opaque; ++y, row += width * 3 + 1, src += width * 4) {
        row[0] = 1; // Sub
        opaque = sub_row_rgb(src, row + 1, width);
    }
    if (opaque)
        return true;
    out.resize((width * 4 + 1) * height + 1);
    row = out.data();
    src = image.rgba.data();
    for (std::size_t y = 0; y < height; ++y, row += width * 4 + 1, src += width * 4) {
        row[0] = 1;
        sub_row_rgba(src, row + 1, width);
    }
    return false;
}

// One zlib stream of the filtered rows, and whether they are RGB. Returns a view of a per-thread
// buffer, valid until the thread's next call.
std::pair<std::string_view, bool> compress_rows(const Image& image)
{
    // The filtered rows and the output are large: keep them per thread rather than allocating (and
    // faulting in) megabytes for every capture.
    thread_local std::vector<std::uint8_t> rows;
    thread_local std::vector<std::uint8_t> out;
    const bool opaque = filter_rows(image, rows);
    const std::span<const std::uint8_t> data(rows.data(), rows.size() - 1);
    const std::size_t stride = static_cast<std::size_t>(image.width) * (opaque ? 3 : 4) + 1;
    out.resize(zlib_bound(data.size()));
    const std::size_t size = zlib_compress(data, ScanlineShape{opaque ? 3u : 4u, stride}, out);
    return {std::string_view(reinterpret_cast<const char*>(out.data()), size), opaque};
}

} // namespace

bool image_is_valid(const Image& image)
{
    return image.width > 0 && image.height > 0
        && image.rgba.size() == static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4;
}

std::string encode_png(const Image& image)
{
    if (!image_is_valid(image))
        return {};
    const auto [idat, opaque] = compress_rows(image);

    std::string png("\x89PNG\r\n\x1a\n", 8);
    png.reserve(idat.size() + idat.size() / (1u << 20) * 12 + 64);
    std::string ihdr;
    put_u32(ihdr, static_cast<std::uint32_t>(image.width));
    put_u32(ihdr, static_cast<std::uint32_t>(image.height));
    ihdr += '\x08'; // bit depth
    ihdr += opaque ? '\x02' : '\x06'; // colour type: truecolour, with alpha unless opaque
    ihdr += '\x00'; // compression: deflate
    ihdr += '\x00'; // filter method 0
    ihdr += '\x00'; // no interlace
    put_chunk(png, "IHDR", ihdr);
    // Several IDAT chunks of at most 1 MiB keep every chunk far below PNG's 2^31 - 1 limit.
    constexpr std::size_t MAX_IDAT = 1u << 20;
    for (std::size_t at = 0; at < idat.size(); at += MAX_IDAT)
        put_chunk(png, "IDAT", idat.substr(at, MAX_IDAT));
    put_chunk(png, "IEND", {});
    return png;
}

void black_out(Image& image, const PixelRect& rect)
{
    if (!image_is_valid(image) || rect.w <= 0 || rect.h <= 0)
        return;
    // 64-bit edges: x + w may not fit in 32 bits.
    std::int64_t x0 = std::max<std::int64_t>(rect.x, 0);
    std::int64_t y0 = std::max<std::int64_t>(rect.y, 0);
    std::int64_t x1 = std::min<std::int64_t>(std::int64_t(rect.x) + rect.w, image.width);
    std::int64_t y1 = std::min<std::int64_t>(std::int64_t(rect.y) + rect.h, image.height);
    if (x0 >= x1 || y0 >= y1)
        return;
    for (std::int64_t y = y0; y < y1; ++y) {
        std::uint8_t* p = image.rgba.data() + (static_cast<std::size_t>(y) * image.width + x0) * 4;
        for (std::int64_t x = x0; x < x1; ++x, p += 4) {
            p[0] = 0;
            p[1] = 0;
            p[2] = 0;
            p[3] = 255;
        }
    }
}

} // namespace nd_core

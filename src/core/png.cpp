#include "core/png.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

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

// Feeds `size` bytes to deflate, in pieces zlib's 32-bit counters can hold, appending the output.
bool deflate_bytes(z_stream& zs, const std::uint8_t* data, std::size_t size, int flush, std::string& out)
{
    constexpr std::size_t PIECE = 1u << 30;
    std::array<unsigned char, 1 << 16> buffer;
    do {
        std::size_t piece = std::min(size, PIECE);
        zs.next_in = const_cast<Bytef*>(data);
        zs.avail_in = static_cast<uInt>(piece);
        data += piece;
        size -= piece;
        int piece_flush = size == 0 ? flush : Z_NO_FLUSH;
        int rc = Z_OK;
        do {
            zs.next_out = buffer.data();
            zs.avail_out = static_cast<uInt>(buffer.size());
            rc = deflate(&zs, piece_flush);
            if (rc == Z_STREAM_ERROR || (rc == Z_BUF_ERROR && zs.avail_out != 0))
                return false;
            out.append(reinterpret_cast<const char*>(buffer.data()), buffer.size() - zs.avail_out);
        } while (zs.avail_out == 0 || (piece_flush == Z_FINISH && rc != Z_STREAM_END));
    } while (size > 0);
    return true;
}

// The zlib stream of the filtered scanlines. Each row uses the Sub filter: flat areas, which fill
// most window captures, become runs of zeros that even the fastest level compresses well.
bool compress_rows(const Image& image, std::string& out)
{
    z_stream zs {};
    if (deflateInit(&zs, Z_BEST_SPEED) != Z_OK)
        return false;
    const std::size_t stride = static_cast<std::size_t>(image.width) * 4;
    std::vector<std::uint8_t> row(1 + stride);
    row[0] = 1; // Sub
    bool ok = true;
    for (std::int32_t y = 0; ok && y < image.height; ++y) {
        const std::uint8_t* src = image.rgba.data() + static_cast<std::size_t>(y) * stride;
        std::copy(src, src + std::min<std::size_t>(4, stride), row.begin() + 1);
        for (std::size_t i = 4; i < stride; ++i)
            row[1 + i] = static_cast<std::uint8_t>(src[i] - src[i - 4]);
        ok = deflate_bytes(zs, row.data(), row.size(), y + 1 == image.height ? Z_FINISH : Z_NO_FLUSH, out);
    }
    deflateEnd(&zs);
    return ok;
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
    std::string idat;
    if (!compress_rows(image, idat))
        return {};

    std::string png("\x89PNG\r\n\x1a\n", 8);
    std::string ihdr;
    put_u32(ihdr, static_cast<std::uint32_t>(image.width));
    put_u32(ihdr, static_cast<std::uint32_t>(image.height));
    ihdr += '\x08'; // bit depth
    ihdr += '\x06'; // colour type: truecolour with alpha
    ihdr += '\x00'; // compression: deflate
    ihdr += '\x00'; // filter method 0
    ihdr += '\x00'; // no interlace
    put_chunk(png, "IHDR", ihdr);
    // Several IDAT chunks of at most 1 MiB keep every chunk far below PNG's 2^31 - 1 limit.
    constexpr std::size_t MAX_IDAT = 1u << 20;
    for (std::size_t at = 0; at < idat.size(); at += MAX_IDAT)
        put_chunk(png, "IDAT", std::string_view(idat).substr(at, MAX_IDAT));
    put_chunk(png, "IEND", {});
    return png;
}

void black_out(Image& image, const Frame& rect)
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

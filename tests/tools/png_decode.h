#pragma once

// Decodes the PNGs the driver writes (8-bit RGBA, filters None and Sub) for pixel checks.

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

namespace nd_test {

struct Pixels {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgba;
    const std::uint8_t* at(int x, int y) const { return &rgba[(static_cast<std::size_t>(y) * width + x) * 4]; }
};

inline std::uint32_t be32(const std::string& s, std::size_t at)
{
    return (std::uint32_t(std::uint8_t(s[at])) << 24) | (std::uint32_t(std::uint8_t(s[at + 1])) << 16)
        | (std::uint32_t(std::uint8_t(s[at + 2])) << 8) | std::uint32_t(std::uint8_t(s[at + 3]));
}

inline std::string base64_decode(const std::string& in)
{
    static const std::string ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::uint32_t buf = 0;
    int bits = 0;
    for (char c : in) {
        auto pos = ALPHABET.find(c);
        if (pos == std::string::npos)
            continue;
        buf = (buf << 6) | static_cast<std::uint32_t>(pos);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<char>((buf >> bits) & 0xFF));
        }
    }
    return out;
}

inline bool decode_png(const std::string& png, Pixels& out)
{
    if (png.size() < 8 || png.compare(1, 3, "PNG") != 0)
        return false;
    std::string idat;
    int colour = 6;
    for (std::size_t at = 8; at + 8 <= png.size();) {
        auto len = be32(png, at);
        auto type = png.substr(at + 4, 4);
        if (type == "IHDR") {
            out.width = static_cast<int>(be32(png, at + 8));
            out.height = static_cast<int>(be32(png, at + 12));
            colour = static_cast<std::uint8_t>(png[at + 8 + 9]);
        } else if (type == "IDAT") {
            idat += png.substr(at + 8, len);
        }
        at += 12 + len;
    }
    const std::size_t bpp = colour == 2 ? 3 : 4; // RGB for opaque images, else RGBA
    const std::size_t stride = static_cast<std::size_t>(out.width) * bpp;
    std::vector<std::uint8_t> raw((stride + 1) * out.height);
    uLongf raw_len = raw.size();
    if (uncompress(raw.data(), &raw_len, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) != Z_OK)
        return false;
    std::vector<std::uint8_t> pixels(stride * out.height);
    for (int y = 0; y < out.height; ++y) {
        const auto* row = &raw[y * (stride + 1)];
        auto* dst = &pixels[y * stride];
        for (std::size_t i = 0; i < stride; ++i) {
            std::uint8_t left = i >= bpp ? dst[i - bpp] : 0;
            if (row[0] == 0)
                dst[i] = row[1 + i];
            else if (row[0] == 1)
                dst[i] = static_cast<std::uint8_t>(row[1 + i] + left);
            else
                return false;
        }
    }
    out.rgba.resize(static_cast<std::size_t>(out.width) * out.height * 4);
    for (std::size_t p = 0; p < static_cast<std::size_t>(out.width) * out.height; ++p)
        for (std::size_t c = 0; c < 4; ++c)
            out.rgba[p * 4 + c] = c < bpp ? pixels[p * bpp + c] : 255;
    return true;
}

} // namespace nd_test

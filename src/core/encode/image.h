#pragma once

// Pixels as the encoders take them: an RGBA image and a rectangle of its pixels. Captures
// (backend/capture.h) produce Images; the engine blacks out and encodes them (png.h).

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace nd_core {

struct Image {
    std::int32_t width = 0;
    std::int32_t height = 0;
    std::vector<std::uint8_t> rgba; // width * height * 4, row-major
};

// A rectangle of image pixels; it may reach past the image's edges.
struct PixelRect {
    std::int32_t x = 0;
    std::int32_t y = 0;
    std::int32_t w = 0;
    std::int32_t h = 0;

    // The rectangle at (x, y) of the screen as pixels of an image whose corner is at (origin_x,
    // origin_y): subtracted in 64 bits and clamped, so that a far-off place (GTK3 puts what does
    // not show at INT_MIN) stays off the image instead of wrapping onto it.
    static PixelRect relative(std::int32_t x, std::int32_t y, std::int32_t w, std::int32_t h, std::int32_t origin_x,
                              std::int32_t origin_y)
    {
        auto less = [](std::int32_t v, std::int32_t o) {
            const auto d = std::int64_t{v} - o;
            return static_cast<std::int32_t>(std::clamp<std::int64_t>(d, std::numeric_limits<std::int32_t>::min(),
                                                                std::numeric_limits<std::int32_t>::max()));
        };
        return {less(x, origin_x), less(y, origin_y), w, h};
    }
};

} // namespace nd_core

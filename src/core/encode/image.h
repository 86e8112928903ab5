#pragma once

// Pixels as the encoders take them: an RGBA image and a rectangle of its pixels. Captures
// (backend/capture.h) produce Images; the engine blacks out and encodes them (png.h).

#include <cstdint>
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
};

} // namespace nd_core

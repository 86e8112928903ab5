#pragma once

// Turning the server's ZPixmap bytes into the RGBA the engine wants. X says how its pixels are laid
// out in the connection setup (bits per pixel and scanline pad per depth, the image byte order) and
// in the visual (the red, green and blue masks); this reads all of that instead of assuming BGRX.

#include "core/backend/capture.h"
#include "core/result.h"

#include <xcb/xcb.h>

#include <cstdint>
#include <span>

namespace nd_linux {

struct PixelLayout {
    std::uint8_t depth = 0;
    std::uint8_t bits_per_pixel = 0;
    std::uint8_t scanline_pad = 0;
    bool msb_first = false;
    std::uint32_t red_mask = 0, green_mask = 0, blue_mask = 0;

    // Bytes of one row of `width` pixels.
    std::size_t stride(std::uint32_t width) const;
};

// The layout of `depth` pixels of `visual` (or, for visual 0, the screen's first TrueColor visual of
// that depth). Errors: unsupported for anything but 32-bit pixels of 8-bit channels (depth 24/32,
// what every current X server uses for windows).
nd_core::Result<PixelLayout> pixel_layout(const xcb_setup_t* setup, const xcb_screen_t& screen, std::uint8_t depth,
    xcb_visualid_t visual);

// Converts `width` x `height` pixels; alpha is always 255 (a window's own alpha is not meaningful
// on a screenshot). Errors: internal_error when `bytes` is shorter than the layout needs.
nd_core::Result<nd_core::Image> to_rgba(std::span<const std::uint8_t> bytes, std::uint32_t width, std::uint32_t height,
    const PixelLayout& layout);

} // namespace nd_linux

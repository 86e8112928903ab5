#pragma once

// Scaling a screen capture down for a model to read: each target pixel is the area-weighted mean of
// the source pixels it covers (a box filter with fractional edges), so thin lines and small text
// stay as legible as the size allows, where dropping pixels would break them.

#include "core/encode/image.h"

namespace nd_core {

// The image at width x height (each at least 1 and at most the source's); an image already that
// size comes back as a copy. Upscaling is not offered: a larger image adds tokens and no detail.
Image resize_area(const Image&, std::int32_t width, std::int32_t height);

// The size that fits the image's long edge to `max_edge`, keeping the aspect; the image's own size
// when max_edge is 0 or at least the long edge.
void fit_long_edge(std::int32_t width, std::int32_t height, std::int32_t max_edge, std::int32_t& out_width,
    std::int32_t& out_height);

} // namespace nd_core

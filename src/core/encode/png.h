#pragma once

// PNG encoding of captured windows, and blacking out secure fields before encoding. The engine
// does both (backend/capture.h: a backend never does); secure fields are blacked out on the pixels, so
// no encoder option or later crop can bring them back.

#include "core/encode/image.h"

#include <string>

namespace nd_core {

// Whether the image is something encode_png() can encode: positive size and exactly
// width * height * 4 bytes of RGBA.
bool image_is_valid(const Image&);

// An 8-bit PNG without interlace: RGB (colour type 2) when every pixel is opaque, as in every
// capture, else RGBA (colour type 6). Rows are Sub-filtered and compressed by the encoder of
// png_deflate.h, which is made for screen content.
// Returns an empty string, never a valid PNG, for an image that is not image_is_valid().
std::string encode_png(const Image&);

// Paints `rect` (image pixels) opaque black, clipped to the image. An empty or fully outside rect
// changes nothing; a malformed image is left alone.
void black_out(Image&, const PixelRect& rect);

} // namespace nd_core

#pragma once

// JPEG encoding of an RGBA image (libjpeg-turbo), for the vision verbs' screenshots: a screen
// shown to a model costs input tokens by its pixels, not its bytes, and JPEG encodes a 1024-pixel
// screen in a few milliseconds where WebP's fastest method takes about twenty (docs/vision.md).
// Alpha is dropped. Secure fields are blacked out before anything is encoded (secure_blackout.h).

#include "core/encode/image.h"

#include <string>

namespace nd_core {

inline constexpr int JPEG_QUALITY = 80;

// The JPEG bytes, or empty when the image is invalid or the encoder fails.
std::string encode_jpeg(const Image&, int quality = JPEG_QUALITY);

} // namespace nd_core

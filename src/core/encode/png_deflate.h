#pragma once

// A zlib (RFC 1950) / deflate (RFC 1951) encoder specialised for PNG scanlines of window captures.
//
// General-purpose deflaters hash every position and search chains of earlier occurrences. Screen
// content mostly repeats in a few predictable places instead: the same bytes one pixel back (flat
// areas, which the Sub filter turns into runs of zeros) and one or two rows back (whatever
// continues vertically). This encoder compares those distances first, 8 bytes at once, and only
// where they give nothing long asks a small hash table for the last place the next 4 bytes were
// seen (text: the same glyph again along the line). Matches are taken greedily, and each block of
// tokens is coded with Huffman codes built from its own counts, or stored when that is smaller.
// On window captures this is about three times as fast as libdeflate's level 2, at about its size.
//
// The caller owns both buffers; the encoder keeps its working tables (about 130 KB) per thread, so
// it allocates nothing per call after the first on a thread.

#include <cstddef>
#include <cstdint>
#include <span>

namespace nd_core {

// Where repeats are likely: `pixel` bytes back (one pixel), and `row` and 2 * `row` bytes back (the
// same place one and two scanlines up, filter bytes included; 0 when the data has no rows).
// Distances over deflate's 32 KiB window are ignored. Byte strings without rows use the defaults.
struct ScanlineShape {
    std::size_t pixel = 1;
    std::size_t row = 0;
};

// The most bytes zlib_compress() can write for `size` input bytes (incompressible data is sent as
// stored blocks, so this is the input size plus a small overhead).
std::size_t zlib_bound(std::size_t size);

// Writes one complete zlib stream of `data` into `out` and returns its size, or 0 when `out` is
// smaller than zlib_bound(data.size()).
std::size_t zlib_compress(std::span<const std::uint8_t> data, ScanlineShape shape, std::span<std::uint8_t> out);

// Adler-32 (RFC 1950 §8.2) of `data`, continuing from `adler` (1 to start).
std::uint32_t adler32_of(std::span<const std::uint8_t> data, std::uint32_t adler = 1);

} // namespace nd_core

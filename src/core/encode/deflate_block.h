#pragma once

// Deflate blocks (RFC 1951 §3.2.3) from the tokens of png_deflate.cpp's matcher: the token format,
// the bit writer, and the block writer that codes one block's tokens with Huffman codes built from
// their counts, or stores the block's bytes when that would be smaller.

#include "core/encode/deflate_huffman.h"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace nd_core {

constexpr std::size_t DEFLATE_WINDOW = 32768;
constexpr std::size_t MIN_MATCH = 3;
constexpr std::size_t MAX_MATCH = 258;

// Stored blocks hold at most 65535 bytes; each costs at most 3 header bits, 7 bits of padding and
// 32 bits of LEN and NLEN. write_block() never writes more bits for a block than storing it costs.
constexpr std::size_t STORED_MAX = 65535;
constexpr std::size_t STORED_OVERHEAD_BITS = 3 + 7 + 32;

// Distances the matcher tries at every position (png_deflate.h: one pixel, one row, two rows back).
constexpr std::size_t MAX_CANDIDATES = 3;

// Tokens per block. Each block carries its own codes (about 60-100 bytes of header), so blocks must
// be long enough to pay for that, and short enough that the codes follow the image as it changes
// from toolbar to text to empty panel.
constexpr std::size_t BLOCK_TOKENS = 1 << 14;

// A token's kind (its low 11 bits) is a literal byte (0..255), a match at a candidate distance,
// 256 + candidate * 256 + (length - 3), or a match at any other distance, FAR + (length - 3). The
// latter's token also carries its distance's symbol + 1 (bits 11-15) and extra bits (16-31).
// Counting kinds counts everything a block's codes and size depend on, but far distances.
constexpr std::size_t FAR = 256 + MAX_CANDIDATES * 256;
constexpr std::size_t TOKEN_KINDS = FAR + 256;
constexpr unsigned KIND_BITS = 11;
static_assert(TOKEN_KINDS <= 1u << KIND_BITS);

// The distance's symbol (RFC 1951 §3.2.5).
std::size_t dist_symbol(std::size_t dist);

// The extra bits' value of a distance, given its symbol.
std::size_t dist_extra(std::size_t dist, std::size_t symbol);

// One block's tokens and their counts.
struct BlockTokens {
    std::array<std::uint32_t, BLOCK_TOKENS> tokens;
    std::size_t size = 0;
    std::array<std::uint32_t, TOKEN_KINDS> counts;
    std::array<std::uint32_t, DIST_SYMBOLS> far_dist_counts;

    void clear()
    {
        size = 0;
        counts.fill(0);
        far_dist_counts.fill(0);
    }
    bool full() const { return size == BLOCK_TOKENS; }

    void literal(std::uint8_t byte) { add(byte); }
    void match(std::size_t candidate, std::size_t length)
    {
        add(std::uint32_t(256 + candidate * 256 + length - MIN_MATCH));
    }
    void far_match(std::size_t length, std::size_t dist)
    {
        const auto kind = std::uint32_t(FAR + length - MIN_MATCH);
        const std::size_t symbol = dist_symbol(dist);
        tokens[size++] = kind | std::uint32_t(symbol + 1) << KIND_BITS | std::uint32_t(dist_extra(dist, symbol)) << 16;
        ++counts[kind];
        ++far_dist_counts[symbol];
    }

private:
    void add(std::uint32_t kind)
    {
        tokens[size++] = kind;
        ++counts[kind];
    }
};

// LSB-first bit output (RFC 1951 §3.1.1) through a 64-bit buffer that is stored 8 bytes at a time:
// the output needs 8 bytes of slack past the last byte written.
class BitWriter {
public:
    explicit BitWriter(std::uint8_t* out) : m_out(out) {}

    // At most 56 bits may be put between flushes.
    void put(std::uint64_t bits, unsigned count)
    {
        m_buffer |= bits << m_count;
        m_count += count;
    }

    void flush()
    {
        std::uint64_t le = m_buffer;
        if constexpr (std::endian::native == std::endian::big)
            le = __builtin_bswap64(le);
        std::memcpy(m_out, &le, sizeof le);
        m_out += m_count / 8;
        m_buffer >>= m_count & ~7u;
        m_count &= 7;
    }

    // Pads with zero bits to a byte boundary.
    void align()
    {
        m_count = (m_count + 7) & ~7u;
        flush();
    }

    // Bytes as they are; the writer must be aligned.
    void copy(std::span<const std::uint8_t> bytes)
    {
        if (bytes.empty())
            return; // an empty span's data() may be null, which memcpy must not see
        std::memcpy(m_out, bytes.data(), bytes.size());
        m_out += bytes.size();
    }

    std::uint8_t* position() const { return m_out; }

private:
    std::uint8_t* m_out;
    std::uint64_t m_buffer = 0;
    unsigned m_count = 0;
};

// Writes `bytes`, which `tokens` encode (matches at distances[k] for candidate k), as one dynamic
// Huffman block or, when that is no smaller, as stored blocks.
void write_block(BitWriter&, const BlockTokens& tokens, std::span<const std::size_t> distances,
    std::span<const std::uint8_t> bytes, bool final);

} // namespace nd_core

#pragma once

// Huffman codes for deflate's dynamic blocks (RFC 1951 §3.2.2 and §3.2.7): code lengths limited to
// 15 (7 for the code-length code) built from a block's symbol counts, the canonical codes, and the
// block header that transmits the lengths. Used by png_deflate.cpp.
//
// Every code built here is complete (its Kraft sum is exactly 1) and has at least two symbols,
// even when fewer occur: zlib's inflate rejects incomplete codes, and so may other decoders.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace nd_core {

constexpr std::size_t LITLEN_SYMBOLS = 286; // 0..255 literals, 256 end of block, 257..285 lengths
constexpr std::size_t DIST_SYMBOLS = 30;
constexpr std::size_t CODELEN_SYMBOLS = 19;
constexpr std::size_t END_OF_BLOCK = 256;

// Lengths of an optimal-or-nearly prefix code for `freq`, none longer than `max_bits`. Unused
// symbols get 0, unless fewer than two are used (then symbols are added to make two). At most
// LITLEN_SYMBOLS and at most 2^max_bits symbols; `lens` has at least two, and no fewer than `freq`.
void build_code_lengths(std::span<const std::uint32_t> freq, unsigned max_bits, std::span<std::uint8_t> lens);

// The canonical codes for `lens`, bit-reversed so that they can be written LSB first.
void build_codes(std::span<const std::uint8_t> lens, std::span<std::uint16_t> codes);

// The codes of one dynamic block and its header.
class DynamicCodes {
public:
    void build(std::span<const std::uint32_t, LITLEN_SYMBOLS> litlen_freq,
        std::span<const std::uint32_t, DIST_SYMBOLS> dist_freq);

    // The header's size after BFINAL and BTYPE: HLIT, HDIST, HCLEN, the code-length code and the
    // run-length coded lengths.
    std::uint64_t header_bits() const;

    // Writes that header as put(bits, count) calls of at most 16 bits each.
    template<typename Put>
    void write_header(Put&& put) const
    {
        put(m_litlen_count - 257, 5);
        put(m_dist_count - 1, 5);
        put(m_codelen_count - 4, 4);
        for (std::size_t i = 0; i < m_codelen_count; ++i)
            put(m_codelen_len[CODELEN_ORDER[i]], 3);
        for (std::size_t i = 0; i < m_run_count; ++i) {
            const std::uint8_t sym = m_runs[i].symbol;
            put(m_codelen_code[sym], m_codelen_len[sym]);
            if (sym >= 16)
                put(m_runs[i].extra, EXTRA_BITS[sym - 16]);
        }
    }

    std::array<std::uint16_t, LITLEN_SYMBOLS> litlen_code{};
    std::array<std::uint8_t, LITLEN_SYMBOLS> litlen_len{};
    std::array<std::uint16_t, DIST_SYMBOLS> dist_code{};
    std::array<std::uint8_t, DIST_SYMBOLS> dist_len{};

private:
    static constexpr std::array<std::uint8_t, CODELEN_SYMBOLS> CODELEN_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11,
        4, 12, 3, 13, 2, 14, 1, 15};
    static constexpr std::array<unsigned, 3> EXTRA_BITS = {2, 3, 7}; // of symbols 16, 17, 18

    // One code-length symbol: a length 0..15, or 16 (repeat the previous 3-6 times), 17 (3-10
    // zeros) or 18 (11-138 zeros) with its extra bits.
    struct Run {
        std::uint8_t symbol;
        std::uint8_t extra;
    };

    std::size_t m_litlen_count = 257;
    std::size_t m_dist_count = 1;
    std::size_t m_codelen_count = 4;
    std::array<Run, LITLEN_SYMBOLS + DIST_SYMBOLS> m_runs{};
    std::size_t m_run_count = 0;
    std::array<std::uint16_t, CODELEN_SYMBOLS> m_codelen_code{};
    std::array<std::uint8_t, CODELEN_SYMBOLS> m_codelen_len{};
};

} // namespace nd_core

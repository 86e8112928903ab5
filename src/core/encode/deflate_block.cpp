#include "core/encode/deflate_block.h"

#include <algorithm>

namespace nd_core {

namespace {

constexpr std::array<std::uint16_t, 29> LENGTH_BASE = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<std::uint8_t, 29> LENGTH_EXTRA = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
    4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<std::uint16_t, 30> DIST_BASE = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
    257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<std::uint8_t, 30> DIST_EXTRA = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9,
    9, 10, 10, 11, 11, 12, 12, 13, 13};

// Length - 3 to its index in LENGTH_BASE (the symbol is 257 + index). 258 has a symbol of its own
// (285) rather than the last extra-bit value of 284.
constexpr std::array<std::uint8_t, 256> LENGTH_INDEX = [] {
    std::array<std::uint8_t, 256> t{};
    for (std::size_t i = 0; i < LENGTH_BASE.size(); ++i) {
        const std::size_t end = std::min<std::size_t>(LENGTH_BASE[i] + (1u << LENGTH_EXTRA[i]), MAX_MATCH + 1);
        for (std::size_t len = LENGTH_BASE[i]; len < end; ++len)
            t[len - MIN_MATCH] = static_cast<std::uint8_t>(i);
    }
    return t;
}();

void write_stored(BitWriter& bits, std::span<const std::uint8_t> bytes, bool final)
{
    do {
        const std::size_t len = std::min(STORED_MAX, bytes.size());
        const bool last = len == bytes.size();
        bits.put(final && last ? 1 : 0, 3); // BFINAL, then BTYPE 00
        bits.align();
        bits.put(len | (~len & 0xFFFF) << 16, 32);
        bits.flush();
        bits.copy(bytes.first(len));
        bytes = bytes.subspan(len);
    } while (!bytes.empty());
}

} // namespace

std::size_t dist_symbol(std::size_t dist)
{
    // Two symbols per power of two above 4.
    if (dist <= 4)
        return dist - 1;
    const auto top = static_cast<std::size_t>(std::bit_width(dist - 1) - 1);
    return 2 * top + ((dist - 1) >> (top - 1) & 1);
}

std::size_t dist_extra(std::size_t dist, std::size_t symbol) { return dist - DIST_BASE[symbol]; }

void write_block(BitWriter& bits, const BlockTokens& tokens, std::span<const std::size_t> distances,
    std::span<const std::uint8_t> bytes, bool final)
{
    const auto& counts = tokens.counts;
    std::array<std::uint32_t, LITLEN_SYMBOLS> litlen_freq{};
    std::array<std::uint32_t, DIST_SYMBOLS> dist_freq = tokens.far_dist_counts;
    std::copy_n(counts.begin(), 256, litlen_freq.begin());
    litlen_freq[END_OF_BLOCK] = 1;
    for (std::size_t k = 0; k < distances.size(); ++k) {
        const std::size_t ds = dist_symbol(distances[k]);
        for (std::size_t l = 0; l < 256; ++l) {
            const std::uint32_t c = counts[256 + k * 256 + l];
            litlen_freq[257 + LENGTH_INDEX[l]] += c;
            dist_freq[ds] += c;
        }
    }
    for (std::size_t l = 0; l < 256; ++l)
        litlen_freq[257 + LENGTH_INDEX[l]] += counts[FAR + l];
    DynamicCodes codes;
    codes.build(litlen_freq, dist_freq);

    // Each kind's bits, and the block's exact size with these codes, to compare with storing it.
    // Only the kinds that occur are filled in.
    std::array<std::uint64_t, TOKEN_KINDS> code;
    std::array<std::uint8_t, TOKEN_KINDS> code_len;
    std::uint64_t size_bits = 3 + codes.header_bits() + codes.litlen_len[END_OF_BLOCK];
    for (std::size_t b = 0; b < 256; ++b) {
        code[b] = codes.litlen_code[b];
        code_len[b] = codes.litlen_len[b];
        size_bits += std::uint64_t(counts[b]) * code_len[b];
    }
    // A match kind's bits: the length's code and extra bits, then for candidate distances the
    // distance's code and extra bits too (far matches add theirs as they are written).
    auto match_code = [&](std::size_t kind, std::size_t l, const std::size_t* dist) {
        const std::size_t li = LENGTH_INDEX[l];
        std::uint64_t c = codes.litlen_code[257 + li];
        unsigned n = codes.litlen_len[257 + li];
        c |= std::uint64_t(l + MIN_MATCH - LENGTH_BASE[li]) << n;
        n += LENGTH_EXTRA[li];
        if (dist) {
            const std::size_t ds = dist_symbol(*dist);
            c |= std::uint64_t(codes.dist_code[ds]) << n;
            n += codes.dist_len[ds];
            c |= std::uint64_t(dist_extra(*dist, ds)) << n;
            n += DIST_EXTRA[ds];
        }
        code[kind] = c;
        code_len[kind] = static_cast<std::uint8_t>(n);
        size_bits += std::uint64_t(counts[kind]) * n;
    };
    for (std::size_t k = 0; k < distances.size(); ++k)
        for (std::size_t l = 0; l < 256; ++l)
            if (counts[256 + k * 256 + l] != 0)
                match_code(256 + k * 256 + l, l, &distances[k]);
    for (std::size_t l = 0; l < 256; ++l)
        if (counts[FAR + l] != 0)
            match_code(FAR + l, l, nullptr);
    for (std::size_t ds = 0; ds < DIST_SYMBOLS; ++ds)
        size_bits += std::uint64_t(tokens.far_dist_counts[ds]) * (codes.dist_len[ds] + DIST_EXTRA[ds]);

    const std::size_t chunks = std::max<std::size_t>(1, (bytes.size() + STORED_MAX - 1) / STORED_MAX);
    if (size_bits >= chunks * STORED_OVERHEAD_BITS + 8 * std::uint64_t(bytes.size())) {
        write_stored(bits, bytes, final);
        return;
    }

    bits.put(final ? 1 : 0, 1);
    bits.put(2, 2); // dynamic Huffman codes
    codes.write_header([&](std::uint32_t value, unsigned count) {
        bits.put(value, count);
        bits.flush();
    });
    // A far match's distance code by its symbol + 1; entry 0 writes nothing for other tokens, so
    // that every token is written the same way, without a branch.
    std::array<std::uint16_t, DIST_SYMBOLS + 1> far_code{};
    std::array<std::uint8_t, DIST_SYMBOLS + 1> far_code_len{};
    std::array<std::uint8_t, DIST_SYMBOLS + 1> far_len{};
    for (std::size_t ds = 0; ds < DIST_SYMBOLS; ++ds) {
        far_code[ds + 1] = codes.dist_code[ds];
        far_code_len[ds + 1] = codes.dist_len[ds];
        far_len[ds + 1] = static_cast<std::uint8_t>(codes.dist_len[ds] + DIST_EXTRA[ds]);
    }
    for (std::size_t i = 0; i < tokens.size; ++i) {
        const std::uint32_t t = tokens.tokens[i];
        const std::uint32_t kind = t & ((1u << KIND_BITS) - 1);
        const std::uint32_t far = t >> KIND_BITS & 31;
        bits.put(code[kind], code_len[kind]);
        bits.put(far_code[far] | std::uint64_t(t >> 16) << far_code_len[far], far_len[far]);
        bits.flush();
    }
    bits.put(codes.litlen_code[END_OF_BLOCK], codes.litlen_len[END_OF_BLOCK]);
    bits.flush();
}

} // namespace nd_core

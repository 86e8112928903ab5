#include "core/encode/deflate_huffman.h"

#include <algorithm>

namespace nd_core {

namespace {

constexpr unsigned MAX_BITS = 15;
constexpr unsigned CODELEN_MAX_BITS = 7;

// Huffman's algorithm on the used symbols, sorted by ascending count: the depth of each leaf.
// Merged nodes are made in ascending weight, so two queues (leaves, then merged nodes) replace a
// heap.
void huffman_depths(std::span<const std::uint32_t> freq, std::span<const std::uint16_t> order,
    std::span<std::uint16_t> depth)
{
    const std::size_t n = order.size();
    std::array<std::uint64_t, LITLEN_SYMBOLS> weight{}; // of merged node j
    std::array<std::uint16_t, 2 * LITLEN_SYMBOLS> parent{}; // of leaf i (i) and merged node j (n + j)
    std::size_t leaf = 0;
    std::size_t node = 0;
    for (std::size_t made = 0; made + 1 < n; ++made) {
        std::uint64_t sum = 0;
        for (int pick = 0; pick < 2; ++pick) {
            if (leaf < n && (node == made || freq[order[leaf]] <= weight[node])) {
                sum += freq[order[leaf]];
                parent[leaf++] = static_cast<std::uint16_t>(n + made);
            } else {
                sum += weight[node];
                parent[n + node++] = static_cast<std::uint16_t>(n + made);
            }
        }
        weight[made] = sum;
    }
    // The last merged node is the root; every other node's parent was made after it.
    std::array<std::uint16_t, 2 * LITLEN_SYMBOLS> node_depth{};
    node_depth[2 * n - 2] = 0;
    for (std::size_t j = 2 * n - 2; j-- > n;)
        node_depth[j] = static_cast<std::uint16_t>(node_depth[parent[j]] + 1);
    for (std::size_t i = 0; i < n; ++i)
        depth[i] = static_cast<std::uint16_t>(node_depth[parent[i]] + 1);
}

// Makes the counts of codes per length (count[1..max_bits]) a complete code again after the
// deepest leaves were raised to max_bits: first pushes leaves down until the code is not
// over-subscribed, then lifts the deepest leaves until nothing is left unused.
void fix_kraft(std::array<std::uint32_t, MAX_BITS + 1>& count, unsigned max_bits)
{
    const std::uint32_t full = 1u << max_bits;
    std::uint32_t kraft = 0;
    for (unsigned l = 1; l <= max_bits; ++l)
        kraft += count[l] << (max_bits - l);
    while (kraft > full) {
        unsigned l = max_bits - 1;
        while (count[l] == 0)
            --l;
        --count[l];
        ++count[l + 1];
        kraft -= 1u << (max_bits - l - 1);
    }
    while (kraft < full) {
        // The shortfall is a multiple of the deepest level's unit, so one step never overshoots.
        unsigned l = max_bits;
        while (count[l] == 0)
            --l;
        --count[l];
        ++count[l - 1];
        kraft += 1u << (max_bits - l);
    }
}

} // namespace

void build_code_lengths(std::span<const std::uint32_t> freq, unsigned max_bits, std::span<std::uint8_t> lens)
{
    std::fill(lens.begin(), lens.end(), std::uint8_t(0));
    // The used symbols by ascending count, sorted as count << 16 | symbol: plain integers sort
    // several times faster than through a comparison that looks the counts up.
    std::array<std::uint64_t, LITLEN_SYMBOLS> keys{};
    std::size_t used = 0;
    for (std::size_t s = 0; s < freq.size(); ++s)
        if (freq[s] != 0)
            keys[used++] = std::uint64_t(freq[s]) << 16 | s;
    if (used < 2) {
        // One code of one bit is "incomplete" to strict decoders: pair the symbol with another.
        const std::size_t a = used == 1 ? keys[0] & 0xFFFF : 0;
        lens[a] = 1;
        lens[a == 0 ? 1 : 0] = 1;
        return;
    }
    std::sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(used));
    std::array<std::uint16_t, LITLEN_SYMBOLS> order{};
    for (std::size_t i = 0; i < used; ++i)
        order[i] = static_cast<std::uint16_t>(keys[i] & 0xFFFF);
    std::array<std::uint16_t, LITLEN_SYMBOLS> depth{};
    huffman_depths(freq, std::span(order.data(), used), std::span(depth.data(), used));

    std::array<std::uint32_t, MAX_BITS + 1> count{};
    bool too_deep = false;
    for (std::size_t i = 0; i < used; ++i) {
        too_deep |= depth[i] > max_bits;
        ++count[std::min<unsigned>(depth[i], max_bits)];
    }
    if (too_deep)
        fix_kraft(count, max_bits);
    // The rarest symbols take the longest codes.
    std::size_t i = 0;
    for (unsigned l = max_bits; l >= 1; --l)
        for (std::uint32_t c = 0; c < count[l]; ++c)
            lens[order[i++]] = static_cast<std::uint8_t>(l);
}

void build_codes(std::span<const std::uint8_t> lens, std::span<std::uint16_t> codes)
{
    // RFC 1951 §3.2.2: codes of one length are consecutive, and shorter codes come first.
    std::array<std::uint16_t, MAX_BITS + 1> count{};
    for (std::uint8_t l : lens)
        ++count[l];
    count[0] = 0;
    std::array<std::uint16_t, MAX_BITS + 1> first{};
    std::uint16_t code = 0;
    for (unsigned l = 1; l <= MAX_BITS; ++l) {
        code = static_cast<std::uint16_t>((code + count[l - 1]) << 1);
        first[l] = code;
    }
    for (std::size_t s = 0; s < lens.size(); ++s) {
        const unsigned l = lens[s];
        if (l == 0) {
            codes[s] = 0;
            continue;
        }
        std::uint16_t c = first[l]++;
        std::uint16_t reversed = 0;
        for (unsigned b = 0; b < l; ++b, c >>= 1)
            reversed = static_cast<std::uint16_t>(reversed << 1 | (c & 1));
        codes[s] = reversed;
    }
}

void DynamicCodes::build(std::span<const std::uint32_t, LITLEN_SYMBOLS> litlen_freq,
    std::span<const std::uint32_t, DIST_SYMBOLS> dist_freq)
{
    build_code_lengths(litlen_freq, MAX_BITS, litlen_len);
    build_code_lengths(dist_freq, MAX_BITS, dist_len);
    build_codes(litlen_len, litlen_code);
    build_codes(dist_len, dist_code);

    m_litlen_count = LITLEN_SYMBOLS;
    while (m_litlen_count > 257 && litlen_len[m_litlen_count - 1] == 0)
        --m_litlen_count;
    m_dist_count = DIST_SYMBOLS;
    while (m_dist_count > 1 && dist_len[m_dist_count - 1] == 0)
        --m_dist_count;

    // Both length lists as one sequence, run-length coded (runs may cross from one to the other).
    std::array<std::uint8_t, LITLEN_SYMBOLS + DIST_SYMBOLS> all{};
    std::copy_n(litlen_len.begin(), m_litlen_count, all.begin());
    std::copy_n(dist_len.begin(), m_dist_count, all.begin() + static_cast<std::ptrdiff_t>(m_litlen_count));
    const std::size_t total = m_litlen_count + m_dist_count;
    m_run_count = 0;
    auto emit = [&](unsigned symbol, unsigned extra) {
        m_runs[m_run_count++] = Run{static_cast<std::uint8_t>(symbol), static_cast<std::uint8_t>(extra)};
    };
    for (std::size_t i = 0; i < total;) {
        const std::uint8_t v = all[i];
        std::size_t run = 1;
        while (i + run < total && all[i + run] == v)
            ++run;
        i += run;
        if (v == 0) {
            while (run >= 11) {
                const std::size_t r = std::min<std::size_t>(run, 138);
                emit(18, static_cast<unsigned>(r - 11));
                run -= r;
            }
            if (run >= 3) {
                emit(17, static_cast<unsigned>(run - 3));
                run = 0;
            }
        } else {
            emit(v, 0);
            --run;
            while (run >= 3) {
                const std::size_t r = std::min<std::size_t>(run, 6);
                emit(16, static_cast<unsigned>(r - 3));
                run -= r;
            }
        }
        for (; run > 0; --run)
            emit(v, 0);
    }

    std::array<std::uint32_t, CODELEN_SYMBOLS> codelen_freq{};
    for (std::size_t i = 0; i < m_run_count; ++i)
        ++codelen_freq[m_runs[i].symbol];
    build_code_lengths(codelen_freq, CODELEN_MAX_BITS, m_codelen_len);
    build_codes(m_codelen_len, m_codelen_code);
    m_codelen_count = CODELEN_SYMBOLS;
    while (m_codelen_count > 4 && m_codelen_len[CODELEN_ORDER[m_codelen_count - 1]] == 0)
        --m_codelen_count;
}

std::uint64_t DynamicCodes::header_bits() const
{
    std::uint64_t bits = 5 + 5 + 4 + 3 * m_codelen_count;
    for (std::size_t i = 0; i < m_run_count; ++i) {
        const std::uint8_t sym = m_runs[i].symbol;
        bits += m_codelen_len[sym] + (sym >= 16 ? EXTRA_BITS[sym - 16] : 0);
    }
    return bits;
}

} // namespace nd_core

#include "core/encode/png_deflate.h"

#include "core/encode/deflate_block.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <memory>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace nd_core {

namespace {

// The hash table remembers where 4-byte strings were last seen, for repeats at no fixed distance
// (the same glyph again along a line of text). Such a match must cover 4 bytes to pay for its
// distance.
constexpr unsigned HASH_BITS = 14;
constexpr std::size_t FAR_MIN_MATCH = 4;

std::uint64_t load64(const std::uint8_t* p)
{
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// The index of the first differing byte of two 8-byte words, given their XOR (8 when equal).
int first_difference(std::uint64_t x)
{
    // The marker bit keeps the count defined at 0 without a branch; bytes 0..6 equal and byte 7
    // different give 7 either way, and x == 0 adds the eighth.
    if constexpr (std::endian::native == std::endian::little)
        return std::countr_zero(x | 1ull << 63) / 8 + (x == 0);
    else
        return std::countl_zero(x | 1) / 8 + (x == 0);
}

// Bytes equal from the start of a and b, at most `max`.
std::size_t match_length(const std::uint8_t* a, const std::uint8_t* b, std::size_t max)
{
    std::size_t len = 0;
    while (len + 8 <= max) {
        const std::uint64_t x = load64(a + len) ^ load64(b + len);
        if (x != 0)
            return len + static_cast<std::size_t>(first_difference(x));
        len += 8;
    }
    while (len < max && a[len] == b[len])
        ++len;
    return len;
}

// The distances tried at every position, best first. Unused slots repeat the first distance, so
// that the matcher can always try all of them: a repeat never wins, since the first of equal
// matches wins.
struct Candidates {
    std::array<std::size_t, MAX_CANDIDATES> dist{};
    std::size_t count = 0;

    void add(std::size_t d)
    {
        if (d == 0 || d > DEFLATE_WINDOW || count == MAX_CANDIDATES)
            return;
        for (std::size_t i = 0; i < count; ++i)
            if (dist[i] == d)
                return;
        dist[count++] = d;
        for (std::size_t i = count; i < MAX_CANDIDATES; ++i)
            dist[i] = dist[0];
    }

    std::size_t max_dist() const { return *std::max_element(dist.begin(), dist.end()); }
};

// Per-thread working memory: one block's tokens, and where 4-byte strings were last seen.
struct Workspace {
    BlockTokens block;
    std::array<std::uint32_t, 1u << HASH_BITS> last_seen; // position + 1, 0 for none
};

struct Match {
    std::size_t length = 0;
    std::size_t candidate = 0; // MAX_CANDIDATES for a far match
    std::size_t dist = 0;      // of a far match
};

// Greedy parsing: at each position the longest match at a candidate distance or, failing a long
// one, at the last place the next 4 bytes were seen; else a literal.
class Matcher {
public:
    Matcher(Workspace& ws, std::span<const std::uint8_t> data, const Candidates& candidates)
        : m_ws(ws), m_data(data), m_candidates(candidates)
    {
    }

    // Tokens from `pos` on into the workspace's block, until it is full or the data ends. Returns
    // the position after them.
    std::size_t tokenize(std::size_t pos)
    {
        const std::uint8_t* data = m_data.data();
        const std::size_t size = m_data.size();
        // Where every candidate's reference lies inside the data and a full-length match fits.
        const std::size_t fast_from = m_candidates.max_dist();
        const std::size_t fast_to = size > MAX_MATCH ? size - MAX_MATCH : 0;
        BlockTokens& block = m_ws.block;
        while (pos < size && !block.full()) {
            const Match m = pos >= fast_from && pos < fast_to ? match_fast(pos) : match_slow(pos);
            if (m.length < MIN_MATCH) {
                block.literal(data[pos]);
                pos += 1;
                continue;
            }
            if (m.candidate < MAX_CANDIDATES)
                block.match(m.candidate, m.length);
            else
                block.far_match(m.length, m.dist);
            pos += m.length;
        }
        return pos;
    }

private:
    // The first 8 bytes at every candidate at once, without branches: most positions end there (a
    // literal, or a short match). Each candidate's key is its length times four plus its priority,
    // so the largest key is the longest match and, among equals, the first candidate.
    Match match_fast(std::size_t pos)
    {
        const std::uint8_t* at = m_data.data() + pos;
        const std::uint64_t here = load64(at);
        std::size_t key = 0;
        for (std::size_t k = 0; k < MAX_CANDIDATES; ++k) {
            const std::uint64_t x = here ^ load64(at - m_candidates.dist[k]);
            const auto len = static_cast<std::size_t>(first_difference(x));
            key = std::max(key, len * 4 + (MAX_CANDIDATES - 1 - k));
        }
        Match best{key / 4, MAX_CANDIDATES - 1 - key % 4};
        if (best.length < 8)
            return far_match(pos, here, best);
        // Long matches: extend each candidate that could still beat the best so far.
        for (std::size_t k = best.candidate; k < MAX_CANDIDATES; ++k) {
            const std::uint8_t* ref = at - m_candidates.dist[k];
            if (ref[best.length] != at[best.length] || load64(ref) != here)
                continue;
            const std::size_t len = match_length(at, ref, MAX_MATCH);
            if (len > best.length) {
                best = {len, k};
                if (len == MAX_MATCH)
                    break;
            }
        }
        return best;
    }

    // The last place these 4 bytes were seen, if it gives a longer match than `best`.
    Match far_match(std::size_t pos, std::uint64_t here, Match best)
    {
        const auto h = static_cast<std::uint32_t>(here) * 0x9E3779B1u >> (32 - HASH_BITS);
        const std::size_t seen = m_ws.last_seen[h];
        m_ws.last_seen[h] = static_cast<std::uint32_t>(pos + 1);
        const std::size_t dist = pos + 1 - seen;
        if (seen == 0 || dist > DEFLATE_WINDOW)
            return best;
        const std::uint8_t* at = m_data.data() + pos;
        const std::uint8_t* ref = at - dist;
        auto len = static_cast<std::size_t>(first_difference(here ^ load64(ref)));
        if (len == 8)
            len = match_length(at, ref, MAX_MATCH);
        if (len < FAR_MIN_MATCH || len <= best.length)
            return best;
        return Match{len, MAX_CANDIDATES, dist};
    }

    // The candidates near the start and the end of the data, with every bound checked.
    Match match_slow(std::size_t pos) const
    {
        const std::uint8_t* data = m_data.data();
        const std::size_t max = std::min(MAX_MATCH, m_data.size() - pos);
        Match best;
        for (std::size_t k = 0; k < MAX_CANDIDATES && best.length < max; ++k) {
            const std::size_t d = m_candidates.dist[k];
            if (d > pos)
                continue;
            const std::uint8_t* ref = data + pos - d;
            if (ref[best.length] != data[pos + best.length])
                continue;
            const std::size_t len = match_length(data + pos, ref, max);
            if (len > best.length)
                best = {len, k};
        }
        return best;
    }

    Workspace& m_ws;
    std::span<const std::uint8_t> m_data;
    const Candidates& m_candidates;
};

} // namespace

std::size_t zlib_bound(std::size_t size)
{
    // Every block is stored at worst, and blocks but the last hold BLOCK_TOKENS bytes or more.
    const std::size_t blocks = size / BLOCK_TOKENS + 1;
    const std::size_t chunks = blocks + size / STORED_MAX;
    const std::size_t deflate = size + (chunks * STORED_OVERHEAD_BITS + 7) / 8 + 1;
    return 2 + deflate + 4 + 8; // header, blocks, Adler-32, the bit writer's slack
}

std::size_t zlib_compress(std::span<const std::uint8_t> data, ScanlineShape shape, std::span<std::uint8_t> out)
{
    if (out.size() < zlib_bound(data.size()))
        return 0;
    thread_local std::unique_ptr<Workspace> workspace;
    if (!workspace)
        workspace = std::make_unique<Workspace>();
    // Positions of an earlier call would only be misleading (and make the output depend on it).
    workspace->last_seen.fill(0);

    // The cheapest candidate first: on equal lengths the earlier one wins, which keeps the
    // distance codes few and short. Runs of one byte (grey pixels, for one) need no candidate of
    // their own: the pixel distance or the hash table finds them.
    Candidates candidates;
    candidates.add(shape.pixel);
    candidates.add(shape.row);
    candidates.add(2 * shape.row);
    if (candidates.count == 0)
        candidates.add(1);

    out[0] = 0x78; // deflate, 32 KiB window
    out[1] = 0x01; // fastest compression; (0x78 << 8 | 0x01) % 31 == 0
    BitWriter bits(out.data() + 2);
    Matcher matcher(*workspace, data, candidates);
    const std::span<const std::size_t> distances(candidates.dist.data(), candidates.count);
    std::size_t pos = 0;
    do {
        const std::size_t start = pos;
        workspace->block.clear();
        pos = matcher.tokenize(pos);
        write_block(bits, workspace->block, distances, data.subspan(start, pos - start), pos == data.size());
    } while (pos < data.size());
    bits.align();

    std::uint8_t* p = bits.position();
    const std::uint32_t adler = adler32_of(data);
    for (int shift = 24; shift >= 0; shift -= 8)
        *p++ = static_cast<std::uint8_t>(adler >> shift);
    return static_cast<std::size_t>(p - out.data());
}

std::uint32_t adler32_of(std::span<const std::uint8_t> data, std::uint32_t adler)
{
    constexpr std::uint32_t MOD = 65521;
    // The most bytes the sums can take before they must be reduced, so that s2 fits in 32 bits.
    constexpr std::size_t NMAX = 5552;
    std::uint32_t s1 = adler & 0xFFFF;
    std::uint32_t s2 = adler >> 16;
    const std::uint8_t* p = data.data();
    std::size_t n = data.size();
#if defined(__SSE2__)
    // 16 bytes a step: s1 gains their sum, s2 gains 16 * s1 plus the bytes weighted 16, 15, ..., 1.
    const __m128i zero = _mm_setzero_si128();
    const __m128i weights_lo = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9);
    const __m128i weights_hi = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
    while (n >= 16) {
        const std::size_t steps = std::min(n, NMAX) / 16;
        __m128i sum = zero;      // the bytes so far (in two 64-bit lanes)
        __m128i sums = zero;     // `sum` before each step, summed
        __m128i weighted = zero; // the weighted bytes
        for (std::size_t i = 0; i < steps; ++i) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i * 16));
            sums = _mm_add_epi32(sums, sum);
            sum = _mm_add_epi64(sum, _mm_sad_epu8(v, zero));
            weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpacklo_epi8(v, zero), weights_lo));
            weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpackhi_epi8(v, zero), weights_hi));
        }
        alignas(16) std::uint32_t s[4];
        alignas(16) std::uint32_t w[4];
        alignas(16) std::uint64_t b[2];
        _mm_store_si128(reinterpret_cast<__m128i*>(s), sums);
        _mm_store_si128(reinterpret_cast<__m128i*>(w), weighted);
        _mm_store_si128(reinterpret_cast<__m128i*>(b), sum);
        // `sums` adds the 64-bit lanes of `sum` as 32-bit ones: their high halves stay zero, since
        // no lane exceeds 5552 * 255.
        const std::uint64_t s2_total = std::uint64_t(s2) + 16 * steps * std::uint64_t(s1)
            + 16 * (std::uint64_t(s[0]) + s[2]) + std::uint64_t(w[0]) + w[1] + w[2] + w[3];
        s1 = static_cast<std::uint32_t>((s1 + b[0] + b[1]) % MOD);
        s2 = static_cast<std::uint32_t>(s2_total % MOD);
        p += steps * 16;
        n -= steps * 16;
    }
#endif
    while (n > 0) {
        const std::size_t chunk = std::min(n, NMAX);
        for (std::size_t i = 0; i < chunk; ++i) {
            s1 += p[i];
            s2 += s1;
        }
        s1 %= MOD;
        s2 %= MOD;
        p += chunk;
        n -= chunk;
    }
    return s2 << 16 | s1;
}

} // namespace nd_core

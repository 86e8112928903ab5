#include "core/encode/deflate_huffman.h"
#include "core/encode/png_deflate.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace {

using nd_core::ScanlineShape;
using Bytes = std::vector<std::uint8_t>;

Bytes compress(const Bytes& data, ScanlineShape shape = {})
{
    Bytes out(nd_core::zlib_bound(data.size()));
    const std::size_t size = nd_core::zlib_compress(data, shape, out);
    EXPECT_GT(size, 0u);
    out.resize(size);
    return out;
}

// zlib's inflate, which checks the header, every block, and the Adler-32 at the end.
Bytes inflate(const Bytes& stream, std::size_t expected_size)
{
    Bytes out(expected_size + 1);
    uLongf size = out.size();
    EXPECT_EQ(uncompress(out.data(), &size, stream.data(), stream.size()), Z_OK);
    out.resize(size);
    return out;
}

void expect_round_trip(const Bytes& data, ScanlineShape shape = {})
{
    const Bytes stream = compress(data, shape);
    EXPECT_LE(stream.size(), nd_core::zlib_bound(data.size()));
    EXPECT_EQ(inflate(stream, data.size()), data) << data.size() << " bytes";
}

Bytes random_bytes(std::size_t n, unsigned seed)
{
    Bytes b(n);
    std::mt19937 rng(seed);
    for (auto& x : b)
        x = static_cast<std::uint8_t>(rng());
    return b;
}

TEST(PngDeflateTest, ShortStrings)
{
    expect_round_trip({});
    expect_round_trip({0});
    expect_round_trip({0xFF});
    expect_round_trip({1, 2});
    expect_round_trip({7, 7, 7});
    expect_round_trip({7, 7, 7, 7});
    const std::string text = "abcabcabcabc hello hello hello";
    expect_round_trip(Bytes(text.begin(), text.end()));
}

TEST(PngDeflateTest, RunsAroundTheLongestMatch)
{
    for (std::size_t n : {3u, 257u, 258u, 259u, 260u, 261u, 516u, 517u, 1000u, 65535u, 65536u, 1u << 20}) {
        expect_round_trip(Bytes(n, 0));
        expect_round_trip(Bytes(n, 0xAB));
    }
    // A run of 1 MiB shrinks to a few kilobytes.
    EXPECT_LT(compress(Bytes(1u << 20, 0)).size(), 5000u);
}

TEST(PngDeflateTest, RandomDataIsStored)
{
    for (std::size_t n : {1u, 100u, 4095u, 65535u, 65536u, 200000u, 3u << 20}) {
        const Bytes data = random_bytes(n, unsigned(n));
        const Bytes stream = compress(data);
        EXPECT_EQ(inflate(stream, n), data) << n;
        // Stored blocks: 5 bytes per 64 KiB, a few per block, 6 for the zlib wrapper.
        EXPECT_LE(stream.size(), n + n / 1000 + 16) << n;
    }
}

TEST(PngDeflateTest, MixedContentAcrossManyBlocks)
{
    // Runs, noise, repeats at the candidate distances and at other distances, in stretches long and
    // short, so that blocks switch between stored and Huffman-coded and matches cross block ends.
    std::mt19937 rng(42);
    Bytes data;
    const Bytes words = random_bytes(64, 9);
    while (data.size() < (3u << 20)) {
        const std::size_t len = rng() % 5000;
        switch (rng() % 5) {
        case 0: data.insert(data.end(), len, std::uint8_t(rng())); break;
        case 1:
            for (std::size_t i = 0; i < len; ++i)
                data.push_back(std::uint8_t(rng()));
            break;
        case 2:
            for (std::size_t i = 0; i < len; ++i)
                data.push_back(data.size() >= 3 ? data[data.size() - 3] : 1);
            break;
        case 3:
            for (std::size_t i = 0; i < len; ++i)
                data.push_back(data.size() >= 1001 ? data[data.size() - 1001] : 2);
            break;
        default:
            for (std::size_t i = 0; i < len / 8; ++i) {
                const std::size_t w = rng() % 8 * 8;
                data.insert(data.end(), words.begin() + std::ptrdiff_t(w), words.begin() + std::ptrdiff_t(w + 8));
            }
        }
    }
    expect_round_trip(data, ScanlineShape{3, 1001});
    expect_round_trip(data, ScanlineShape{4, 32768});  // the farthest distance deflate allows
    expect_round_trip(data, ScanlineShape{4, 32769});  // beyond it: not used
    expect_round_trip(data, ScanlineShape{0, 0});      // no shape at all
    expect_round_trip(data, ScanlineShape{40000, 1});
}

TEST(PngDeflateTest, SkewedLiteralsNeedLengthLimitedCodes)
{
    // Fibonacci-like counts give an unlimited Huffman code a depth far beyond 15 bits.
    Bytes data;
    std::uint64_t a = 1, b = 1;
    for (std::uint8_t symbol = 0; symbol < 26; ++symbol) {
        for (std::uint64_t i = 0; i < a; ++i)
            data.push_back(symbol);
        const std::uint64_t next = a + b;
        a = b;
        b = next;
    }
    // Interleave them so that no runs form.
    std::mt19937 rng(3);
    std::shuffle(data.begin(), data.end(), rng);
    expect_round_trip(data);
}

TEST(PngDeflateTest, OutputTooSmallGivesZero)
{
    const Bytes data(1000, 1);
    Bytes out(nd_core::zlib_bound(data.size()) - 1);
    EXPECT_EQ(nd_core::zlib_compress(data, {}, out), 0u);
}

TEST(PngDeflateTest, Adler32MatchesZlib)
{
    // All 0xFF is the worst case for the sums; lengths around the reduction interval and the
    // 16-byte steps.
    for (std::size_t n : {0u, 1u, 15u, 16u, 17u, 100u, 5551u, 5552u, 5553u, 11104u, 65536u, 1000003u}) {
        for (const Bytes& data : {Bytes(n, 0xFF), random_bytes(n, unsigned(n))}) {
            const uLong want = adler32(adler32(0, nullptr, 0), data.data(), uInt(data.size()));
            EXPECT_EQ(nd_core::adler32_of(data), want) << n;
        }
    }
    const Bytes data = random_bytes(10000, 5);
    const std::uint32_t first = nd_core::adler32_of(std::span(data.data(), 3333));
    EXPECT_EQ(nd_core::adler32_of(std::span(data.data() + 3333, data.size() - 3333), first), nd_core::adler32_of(data));
}

// Kraft's sum of a code in units of 2^-max: a complete code sums to exactly 2^max.
std::uint32_t kraft(const std::vector<std::uint8_t>& lens, unsigned max)
{
    std::uint32_t sum = 0;
    for (auto l : lens)
        if (l)
            sum += 1u << (max - l);
    return sum;
}

TEST(DeflateHuffmanTest, CodesAreCompleteAndLimited)
{
    std::vector<std::vector<std::uint32_t>> cases = {
        {}, {0, 0, 0}, {5}, {0, 0, 9, 0}, {1, 1}, {3, 1, 2}, std::vector<std::uint32_t>(286, 1)};
    std::vector<std::uint32_t> fib(40);
    fib[0] = fib[1] = 1;
    for (std::size_t i = 2; i < fib.size(); ++i)
        fib[i] = fib[i - 1] + fib[i - 2];
    cases.push_back(fib);
    std::mt19937 rng(1);
    for (int i = 0; i < 50; ++i) {
        std::vector<std::uint32_t> f(1 + rng() % 286);
        for (auto& x : f)
            x = rng() % 3 == 0 ? 0 : (rng() % 2 ? rng() % 10 : rng() % 100000);
        cases.push_back(f);
    }
    for (unsigned max : {7u, 15u}) {
        for (const auto& freq : cases) {
            if (max == 7 && freq.size() > 100)
                continue;
            std::vector<std::uint8_t> lens(std::max<std::size_t>(freq.size(), 2));
            std::vector<std::uint32_t> f = freq;
            f.resize(lens.size());
            nd_core::build_code_lengths(f, max, lens);
            EXPECT_EQ(kraft(lens, max), 1u << max) << freq.size() << " symbols";
            std::size_t used = 0;
            for (std::size_t s = 0; s < lens.size(); ++s) {
                EXPECT_LE(lens[s], max);
                if (f[s]) {
                    EXPECT_GT(lens[s], 0) << "used symbol " << s << " has no code";
                }
                used += lens[s] != 0;
            }
            EXPECT_GE(used, 2u);
        }
    }
}

TEST(DeflateHuffmanTest, CanonicalCodesFollowTheRfcExample)
{
    // RFC 1951 §3.2.2: lengths (3, 3, 3, 3, 3, 2, 4, 4) give 010 011 100 101 110 00 1110 1111,
    // which are written bit-reversed.
    const std::vector<std::uint8_t> lens = {3, 3, 3, 3, 3, 2, 4, 4};
    std::vector<std::uint16_t> codes(lens.size());
    nd_core::build_codes(lens, codes);
    EXPECT_EQ(codes, (std::vector<std::uint16_t>{0b010, 0b110, 0b001, 0b101, 0b011, 0b00, 0b0111, 0b1111}));
}

} // namespace

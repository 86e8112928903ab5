#include "core/encode/resample.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace nd_core {

namespace {

// Fixed-point weights: a tap's share of its target pixel in 1/2^Bits, the shares of one target
// pixel summing to exactly 2^Bits. With 8 bits a product of a byte and a weight, and the sum of a
// pixel's products, fit 16 bits, which the compiler vectorises twice as wide and without the 32-bit
// multiply SSE2 lacks; 16 bits keep the weights exact enough when a pixel mixes many taps.
template <typename Acc, unsigned Bits>
struct Fixed {
    using acc = Acc;
    static constexpr unsigned bits = Bits;
    static constexpr Acc half = static_cast<Acc>(1u << (Bits - 1));
};
using Narrow = Fixed<std::uint16_t, 8>;
using Wide = Fixed<std::uint32_t, 16>;

// Up to this many taps per axis (a scale down by less than 7) the 8-bit weights are used.
constexpr std::size_t NARROW_MAX_TAPS = 8;

// The source pixels one target pixel covers along one axis, with their weights in 1/2^bits.
struct Taps {
    std::int32_t first = 0;
    std::vector<std::uint32_t> weights;
};

std::vector<Taps> taps_for(std::int32_t source, std::int32_t target, unsigned bits)
{
    const std::uint32_t unit = 1u << bits;
    std::vector<Taps> out(static_cast<std::size_t>(target));
    const double step = static_cast<double>(source) / target;
    for (std::int32_t t = 0; t < target; ++t) {
        const double from = t * step, to = (t + 1) * step;
        auto& taps = out[static_cast<std::size_t>(t)];
        taps.first = static_cast<std::int32_t>(std::floor(from));
        const auto last = std::min(source - 1, static_cast<std::int32_t>(std::ceil(to)) - 1);
        std::uint32_t total = 0;
        for (std::int32_t s = taps.first; s <= last; ++s) {
            const double cover = std::min<double>(s + 1, to) - std::max<double>(s, from);
            const auto w = static_cast<std::uint32_t>(std::lround(cover / step * unit));
            taps.weights.push_back(w);
            total += w;
        }
        // Rounding may leave the sum a little off the unit: the largest tap takes the difference.
        auto largest = std::max_element(taps.weights.begin(), taps.weights.end());
        *largest = *largest + unit - total;
    }
    return out;
}

std::size_t most_taps(const std::vector<Taps>& taps)
{
    std::size_t out = 0;
    for (const auto& t : taps)
        out = std::max(out, t.weights.size());
    return out;
}

// The taps of every target column padded to one count, in flat arrays read in order for every row:
// a fixed count lets the inner loop unroll. A column near the right edge starts further left, with
// zero weights first, so that no tap reads past the row.
template <typename F>
struct PaddedTaps {
    std::size_t count = 0;
    std::vector<std::int32_t> first;
    std::vector<typename F::acc> weights; // count per column
};

template <typename F>
PaddedTaps<F> padded_taps(const std::vector<Taps>& taps, std::int32_t source)
{
    PaddedTaps<F> out;
    out.count = most_taps(taps);
    out.first.resize(taps.size());
    out.weights.assign(taps.size() * out.count, 0);
    for (std::size_t x = 0; x < taps.size(); ++x) {
        const auto& t = taps[x];
        const auto shift = std::max<std::int32_t>(0, t.first + static_cast<std::int32_t>(out.count) - source);
        out.first[x] = t.first - shift;
        std::copy(t.weights.begin(), t.weights.end(), out.weights.begin() + static_cast<std::ptrdiff_t>(x * out.count + shift));
    }
    return out;
}

template <typename F>
std::uint8_t to_byte(typename F::acc v)
{
    return static_cast<std::uint8_t>(std::min<std::uint32_t>(255, static_cast<std::uint32_t>(v >> F::bits)));
}

// One target row of the down pass from N source rows: one pass over the bytes, the compiler
// vectorises it.
template <typename F, std::size_t N>
void mix_rows(const std::uint8_t* const* rows, const std::uint32_t* weights, std::uint8_t* __restrict out, std::size_t stride)
{
    using Acc = typename F::acc;
    std::array<const std::uint8_t*, N> r;
    std::array<Acc, N> w;
    for (std::size_t i = 0; i < N; ++i) {
        r[i] = rows[i];
        w[i] = static_cast<Acc>(weights[i]);
    }
    for (std::size_t k = 0; k < stride; ++k) {
        Acc a = F::half;
        for (std::size_t i = 0; i < N; ++i)
            a = static_cast<Acc>(a + static_cast<Acc>(r[i][k] * w[i]));
        out[k] = to_byte<F>(a);
    }
}

// Down: each target row mixes whole source rows. The result has the source's width and the
// target's height.
template <typename F>
std::vector<std::uint8_t> mix_down(const Image& src, const std::vector<Taps>& rows)
{
    using Acc = typename F::acc;
    const auto stride = static_cast<std::size_t>(src.width) * 4;
    std::vector<std::uint8_t> down(stride * rows.size());
    std::vector<Acc> acc;
    std::vector<const std::uint8_t*> source;
    for (std::size_t y = 0; y < rows.size(); ++y) {
        const auto& t = rows[y];
        source.clear();
        for (std::size_t i = 0; i < t.weights.size(); ++i)
            source.push_back(src.rgba.data() + static_cast<std::size_t>(t.first + static_cast<std::int32_t>(i)) * stride);
        std::uint8_t* out = down.data() + y * stride;
        switch (t.weights.size()) {
        case 1: mix_rows<F, 1>(source.data(), t.weights.data(), out, stride); continue;
        case 2: mix_rows<F, 2>(source.data(), t.weights.data(), out, stride); continue;
        case 3: mix_rows<F, 3>(source.data(), t.weights.data(), out, stride); continue;
        case 4: mix_rows<F, 4>(source.data(), t.weights.data(), out, stride); continue;
        default: break;
        }
        // More rows (a large scale): accumulated one source row at a time.
        acc.assign(stride, F::half);
        for (std::size_t i = 0; i < t.weights.size(); ++i) {
            const std::uint8_t* __restrict row = source[i];
            const auto w = static_cast<Acc>(t.weights[i]);
            Acc* __restrict a = acc.data();
            for (std::size_t k = 0; k < stride; ++k)
                a[k] = static_cast<Acc>(a[k] + static_cast<Acc>(row[k] * w));
        }
        for (std::size_t k = 0; k < stride; ++k)
            out[k] = to_byte<F>(acc[k]);
    }
    return down;
}

// Across: every row of `down` mixed into `dst`. K is the tap count when it is small, 0 for any
// other (columns.count).
template <typename F, std::size_t K>
void mix_across(const std::vector<std::uint8_t>& down, std::size_t stride, const PaddedTaps<F>& columns, Image& dst)
{
    using Acc = typename F::acc;
    const std::size_t count = K == 0 ? columns.count : K;
    const auto width = static_cast<std::size_t>(dst.width);
    for (std::int32_t y = 0; y < dst.height; ++y) {
        const auto* row = down.data() + static_cast<std::size_t>(y) * stride;
        auto* out = dst.rgba.data() + static_cast<std::size_t>(y) * width * 4;
        const auto* w = columns.weights.data();
        if constexpr (std::is_same_v<F, Narrow>) {
            // A pixel's four channels as one vector of 16-bit lanes (GCC's and Clang's vector
            // extension): one multiply-add per tap instead of four.
            using Bytes = std::uint8_t __attribute__((vector_size(4)));
            using Pixel = std::uint16_t __attribute__((vector_size(8)));
            for (std::size_t x = 0; x < width; ++x, w += count, out += 4) {
                Pixel acc = {F::half, F::half, F::half, F::half};
                const auto* p = row + static_cast<std::size_t>(columns.first[x]) * 4;
                for (std::size_t i = 0; i < count; ++i, p += 4) {
                    Bytes bytes;
                    std::memcpy(&bytes, p, sizeof bytes);
                    acc += __builtin_convertvector(bytes, Pixel) * w[i];
                }
                acc >>= F::bits;
                out[0] = static_cast<std::uint8_t>(acc[0]);
                out[1] = static_cast<std::uint8_t>(acc[1]);
                out[2] = static_cast<std::uint8_t>(acc[2]);
                out[3] = static_cast<std::uint8_t>(acc[3]);
            }
        } else {
            for (std::size_t x = 0; x < width; ++x, w += count, out += 4) {
                Acc r = F::half, g = F::half, b = F::half, al = F::half;
                const auto* p = row + static_cast<std::size_t>(columns.first[x]) * 4;
                for (std::size_t i = 0; i < count; ++i, p += 4) {
                    r = static_cast<Acc>(r + p[0] * w[i]);
                    g = static_cast<Acc>(g + p[1] * w[i]);
                    b = static_cast<Acc>(b + p[2] * w[i]);
                    al = static_cast<Acc>(al + p[3] * w[i]);
                }
                out[0] = to_byte<F>(r);
                out[1] = to_byte<F>(g);
                out[2] = to_byte<F>(b);
                out[3] = to_byte<F>(al);
            }
        }
    }
}

template <typename F>
Image resize_with(const Image& src, std::int32_t width, std::int32_t height, const std::vector<Taps>& xs,
    const std::vector<Taps>& ys)
{
    // Down first, then across on the fewer rows left.
    const auto down = mix_down<F>(src, ys);
    Image dst;
    dst.width = width;
    dst.height = height;
    dst.rgba.resize(static_cast<std::size_t>(width) * height * 4);
    const auto stride = static_cast<std::size_t>(src.width) * 4;
    const auto columns = padded_taps<F>(xs, src.width);
    switch (columns.count) {
    case 1: mix_across<F, 1>(down, stride, columns, dst); break;
    case 2: mix_across<F, 2>(down, stride, columns, dst); break;
    case 3: mix_across<F, 3>(down, stride, columns, dst); break;
    case 4: mix_across<F, 4>(down, stride, columns, dst); break;
    default: mix_across<F, 0>(down, stride, columns, dst); break;
    }
    return dst;
}

} // namespace

void fit_long_edge(std::int32_t width, std::int32_t height, std::int32_t max_edge, std::int32_t& out_width,
    std::int32_t& out_height)
{
    out_width = width;
    out_height = height;
    const auto long_edge = std::max(width, height);
    if (max_edge <= 0 || long_edge <= max_edge || long_edge <= 0)
        return;
    if (width >= height) {
        out_width = max_edge;
        out_height = std::max<std::int32_t>(1, static_cast<std::int32_t>(std::lround(static_cast<double>(height) * max_edge / width)));
    } else {
        out_height = max_edge;
        out_width = std::max<std::int32_t>(1, static_cast<std::int32_t>(std::lround(static_cast<double>(width) * max_edge / height)));
    }
}

Image resize_area(const Image& src, std::int32_t width, std::int32_t height)
{
    width = std::clamp(width, 1, std::max(1, src.width));
    height = std::clamp(height, 1, std::max(1, src.height));
    if ((width == src.width && height == src.height) || src.width <= 0 || src.height <= 0)
        return src;
    auto xs = taps_for(src.width, width, Narrow::bits);
    auto ys = taps_for(src.height, height, Narrow::bits);
    if (most_taps(xs) <= NARROW_MAX_TAPS && most_taps(ys) <= NARROW_MAX_TAPS)
        return resize_with<Narrow>(src, width, height, xs, ys);
    xs = taps_for(src.width, width, Wide::bits);
    ys = taps_for(src.height, height, Wide::bits);
    return resize_with<Wide>(src, width, height, xs, ys);
}

} // namespace nd_core

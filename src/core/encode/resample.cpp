#include "core/encode/resample.h"

#include <algorithm>
#include <cmath>

namespace nd_core {

namespace {

// The source pixels one target pixel covers along one axis, with their weights in 1/65536 that
// sum to 65536.
struct Taps {
    std::int32_t first = 0;
    std::vector<std::uint32_t> weights;
};

std::vector<Taps> taps_for(std::int32_t source, std::int32_t target)
{
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
            const auto w = static_cast<std::uint32_t>(std::lround(cover / step * 65536.0));
            taps.weights.push_back(w);
            total += w;
        }
        // Rounding may leave the sum a little off 65536: the largest tap takes the difference.
        auto largest = std::max_element(taps.weights.begin(), taps.weights.end());
        *largest = *largest + 65536u - total;
    }
    return out;
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
    const auto xs = taps_for(src.width, width);
    const auto ys = taps_for(src.height, height);
    // Down first: each target row mixes whole source rows, a loop over contiguous bytes the
    // compiler vectorises; then across, on the fewer rows left.
    const auto src_stride = static_cast<std::size_t>(src.width) * 4;
    std::vector<std::uint8_t> down(src_stride * static_cast<std::size_t>(height));
    std::vector<std::uint32_t> acc(src_stride);
    for (std::int32_t y = 0; y < height; ++y) {
        const auto& t = ys[static_cast<std::size_t>(y)];
        std::fill(acc.begin(), acc.end(), 32768u);
        for (std::size_t i = 0; i < t.weights.size(); ++i) {
            const auto* row = src.rgba.data() + static_cast<std::size_t>(t.first + static_cast<std::int32_t>(i)) * src_stride;
            const auto w = t.weights[i];
            auto* a = acc.data();
            for (std::size_t k = 0; k < src_stride; ++k)
                a[k] += row[k] * w;
        }
        auto* out = down.data() + static_cast<std::size_t>(y) * src_stride;
        for (std::size_t k = 0; k < src_stride; ++k)
            out[k] = static_cast<std::uint8_t>(std::min<std::uint32_t>(255, acc[k] >> 16));
    }
    Image dst;
    dst.width = width;
    dst.height = height;
    dst.rgba.resize(static_cast<std::size_t>(width) * height * 4);
    // The taps of every target column in flat arrays, read in order for every row.
    std::vector<std::int32_t> first(static_cast<std::size_t>(width));
    std::vector<std::uint32_t> begin(static_cast<std::size_t>(width) + 1);
    std::vector<std::uint32_t> weights;
    for (std::int32_t x = 0; x < width; ++x) {
        const auto& t = xs[static_cast<std::size_t>(x)];
        first[static_cast<std::size_t>(x)] = t.first;
        begin[static_cast<std::size_t>(x)] = static_cast<std::uint32_t>(weights.size());
        weights.insert(weights.end(), t.weights.begin(), t.weights.end());
    }
    begin[static_cast<std::size_t>(width)] = static_cast<std::uint32_t>(weights.size());
    for (std::int32_t y = 0; y < height; ++y) {
        const auto* row = down.data() + static_cast<std::size_t>(y) * src_stride;
        auto* out = dst.rgba.data() + static_cast<std::size_t>(y) * width * 4;
        for (std::int32_t x = 0; x < width; ++x) {
            std::uint32_t r = 32768, g = 32768, b = 32768, al = 32768;
            const auto* p = row + static_cast<std::size_t>(first[static_cast<std::size_t>(x)]) * 4;
            for (auto i = begin[static_cast<std::size_t>(x)]; i < begin[static_cast<std::size_t>(x) + 1]; ++i, p += 4) {
                const auto w = weights[i];
                r += p[0] * w;
                g += p[1] * w;
                b += p[2] * w;
                al += p[3] * w;
            }
            out[x * 4] = static_cast<std::uint8_t>(std::min<std::uint32_t>(255, r >> 16));
            out[x * 4 + 1] = static_cast<std::uint8_t>(std::min<std::uint32_t>(255, g >> 16));
            out[x * 4 + 2] = static_cast<std::uint8_t>(std::min<std::uint32_t>(255, b >> 16));
            out[x * 4 + 3] = static_cast<std::uint8_t>(std::min<std::uint32_t>(255, al >> 16));
        }
    }
    return dst;
}

} // namespace nd_core

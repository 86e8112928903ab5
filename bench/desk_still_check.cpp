// One desk_still check (src/desk/still_detector.h): the detector fed one 320-pixel capture, which
// is what each poll of desk_still costs besides the capture itself (target: under 5 ms), and the
// scaling of a 1280x1024 screen to that size that precedes it.

#include "desk/still_detector.h"

#include <benchmark/benchmark.h>

#include <random>

namespace {

nd_core::Image screen_like(std::int32_t w, std::int32_t h, std::uint32_t seed)
{
    nd_core::Image img;
    img.width = w;
    img.height = h;
    img.rgba.resize(static_cast<std::size_t>(w) * h * 4);
    std::mt19937 rng(seed);
    // Flat panels with text-like noise, as a desktop shows.
    for (std::int32_t y = 0; y < h; ++y)
        for (std::int32_t x = 0; x < w; ++x) {
            auto* p = &img.rgba[(static_cast<std::size_t>(y) * w + x) * 4];
            const std::uint8_t base = static_cast<std::uint8_t>(200 + ((x / 64 + y / 48) % 3) * 20);
            const bool ink = (rng() % 11) == 0;
            p[0] = p[1] = p[2] = ink ? 30 : base;
            p[3] = 255;
        }
    return img;
}

// A quiet screen: every block compared, none changed (the common poll).
void BM_StillCheckQuiet(benchmark::State& state)
{
    const auto frame = screen_like(320, 256, 1);
    nd_desk::StillDetector detector;
    (void)detector.feed(frame);
    for (auto _ : state)
        benchmark::DoNotOptimize(detector.feed(frame));
}
BENCHMARK(BM_StillCheckQuiet)->Unit(benchmark::kMicrosecond);

// A caret blinking in one block and a spinner in a few: the blocks that change are compared with
// their remembered contents too.
void BM_StillCheckCaretAndSpinner(benchmark::State& state)
{
    auto a = screen_like(320, 256, 1);
    auto b = a;
    for (std::int32_t y = 40; y < 72; ++y)
        for (std::int32_t x = 100; x < 132; ++x)
            b.rgba[(static_cast<std::size_t>(y) * 320 + x) * 4] = static_cast<std::uint8_t>(255 - b.rgba[(static_cast<std::size_t>(y) * 320 + x) * 4]);
    nd_desk::StillDetector detector;
    (void)detector.feed(a);
    bool flip = false;
    for (auto _ : state) {
        benchmark::DoNotOptimize(detector.feed(flip ? a : b));
        flip = !flip;
    }
}
BENCHMARK(BM_StillCheckCaretAndSpinner)->Unit(benchmark::kMicrosecond);

// The whole check after a capture: a 1280x1024 screen scaled to 320 px, then fed.
void BM_StillCheckWithScaling(benchmark::State& state)
{
    const auto screen = screen_like(1280, 1024, 2);
    nd_desk::StillDetector detector;
    (void)detector.feed(nd_desk::scale_to_long_edge(screen));
    for (auto _ : state)
        benchmark::DoNotOptimize(detector.feed(nd_desk::scale_to_long_edge(screen)));
}
BENCHMARK(BM_StillCheckWithScaling)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();

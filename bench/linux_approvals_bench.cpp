// What the approval rule and the own-surface guard cost (docs/benchmarks.md, "Approvals"), on a
// virtual test desktop (scripts/bench-approvals), each beside one X round trip (GetInputFocus), the
// unit every X question is paid in:
//
// - PersonRule::judge of a click from a physical device (Xvfb's mouse) with nothing synthetic in
//   the window: a device list, one batch of property reads and the RECORD watch's settle;
// - X11OwnSurfaces::at over a marked override-redirect window (ours), over a managed window in the
//   window manager's frame (not ours) and over the bare root; focused() (asked before each key).
//
// Needs DISPLAY with XInput 2 and RECORD (Xvfb has both).

#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_own_marker.h"
#include "backend/linux/x11/x11_own_surfaces.h"
#include "backend/linux/x11/x11_person_rule.h"

#include <benchmark/benchmark.h>

#include <thread>

namespace {

using namespace std::chrono_literals;

std::unique_ptr<nd_linux::X11Display> open_display()
{
    auto d = nd_linux::X11Display::open();
    return d ? std::move(d).value() : nullptr;
}

// A mapped window of this benchmark's: override-redirect and marked, or managed and unmarked.
xcb_window_t make_window(nd_linux::X11Display& x, bool ours, std::int16_t at)
{
    auto* c = x.connection();
    const xcb_window_t w = xcb_generate_id(c);
    const std::uint32_t values[] = {x.screen().white_pixel, ours ? 1u : 0u};
    xcb_create_window(c, XCB_COPY_FROM_PARENT, w, x.root(), at, at, 200, 150, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                      x.screen().root_visual, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT, values);
    if (ours)
        nd_linux::mark_own_surface(c, w, x.atom(nd_linux::OWN_SURFACE_PROPERTY), nd_linux::SURFACE_CONTINUE);
    xcb_map_window(c, w);
    xcb_flush(c);
    return w;
}

void BM_RoundTrip(benchmark::State& state)
{
    auto x = open_display();
    if (!x)
        return state.SkipWithError("no display");
    for (auto _ : state) {
        auto r = x->wait<xcb_get_input_focus_reply_t>(xcb_get_input_focus(x->connection()), nd_linux::deadline_after(1s));
        benchmark::DoNotOptimize(r);
    }
}
BENCHMARK(BM_RoundTrip)->Unit(benchmark::kMicrosecond);

void BM_PersonRuleJudge(benchmark::State& state)
{
    auto x = open_display();
    if (!x || !x->extensions().record)
        return state.SkipWithError("no display with RECORD");
    nd_linux::PressClock clock;
    nd_linux::PersonRule rule("", clock);
    rule.start();
    std::this_thread::sleep_until(rule.watching_since() + nd_linux::PersonRule::QUIET + 50ms);
    std::uint16_t mouse = 0;
    auto devices = nd_linux::list_input_devices(*x, nd_linux::deadline_after(1s));
    if (devices)
        for (const auto& d : *devices)
            if (!d.master && !d.xtest && d.name.find("mouse") != std::string::npos)
                mouse = d.id;
    if (!mouse)
        return state.SkipWithError("no physical pointer device");
    nd_linux::XiButton press{true, 1, 2, mouse, 0, 10, 10, false};
    nd_linux::XiButton release = press;
    release.press = false;
    for (auto _ : state) {
        auto verdict = rule.judge(press, nd_linux::Clock::now(), release);
        if (!verdict.person)
            return state.SkipWithError(("not taken: " + verdict.why).c_str());
    }
}
BENCHMARK(BM_PersonRuleJudge)->Unit(benchmark::kMicrosecond);

void own_surfaces_at(benchmark::State& state, int where)
{
    auto x = open_display();
    if (!x)
        return state.SkipWithError("no display");
    const auto ours = make_window(*x, true, 40), theirs = make_window(*x, false, 400);
    std::this_thread::sleep_for(300ms); // mapped, and the managed one framed
    nd_linux::X11OwnSurfaces surfaces(*x);
    const nd_core::Point points[] = {{60, 60}, {450, 450}, {5, 700}};
    const auto p = points[where];
    for (auto _ : state) {
        auto found = surfaces.at(p);
        if (!found || (where == 0) != found->has_value())
            return state.SkipWithError("unexpected answer");
    }
    xcb_destroy_window(x->connection(), ours);
    xcb_destroy_window(x->connection(), theirs);
    xcb_flush(x->connection());
}
void BM_OwnSurfacesAt_Ours(benchmark::State& s) { own_surfaces_at(s, 0); }
void BM_OwnSurfacesAt_ManagedWindow(benchmark::State& s) { own_surfaces_at(s, 1); }
void BM_OwnSurfacesAt_Root(benchmark::State& s) { own_surfaces_at(s, 2); }
BENCHMARK(BM_OwnSurfacesAt_Ours)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_OwnSurfacesAt_ManagedWindow)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_OwnSurfacesAt_Root)->Unit(benchmark::kMicrosecond);

void BM_OwnSurfacesFocused(benchmark::State& state)
{
    auto x = open_display();
    if (!x)
        return state.SkipWithError("no display");
    nd_linux::X11OwnSurfaces surfaces(*x);
    for (auto _ : state) {
        auto found = surfaces.focused();
        benchmark::DoNotOptimize(found);
    }
}
BENCHMARK(BM_OwnSurfacesFocused)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();

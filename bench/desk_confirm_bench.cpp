// How soon confirm mode's dialog is on screen (docs/benchmarks.md, "Confirm dialog"): the desk's
// own gate (desk_confirm.h) on the Linux backend of the desktop it is run on (scripts/bench-confirm:
// a virtual one with a zenity entry dialog active), with [input] confirm = "acts". Each round times
// one call from its start to the dialog's window being mapped (its MapNotify: the window manager has
// placed and shown it), then ends the ask as a stop would and waits until the window is gone:
//
//   click   desk_click at a point: the call names its point and the active window;
//   type    desk_type of 100 characters: also one read of the active window, to tell whether its
//           focused field is a password field before any first characters are shown.
//
// Prints p50 and p99 of each against the 100 ms target.   desk_confirm_bench [--rounds N]
// Exits 1 when a dialog was not shown.

#include "backend/backend_select.h"
#include "backend/linux/x11/x11_confirm_dialog.h"
#include "bench/bench_daemon.h"
#include "desk/desk.h"
#include "desk/desk_confirm.h"
#include "desk/verbs/verbs.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

// One call's time to the dialog on screen, in ms; negative when it was not shown.
double time_to_shown(nd_desk::Desk& desk, nd_linux::X11ConfirmDialog& dialog, const std::string& verb, const json& args)
{
    const auto* def = nd_desk::find_verb(verb);
    std::atomic<bool> gone{false};
    std::atomic<std::int64_t> shown_us{-1};
    const auto start = Clock::now();
    dialog.set_on_shown([&] {
        shown_us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
        gone = true; // the stop ends the ask at its next check
    });
    nd_desk::CallScope scope{"bench", nd_desk::SafetyStopToken(desk.safety_stop(), &gone)};
    (void)nd_desk::confirm_call(desk, *def, scope, args);
    return static_cast<double>(shown_us.load()) / 1000.0;
}

} // namespace

int main(int argc, char** argv)
{
    int rounds = 30;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--rounds") == 0)
            rounds = std::max(1, std::atoi(argv[i + 1]));
    auto backend = nd_backend::open_backend({.name = "linux"});
    if (!backend) {
        std::fprintf(stderr, "desk_confirm_bench: %s\n", backend.error().text().c_str());
        return 1;
    }
    auto* dialog = dynamic_cast<nd_linux::X11ConfirmDialog*>((*backend)->confirm_dialog());
    if (!dialog) {
        std::fprintf(stderr, "desk_confirm_bench: the backend has no X11 confirm dialog\n");
        return 1;
    }
    nd_desk::DeskConfig config;
    config.confirm = nd_desk::DeskConfig::ConfirmMode::acts;
    config.confirm_timeout_s = 5;
    nd_desk::Desk desk(**backend, config);

    const std::string text(100, 'a');
    std::vector<double> click, type;
    bool failed = false;
    for (int r = 0; r < rounds; ++r) {
        const double c = time_to_shown(desk, *dialog, "desk_click", json{{"x", 40}, {"y", 40}});
        const double t = time_to_shown(desk, *dialog, "desk_type", json{{"text", text}});
        failed = failed || c < 0 || t < 0;
        if (c >= 0)
            click.push_back(c);
        if (t >= 0)
            type.push_back(t);
    }
    std::printf("confirm dialog on screen, %d rounds (target: within 100 ms of the call)\n", rounds);
    std::printf("  %-6s p50 %7.1f ms   p99 %7.1f ms\n", "click", nd_bench::percentile(click, 0.5), nd_bench::percentile(click, 0.99));
    std::printf("  %-6s p50 %7.1f ms   p99 %7.1f ms\n", "type", nd_bench::percentile(type, 0.5), nd_bench::percentile(type, 0.99));
    if (failed)
        std::fprintf(stderr, "desk_confirm_bench: a dialog was not shown\n");
    return failed ? 1 : 0;
}

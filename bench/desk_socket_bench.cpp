// The desk daemon over its socket (docs/benchmarks.md, "Desk"): a `shuttle daemon` process of its
// own, then (1) desk_screen round trips on one connection, p50 and p99 (target p50 < 0.3 ms), and
// (2) 8 clients x 1,000 calls each at once, twice, with every error counted and the daemon's
// resident memory read from /proc after each round (target: no error, no growth in the second).
//
//   desk_socket_bench [--shuttle PATH] [--backend auto|linux|mock] [--calls N]
// Run it on a desktop (scripts/bench-desk starts a virtual one) so the Linux backend answers.

#include "bench/bench_daemon.h"
#include "desk/verbs/verbs.h"
#include "desk/wire/client.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace w = nd_desk::wire;
using Clock = std::chrono::steady_clock;

namespace {

long rss_kb(pid_t pid)
{
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0)
            return std::strtol(line.c_str() + 6, nullptr, 10);
    return -1;
}

using nd_bench::percentile;

struct Round {
    long errors = 0;
    long calls = 0;
    double seconds = 0;
};

// `clients` threads, each on its own connection, `calls` calls each, alternating the tools.
Round run_round(const std::string& socket, int clients, int calls, const std::vector<std::string>& tools)
{
    std::atomic<long> errors{0}, done{0};
    std::vector<std::thread> threads;
    const auto start = Clock::now();
    for (int c = 0; c < clients; ++c)
        threads.emplace_back([&, c] {
            auto client = w::Client::connect(socket);
            if (!client) {
                errors += calls;
                return;
            }
            for (int i = 0; i < calls; ++i) {
                const auto& tool = tools[static_cast<std::size_t>(i + c) % tools.size()];
                auto r = client->call(w::Request{"bench-" + std::to_string(c), tool, nullptr}, Clock::now() + std::chrono::seconds(10));
                if (r.status != w::Client::CallStatus::answered || r.response.is_error)
                    ++errors;
                ++done;
            }
        });
    for (auto& t : threads)
        t.join();
    return {errors.load(), done.load(), std::chrono::duration<double>(Clock::now() - start).count()};
}

} // namespace

int main(int argc, char** argv)
{
    std::string shuttle = NISH_BIN_DIR "/shuttle", backend = "auto";
    int calls = 1000;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--shuttle")
            shuttle = argv[i + 1];
        else if (a == "--backend")
            backend = argv[i + 1];
        else if (a == "--calls")
            calls = std::atoi(argv[i + 1]);
    }
    nd_bench::BenchDaemon daemon(shuttle, backend, "");
    const std::string socket = daemon.socket();
    const pid_t pid = daemon.pid();
    auto client = daemon.started() ? nd_bench::connect_retrying(socket) : std::nullopt;
    if (!client) {
        std::fprintf(stderr, "the daemon did not come up (%s)\n", shuttle.c_str());
        return 1;
    }

    // (1) desk_screen round trips on one connection.
    std::vector<double> us;
    long screen_errors = 0;
    for (int i = 0; i < 5200; ++i) {
        const auto t0 = Clock::now();
        auto r = client->call(w::Request{"", "desk_screen", nullptr}, Clock::now() + std::chrono::seconds(5));
        const double took = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
        if (r.status != w::Client::CallStatus::answered || r.response.is_error)
            ++screen_errors;
        if (i >= 200)
            us.push_back(took);
    }
    client.reset();

    // (2) 8 clients x `calls`, twice; the tools a desk answers without an app: screen, and windows
    // when this build has it.
    std::vector<std::string> tools{"desk_screen"};
    if (nd_desk::find_verb("desk_windows"))
        tools.push_back("desk_windows");
    const long rss_start = rss_kb(pid);
    const Round first = run_round(socket, 8, calls, tools);
    const long rss_first = rss_kb(pid);
    const Round second = run_round(socket, 8, calls, tools);
    const long rss_second = rss_kb(pid);
    daemon.stop();

    std::printf("%-52s %12s %12s\n", "figure", "measured", "target");
    std::printf("%-52s %9.3f ms %12s\n", "desk_screen round trip over the socket, p50", percentile(us, 0.5) / 1000, "< 0.3 ms");
    std::printf("%-52s %9.3f ms %12s\n", "desk_screen round trip over the socket, p99", percentile(us, 0.99) / 1000, "");
    std::printf("%-52s %12ld %12s\n", "desk_screen errors in 5,000 calls", screen_errors, "0");
    std::string mix;
    for (const auto& t : tools)
        mix += (mix.empty() ? "" : "+") + t;
    std::printf("%-52s %12s\n", ("8 clients x " + std::to_string(calls) + " calls of " + mix).c_str(), "");
    std::printf("%-52s %12ld %12s\n", "  errors, round 1", first.errors, "0");
    std::printf("%-52s %12ld %12s\n", "  errors, round 2", second.errors, "0");
    std::printf("%-52s %9.0f /s %12s\n", "  calls per second, round 2", static_cast<double>(second.calls) / second.seconds, "");
    std::printf("%-52s %9ld KB %12s\n", "  daemon RSS at start", rss_start, "");
    std::printf("%-52s %9ld KB %12s\n", "  daemon RSS after round 1", rss_first, "");
    std::printf("%-52s %9ld KB %12s\n", "  daemon RSS after round 2", rss_second, "no growth");
    const bool ok = screen_errors == 0 && first.errors == 0 && second.errors == 0;
    return ok ? 0 : 1;
}

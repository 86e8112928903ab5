// Background against foreground typing (docs/benchmarks.md, "Background input"): two
// `shuttle daemon --backend linux` processes of its own on the desktop it is run on
// (scripts/bench-background: a virtual one with a zenity entry dialog), one with config.toml's
// [input] mode = "background", one with the default foreground input, each typing the same
// 100-character text into the dialog's one text field:
//
//   background   desk_type {text, pid}: the text given to the field's own text interface (AT-SPI
//                EditableText) and read back, without raising the window;
//   foreground   desk_type {text, pid}: the window raised, the field's focus checked for a password
//                field, then one XTEST key press and release per character.
//
// Between calls the field is emptied (ctrl+a, BackSpace through the foreground daemon, untimed) and
// after each call the field's text is read back (desk_snapshot, untimed) and must be the text. Rounds
// alternate the two so drift hits both; p50 and p90 of each, and the ratio.
//
//   desk_background_bench [--shuttle PATH] --app-pid PID [--calls N]
// Exits 1 when a call failed or a text did not read back.

#include "bench/bench_daemon.h"

#include <cstdio>
#include <cstdlib>

namespace w = nd_desk::wire;
using Clock = std::chrono::steady_clock;
using nlohmann::json;
using nd_bench::percentile;

namespace {

struct Answer {
    bool ok = false;
    double ms = 0;
    json result;
    std::string error;
};

Answer call(w::Client& client, const std::string& tool, const json& args)
{
    const auto t = nd_bench::timed_call(client, tool, args);
    Answer a;
    a.ms = t.ms;
    a.error = t.failure();
    if (a.error.empty()) {
        a.result = json::parse(t.result.response.text, nullptr, false);
        a.ok = !a.result.is_discarded();
    }
    return a;
}

// The text of the app's one text field, read afresh; nullopt when it cannot be read.
std::optional<std::string> field_text(w::Client& client, long pid)
{
    auto snap = call(client, "desk_snapshot", {{"pid", pid}});
    if (!snap.ok || !snap.result.contains("nodes"))
        return std::nullopt;
    for (const auto& node : snap.result["nodes"])
        if (node.value("role", "") == "text")
            return node.value("value", std::string());
    return std::nullopt;
}

} // namespace

int main(int argc, char** argv)
{
    std::string shuttle = NISH_BIN_DIR "/shuttle";
    long app_pid = 0;
    int calls = 20;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--shuttle")
            shuttle = argv[i + 1];
        else if (a == "--app-pid")
            app_pid = std::atol(argv[i + 1]);
        else if (a == "--calls")
            calls = std::max(2, std::atoi(argv[i + 1]));
    }
    if (app_pid <= 0) {
        std::fprintf(stderr, "usage: desk_background_bench --app-pid PID [--shuttle PATH] [--calls N]\n");
        return 2;
    }
    nd_bench::BenchDaemon fore_daemon(shuttle, "linux", "");
    nd_bench::BenchDaemon back_daemon(shuttle, "linux", "[input]\nmode = \"background\"\n");
    auto fore = fore_daemon.started() ? nd_bench::connect_retrying(fore_daemon.socket()) : std::nullopt;
    auto back = back_daemon.started() ? nd_bench::connect_retrying(back_daemon.socket()) : std::nullopt;
    if (!fore || !back) {
        std::fprintf(stderr, "a daemon did not come up (%s)\n", shuttle.c_str());
        return 1;
    }
    // Until the app's text field reads.
    const auto until = Clock::now() + std::chrono::seconds(30);
    while (!field_text(*fore, app_pid)) {
        if (Clock::now() > until) {
            std::fprintf(stderr, "the text field of process %ld never read\n", app_pid);
            return 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    std::string text;
    for (int i = 0; text.size() < 100; ++i)
        text += "nish types " + std::to_string(i) + " ";
    text.resize(100);

    std::vector<double> back_ms, fore_ms;
    int failures = 0;
    for (int round = 0; round < calls; ++round) {
        for (const bool background : {round % 2 == 0, round % 2 != 0}) {
            auto& client = background ? *back : *fore;
            for (const char* keys : {"ctrl+a", "BackSpace"})
                if (!call(*fore, "desk_key", {{"keys", keys}, {"pid", app_pid}}).ok)
                    ++failures;
            auto typed = call(client, "desk_type", {{"text", text}, {"pid", app_pid}});
            if (!typed.ok) {
                std::fprintf(stderr, "%s type failed: %s\n", background ? "background" : "foreground", typed.error.c_str());
                ++failures;
                continue;
            }
            // The foreground's keys may still be on their way: read back until the text is whole.
            std::optional<std::string> now;
            const auto deadline = Clock::now() + std::chrono::seconds(3);
            while ((now = field_text(*fore, app_pid)) != text && Clock::now() < deadline)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            if (now != text) {
                std::fprintf(stderr, "%s type did not read back: \"%s\"\n", background ? "background" : "foreground",
                    now.value_or("<unreadable>").c_str());
                ++failures;
            }
            (background ? back_ms : fore_ms).push_back(typed.ms);
        }
    }
    if (back_ms.empty() || fore_ms.empty())
        return 1;
    const double b50 = percentile(back_ms, 0.5), f50 = percentile(fore_ms, 0.5);
    std::printf("desk_type of 100 characters into a zenity entry, %d calls each\n", calls);
    std::printf("%-56s %10s %10s\n", "figure", "p50", "p90");
    std::printf("%-56s %8.1f ms %8.1f ms\n", "background (text interface, read back)", b50, percentile(back_ms, 0.9));
    std::printf("%-56s %8.1f ms %8.1f ms\n", "foreground (raise, XTEST key per character)", f50, percentile(fore_ms, 0.9));
    std::printf("%-56s %9.1fx\n", "foreground p50 / background p50", f50 / b50);
    if (failures)
        std::printf("%d calls failed or did not read back\n", failures);
    return failures ? 1 : 0;
}

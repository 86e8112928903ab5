// The issue's three figures, measured on the mock backend, with the baseline the design names:
//   - a small tool's round trip over stdio through the real binary (target p50 < 0.3 ms);
//   - a default read (250 rows) of the dense Chatter window, serialized into the MCP response line
//     (target < 2 ms);
//   - the whole 5,000-element view serialized (target < 15 ms), against the same rows built and
//     dumped through nlohmann::json (the baseline: DESIGN.md measured ~65 ms for such a tree).
// Run: scripts/bench (Release build), or build/bench/driver_bench.

#include "backend/mock/mock_backend.h"
#include "core/audit.h"
#include "core/consent.h"
#include "core/engine.h"
#include "core/views.h"
#include "driver/dispatcher.h"
#include "driver/mcp/json_rpc.h"
#include "driver/mcp/mcp_methods.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

struct InProcess {
    nd_core::AuditLog audit{""};
    nd_core::AutoConsent consent;
    std::unique_ptr<nd_mock::MockBackend> backend;
    std::unique_ptr<nd_core::Engine> engine;
    std::unique_ptr<nd_driver::Dispatcher> dispatcher;

    InProcess()
    {
        backend = std::move(nd_mock::MockBackend::load(nd_mock::MockBackend::default_fixture_dir())).value();
        engine = std::make_unique<nd_core::Engine>(*backend, consent, audit);
        dispatcher = std::make_unique<nd_driver::Dispatcher>(*engine);
        nd_driver::CallContext ctx;
        dispatcher->call_tool("start_session", nlohmann::json::object(), ctx);
    }

    // tools/call as the server answers it: the tool's output wrapped into one JSON-RPC line.
    std::string call_line(const nlohmann::json& args)
    {
        nd_driver::CallContext ctx;
        auto out = dispatcher->call_tool("get_window_state", args, ctx);
        std::string line;
        line.reserve(out.structured.size() + out.text.size() + 256);
        nd_core::JsonWriter w(line);
        nd_driver::begin_rpc_result(w, "7");
        nd_driver::write_call_tool_result(w, out);
        nd_driver::end_rpc_result(w, line);
        return line;
    }
};

void BM_DefaultRead_Serialized(benchmark::State& state)
{
    InProcess p;
    const nlohmann::json args = {{"app", "Chatter"}};
    std::size_t bytes = 0;
    for (auto _ : state) {
        auto line = p.call_line(args);
        bytes = line.size();
        benchmark::DoNotOptimize(line);
    }
    state.counters["response_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_DefaultRead_Serialized)->Unit(benchmark::kMillisecond);

void BM_WholeView_Serialized(benchmark::State& state)
{
    InProcess p;
    const nlohmann::json args = {{"app", "Chatter"}, {"max_elements", 5000}, {"max_depth", 200}};
    std::size_t bytes = 0;
    for (auto _ : state) {
        auto line = p.call_line(args);
        bytes = line.size();
        benchmark::DoNotOptimize(line);
    }
    state.counters["response_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_WholeView_Serialized)->Unit(benchmark::kMillisecond);

// The baseline: the same rows of the same snapshot built as a nlohmann::json tree and dumped.
void BM_WholeView_NlohmannBaseline(benchmark::State& state)
{
    InProcess p;
    auto& session = *std::move(p.engine->live_session()).value();
    auto window = std::move(p.engine->resolve_window(session, {std::nullopt, std::nullopt, "Chatter"})).value();
    for (auto _ : state) {
        auto snap = std::move(p.engine->read_window(session, window)).value();
        nd_core::ViewRequest req{nd_core::ViewKind::full, 0, 5000, 200};
        auto view = nd_core::project(*snap, req);
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& row : view.rows) {
            const auto& e = snap->elements[row.index];
            nlohmann::json states = nlohmann::json::array();
            for (auto s : nd_core::state_names(e.states))
                states.push_back(s);
            rows.push_back({{"element_index", row.index}, {"element_token", nd_core::format_token(snap->id, row.index)},
                {"role", e.role}, {"name", e.name}, {"value", e.value}, {"states", states}, {"actions", e.actions},
                {"parent_index", row.parent_index}, {"depth", row.depth}, {"child_count", e.child_count},
                {"descendant_count", e.descendant_count},
                {"frame", {{"x", e.frame.x}, {"y", e.frame.y}, {"w", e.frame.w}, {"h", e.frame.h}}}});
        }
        nlohmann::json result = {{"content", {{{"type", "text"}, {"text", ""}}}},
            {"structuredContent", {{"ok", true}, {"elements", std::move(rows)}}}, {"isError", false}};
        auto line = nlohmann::json({{"jsonrpc", "2.0"}, {"id", 7}, {"result", std::move(result)}}).dump();
        benchmark::DoNotOptimize(line);
    }
}
BENCHMARK(BM_WholeView_NlohmannBaseline)->Unit(benchmark::kMillisecond);

// --- stdio round trip through the real binary --------------------------------------------------

struct Child {
    pid_t pid = -1;
    int to = -1;
    int from = -1;
    std::string buffer;

    bool start()
    {
        int in[2];
        int out[2];
        if (pipe(in) != 0 || pipe(out) != 0)
            return false;
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, in[0], 0);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_addclose(&fa, in[1]);
        posix_spawn_file_actions_addclose(&fa, out[0]);
        std::string bin = std::string(NISH_BIN_DIR) + "/nish-driver";
        char* argv[] = {bin.data(), const_cast<char*>("mcp"), const_cast<char*>("--backend"),
            const_cast<char*>("mock"), const_cast<char*>("--consent"), const_cast<char*>("auto"), nullptr};
        setenv("NISH_AUDIT_LOG", "", 1);
        int rc = posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        close(in[0]);
        close(out[1]);
        to = in[1];
        from = out[0];
        return rc == 0;
    }

    bool send(std::string_view line)
    {
        while (!line.empty()) {
            auto n = write(to, line.data(), line.size());
            if (n <= 0 && errno != EINTR)
                return false;
            if (n > 0)
                line.remove_prefix(static_cast<std::size_t>(n));
        }
        return true;
    }

    std::string receive()
    {
        for (;;) {
            auto nl = buffer.find('\n');
            if (nl != std::string::npos) {
                auto line = buffer.substr(0, nl);
                buffer.erase(0, nl + 1);
                return line;
            }
            char chunk[65536];
            auto n = read(from, chunk, sizeof chunk);
            if (n <= 0)
                return {};
            buffer.append(chunk, static_cast<std::size_t>(n));
        }
    }

    ~Child()
    {
        if (to >= 0)
            close(to);
        if (from >= 0)
            close(from);
        if (pid > 0)
            waitpid(pid, nullptr, 0);
    }
};

void BM_StdioRoundTrip_SmallTool(benchmark::State& state)
{
    Child c;
    if (!c.start()) {
        state.SkipWithError("could not start nish-driver");
        return;
    }
    c.send(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}})" "\n");
    c.receive();
    c.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"start_session","arguments":{}}})" "\n");
    c.receive();
    const std::string request =
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_session_state","arguments":{}}})" "\n";
    std::vector<double> us;
    for (auto _ : state) {
        auto t0 = Clock::now();
        c.send(request);
        auto line = c.receive();
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
        if (line.empty()) {
            state.SkipWithError("nish-driver closed its output");
            return;
        }
    }
    std::sort(us.begin(), us.end());
    state.counters["p50_us"] = us[us.size() / 2];
    state.counters["p99_us"] = us[std::min(us.size() - 1, us.size() * 99 / 100)];
}
BENCHMARK(BM_StdioRoundTrip_SmallTool)->Iterations(5000)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();

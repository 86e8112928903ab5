// The desk wire's routing cost (docs/benchmarks.md, "Desk"): reading the tool of a 74-byte desk
// frame before its full decode (peek_tool), against decoding the whole frame (decode_request,
// through nlohmann::json) in the same run. Target: peek <= 150 ns.

#include "desk/wire/wire.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

// 74 bytes, as a CLI or script call looks on the wire.
const std::string FRAME = R"({"agent_id":"","tool":"desk_find","args":{"name":"Saved","role":"button"}})";
// The tool last, after nested args: the scan has to skip them.
const std::string TOOL_LAST = R"({"agent_id":"a","args":{"name":"Save","role":"button"},"tool":"desk_find"})";

void BM_PeekTool_74B(benchmark::State& state)
{
    std::string scratch;
    for (auto _ : state) {
        auto tool = nd_desk::wire::peek_tool(FRAME, scratch);
        benchmark::DoNotOptimize(tool);
    }
    state.counters["bytes"] = static_cast<double>(FRAME.size());
}
BENCHMARK(BM_PeekTool_74B);

void BM_PeekTool_ToolLast(benchmark::State& state)
{
    std::string scratch;
    for (auto _ : state) {
        auto tool = nd_desk::wire::peek_tool(TOOL_LAST, scratch);
        benchmark::DoNotOptimize(tool);
    }
}
BENCHMARK(BM_PeekTool_ToolLast);

void BM_FullDecode_74B(benchmark::State& state)
{
    for (auto _ : state) {
        auto request = nd_desk::wire::decode_request(FRAME);
        benchmark::DoNotOptimize(request);
    }
}
BENCHMARK(BM_FullDecode_74B);

} // namespace

BENCHMARK_MAIN();

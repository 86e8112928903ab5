// One small tools/call round trip through McpServer over pipes: write the request line, read the
// response line. The fake host answers at once, so this measures the JSON-RPC layer (parse,
// queue hand-off to the worker, result writing, two pipe hops). Target: p50 < 0.3 ms.

#include "mcp/mcp_server.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

class BenchHost : public nd_mcp::ToolHost {
public:
    nlohmann::json list_tools() override { return nlohmann::json::array({{{"name", "echo"}}}); }
    bool has_tool(std::string_view name) override { return name == "echo"; }
    nd_mcp::ToolOutput call_tool(std::string_view, const nlohmann::json&, const nd_mcp::CallContext&) override
    {
        nd_mcp::ToolOutput out;
        out.structured = R"({"ok":true,"element_token":"e12"})";
        out.text = "ok";
        return out;
    }
};

bool write_all(int fd, std::string_view bytes)
{
    while (!bytes.empty()) {
        ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

// Reads until one whole line is in buffer; returns false at end of file.
bool read_line(int fd, std::string& buffer)
{
    buffer.clear();
    char chunk[4096];
    for (;;) {
        ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        buffer.append(chunk, static_cast<std::size_t>(n));
        if (buffer.back() == '\n')
            return true;
    }
}

void BM_McpToolsCallRoundTrip(benchmark::State& state)
{
    int to_server[2];
    int from_server[2];
    if (::pipe2(to_server, O_CLOEXEC) != 0 || ::pipe2(from_server, O_CLOEXEC) != 0) {
        state.SkipWithError("pipe2 failed");
        return;
    }
    BenchHost host;
    nd_mcp::McpServer server(host, to_server[0], from_server[1]);
    std::thread serving([&] { server.run(); });

    const std::string request =
        R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"element_token":"e12"}}})"
        "\n";
    std::string response;
    std::vector<double> samples_us;
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        if (!write_all(to_server[1], request) || !read_line(from_server[0], response)) {
            state.SkipWithError("the server stopped answering");
            break;
        }
        auto elapsed = std::chrono::steady_clock::now() - start;
        samples_us.push_back(std::chrono::duration<double, std::micro>(elapsed).count());
    }
    if (response.find(R"("isError":false)") == std::string::npos)
        state.SkipWithError("unexpected response");

    ::close(to_server[1]);
    serving.join();
    for (int fd : {to_server[0], from_server[0], from_server[1]})
        ::close(fd);

    if (!samples_us.empty()) {
        std::sort(samples_us.begin(), samples_us.end());
        auto at = [&](double q) { return samples_us[static_cast<std::size_t>(q * double(samples_us.size() - 1))]; };
        state.counters["p50_us"] = at(0.50);
        state.counters["p99_us"] = at(0.99);
    }
}

} // namespace

BENCHMARK(BM_McpToolsCallRoundTrip)->UseRealTime();

BENCHMARK_MAIN();

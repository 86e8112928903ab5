// The services' figures (docs/benchmarks.md, "Services"): a `shuttle daemon` process of its own
// (mock backend) running the test service (tests/desk/service/test_service.cpp), then
//   (1) the relay's throughput on a 1 GiB stream each way, against the same stream sent straight
//       to the service's own socket in the same run (target: at least 70% of it);
//   (2) a small call's round trip (connect, one frame each way, close), p50 and p99, through the
//       daemon and straight to the service's socket;
//   (3) routing: the wire's peek of the tool plus one lookup in the service tool table, on a
//       74-byte desk frame (target at most 150 ns).
//
//   desk_service_bench [--shuttle PATH] [--gib N] [--calls N]

#include "bench/bench_daemon.h"
#include "desk/services/service_router.h"
#include "desk/wire/client.h"
#include "desk/wire/frame_io.h"

#include <benchmark/benchmark.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace w = nd_desk::wire;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

// The CPU seconds (user + system) process `pid` has used so far.
double cpu_seconds(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close == std::string::npos)
        return 0;
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    double ticks = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i)
        if (i == 14 || i == 15)
            ticks += std::stod(field);
    return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

using nd_bench::connect_retrying;
using nd_bench::percentile;

double median(std::vector<double> v) { return nd_bench::percentile(std::move(v), 0.5); }

// Sends svc_sink and `bytes` after it, half-closes, reads the count: seconds taken, or -1.
double sink(const std::string& path, long long bytes)
{
    auto client = connect_retrying(path);
    if (!client)
        return -1;
    static char chunk[256 * 1024];
    std::memset(chunk, 'q', sizeof chunk);
    const auto t0 = Clock::now();
    if (w::write_frame(client->fd(), w::encode_request(w::Request{"", "svc_sink", json::object()}), std::nullopt) != 0)
        return -1;
    for (long long sent = 0; sent < bytes;) {
        const ssize_t n = ::send(client->fd(), chunk, std::min<long long>(bytes - sent, sizeof chunk), MSG_NOSIGNAL);
        if (n <= 0)
            return -1;
        sent += n;
    }
    ::shutdown(client->fd(), SHUT_WR);
    auto answer = w::read_frame(client->fd(), w::MAX_RESPONSE_BYTES, std::nullopt);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (answer.status != w::ReadStatus::frame || w::decode_response(answer.payload)->text != std::to_string(bytes))
        return -1;
    return s;
}

// Sends svc_stream {bytes} and reads them to the end: seconds taken, or -1.
double stream(const std::string& path, long long bytes)
{
    auto client = connect_retrying(path);
    if (!client)
        return -1;
    static char buffer[256 * 1024];
    const auto t0 = Clock::now();
    if (w::write_frame(client->fd(), w::encode_request(w::Request{"", "svc_stream", {{"bytes", bytes}}}), std::nullopt) != 0)
        return -1;
    long long got = 0;
    for (;;) {
        const ssize_t n = ::recv(client->fd(), buffer, sizeof buffer, 0);
        if (n <= 0)
            break;
        got += n;
    }
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    return got == bytes ? s : -1;
}

// A plain copy relay for one connection at a time on `listen_path`: recv/send through a 64 KiB
// buffer, a thread each way, to the service at `service_path` (the baseline the splice relay beats).
void copy_relay(const std::string& listen_path, const std::string& service_path, int connections)
{
    const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, listen_path.c_str(), sizeof addr.sun_path - 1);
    if (::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listener, 8) != 0)
        return;
    auto copy = [](int from, int to) {
        std::vector<char> buffer(64 * 1024);
        for (;;) {
            const ssize_t n = ::recv(from, buffer.data(), buffer.size(), 0);
            if (n <= 0)
                break;
            for (ssize_t sent = 0; sent < n;) {
                const ssize_t m = ::send(to, buffer.data() + sent, static_cast<std::size_t>(n - sent), MSG_NOSIGNAL);
                if (m <= 0)
                    return;
                sent += m;
            }
        }
        ::shutdown(to, SHUT_WR);
    };
    for (int i = 0; i < connections; ++i) {
        const int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
        auto service = connect_retrying(service_path);
        if (client < 0 || !service) {
            ::close(client);
            break;
        }
        std::thread back(copy, service->fd(), client);
        copy(client, service->fd());
        back.join();
        ::close(client);
    }
    ::close(listener);
}

// One small call on a connection of its own: microseconds, or -1.
double echo(const std::string& path)
{
    const auto t0 = Clock::now();
    auto client = w::Client::connect(path);
    if (!client)
        return -1;
    auto r = client->call(w::Request{"", "svc_echo", {{"title", "groceries"}}}, Clock::now() + std::chrono::seconds(5));
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    return r.status == w::Client::CallStatus::answered && !r.response.is_error ? us : -1;
}

// peek_tool plus the table's lookup on a 74-byte frame, ns per call (the median of 7 runs).
double routing_ns()
{
    nd_desk::Service notes;
    notes.name = "notes";
    for (const char* name : {"notes_read", "notes_write", "notes_watch", "notes_list", "notes_find"})
        notes.tools.push_back({name, "x", {{"type", "object"}}, true});
    nd_desk::Service files;
    files.name = "files";
    for (const char* name : {"files_open", "files_stat", "files_tail"})
        files.tools.push_back({name, "x", {{"type", "object"}}, true});
    nd_desk::ServiceRouter router({notes, files}, "/run/user/1000/desk.sock");
    const std::string payload = R"({"agent_id":"","tool":"notes_read","args":{"title":"groceries, milk"}})";
    const std::string frame = w::frame(payload);
    if (frame.size() != 74)
        std::fprintf(stderr, "the routing frame is %zu bytes, not 74\n", frame.size());
    std::vector<double> runs;
    constexpr int N = 2'000'000;
    for (int run = 0; run < 7; ++run) {
        std::string scratch;
        const auto t0 = Clock::now();
        for (int i = 0; i < N; ++i) {
            std::string_view body(frame.data() + w::HEADER_BYTES, frame.size() - w::HEADER_BYTES);
            benchmark::DoNotOptimize(body);
            auto tool = w::peek_tool(body, scratch);
            const nd_desk::ServiceRoute* route = tool ? router.find(*tool) : nullptr;
            benchmark::DoNotOptimize(route);
        }
        runs.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / N);
    }
    return median(runs);
}

} // namespace

int main(int argc, char** argv)
{
    std::string shuttle = NISH_BIN_DIR "/shuttle";
    long long gib = 1;
    int calls = 2000;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--shuttle")
            shuttle = argv[i + 1];
        else if (a == "--gib")
            gib = std::atoll(argv[i + 1]);
        else if (a == "--calls")
            calls = std::atoi(argv[i + 1]);
    }
    const long long bytes = gib << 30;
    json tools = json::array();
    for (const char* t : {"svc_echo", "svc_sink", "svc_stream"})
        tools.push_back({{"name", t}, {"description", "bench"}, {"input_schema", {{"type", "object"}}}});
    nd_bench::BenchDaemon daemon(shuttle, "mock", "[tools]\nplugins = \"{dir}/tools.d\"\n", {}, [&](const std::string& d) {
        std::filesystem::create_directory(d + "/tools.d");
        std::ofstream(d + "/tools.d/tester.json") << json{{"service", "tester"}, {"bin", NISH_TEST_SERVICE}, {"tools", tools}}.dump();
    });
    if (!daemon.started()) {
        std::fprintf(stderr, "cannot start %s\n", shuttle.c_str());
        return 1;
    }
    const std::string dir = daemon.dir();
    const std::string socket = daemon.socket();
    const pid_t pid = daemon.pid();
    const std::string direct = dir + "/services/tester.sock";
    bool ok = true;
    // Three rounds, alternating, each direction; the median of each.
    std::vector<double> relay_up, direct_up, relay_down, direct_down, copy_up, copy_down;
    double relay_cpu = 0;
    const std::string copy_socket = dir + "/copy.sock";
    std::thread copier(copy_relay, copy_socket, direct, 6);
    for (int round = 0; round < 3 && ok; ++round) {
        const double e = sink(copy_socket, bytes), f = stream(copy_socket, bytes);
        copy_up.push_back(e);
        copy_down.push_back(f);
        const double a = sink(direct, bytes);
        const double cpu_before = cpu_seconds(pid);
        const double b = sink(socket, bytes);
        relay_cpu += cpu_seconds(pid) - cpu_before;
        const double c = stream(direct, bytes);
        const double d = stream(socket, bytes);
        ok = a > 0 && b > 0 && c > 0 && d > 0 && e > 0 && f > 0;
        if (!ok)
            std::fprintf(stderr, "round %d: %.3f %.3f %.3f %.3f %.3f %.3f\n", round, a, b, c, d, e, f);
        direct_up.push_back(a);
        relay_up.push_back(b);
        direct_down.push_back(c);
        relay_down.push_back(d);
    }
    if (ok)
        copier.join();
    else
        copier.detach(); // it waits for connections that will not come; the process ends below
    std::vector<double> via_daemon, straight;
    for (int i = 0; i < calls + 100 && ok; ++i) {
        const double a = echo(socket), b = echo(direct);
        ok = a > 0 && b > 0;
        if (i >= 100) {
            via_daemon.push_back(a);
            straight.push_back(b);
        }
    }
    daemon.stop();
    if (!ok) {
        std::fprintf(stderr, "a call failed: is the test service built?\n");
        return 1;
    }
    const double route = routing_ns();
    const double gbs = static_cast<double>(bytes) / 1e9;
    auto rate = [&](const std::vector<double>& s) { return gbs / median(s); };
    std::printf("%-58s %14s %12s  %s\n", "figure", "measured", "target", "baseline in the same run");
    std::printf("%-58s %9.2f GB/s %12s  %.2f GB/s straight to the service (%.0f%%)\n",
        ("client to service through the relay, " + std::to_string(gib) + " GiB").c_str(), rate(relay_up), ">= 70%",
        rate(direct_up), 100 * rate(relay_up) / rate(direct_up));
    std::printf("%-58s %9.2f GB/s %12s  %.2f GB/s straight to the service (%.0f%%)\n",
        ("service to client through the relay, " + std::to_string(gib) + " GiB").c_str(), rate(relay_down), ">= 70%",
        rate(direct_down), 100 * rate(relay_down) / rate(direct_down));
    std::printf("%-58s %9.2f GB/s %12s  the daemon's relay is %.2fx it\n", "client to service through a plain copy relay (recv/send)",
        rate(copy_up), "", rate(relay_up) / rate(copy_up));
    std::printf("%-58s %9.2f GB/s %12s  the daemon's relay is %.2fx it\n", "service to client through a plain copy relay (recv/send)",
        rate(copy_down), "", rate(relay_down) / rate(copy_down));
    std::printf("%-58s %11.2f s  %12s\n", "the daemon's CPU per GiB relayed (client to service)", relay_cpu / 3 / static_cast<double>(gib), "");
    std::printf("%-58s %11.3f ms %12s  %.3f ms straight to the service\n", "small call round trip through the daemon, p50",
        percentile(via_daemon, 0.5) / 1000, "", percentile(straight, 0.5) / 1000);
    std::printf("%-58s %11.3f ms %12s  %.3f ms straight to the service\n", "small call round trip through the daemon, p99",
        percentile(via_daemon, 0.99) / 1000, "", percentile(straight, 0.99) / 1000);
    std::printf("%-58s %11.1f ns %12s\n", "routing: peek + service table lookup, 74-byte frame", route, "<= 150 ns");
    return 0;
}

// The model tools' figure (docs/benchmarks.md, "Model tools"): what a model call through the daemon
// adds to the same request sent straight to the endpoint, both against the fake OpenAI-compatible
// endpoint of the tests (tests/support/fake_openai.h, answering at once) in the same run.
//
//   straight:  libcurl in this process, one easy handle kept across calls (its connection reused),
//              POSTing the body the daemon sends for the same model_ask;
//   through:   model_ask on one wire connection to a `shuttle daemon` process of its own (mock
//              backend): the wire, the daemon's checks, the request built, libcurl, the answer read;
//   curl CLI:  the same POST by the curl program, a process and a connection per call, for scale.
//
// Rounds alternate the two so drift hits both; p50 and p99 of each, the p50 difference (target: at
// most 2 ms), and how many connections the daemon opened for all its calls (reuse: 1).
//
//   desk_model_bench [--shuttle PATH] [--calls N]

#include "bench/bench_daemon.h"
#include "desk/models/model_client.h"
#include "support/fake_openai.h"

#include <curl/curl.h>

#include <cstdio>
#include <cstdlib>
#include <set>

namespace w = nd_desk::wire;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

constexpr const char* KEY = "sk-bench-not-a-real-key";
constexpr const char* PROMPT = "What does the screen show?";

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::size_t discard(char*, std::size_t size, std::size_t count, void*) { return size * count; }

// The body the daemon sends for model_ask {prompt}.
std::string ask_body()
{
    nd_desk::ChatCall call;
    call.role = nd_desk::ModelRole::ask;
    call.messages = json::array({{{"role", "user"}, {"content", json::array({{{"type", "text"}, {"text", PROMPT}}})}}});
    call.max_tokens = 4096;
    return nd_desk::chat_request_body("bench/ask", call).dump();
}

// The curl program posting `body_file` once: its wall time in ms, or -1.
double curl_cli(const std::string& url, const std::string& body_file)
{
    std::vector<std::string> args{"curl", "-s", "-o", "/dev/null", "-H", "Content-Type: application/json",
        "-H", std::string("Authorization: Bearer ") + KEY, "--data-binary", "@" + body_file, url};
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const auto t0 = Clock::now();
    pid_t pid = -1;
    if (::posix_spawnp(&pid, "curl", nullptr, nullptr, argv.data(), environ) != 0)
        return -1;
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ms_since(t0) : -1;
}

} // namespace

int main(int argc, char** argv)
{
    std::string shuttle = NISH_BIN_DIR "/shuttle";
    int calls = 3000;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--shuttle")
            shuttle = argv[i + 1];
        else if (a == "--calls")
            calls = std::max(30, std::atoi(argv[i + 1]));
    }
    nd_test::FakeOpenAI fake;
    nd_bench::BenchDaemon daemon(shuttle, "mock",
        "[models]\nbase_url = \"" + fake.base_url() + "\"\napi_key_env = \"NISH_BENCH_MODEL_KEY\"\nask = \"bench/ask\"\n",
        {std::string("NISH_BENCH_MODEL_KEY=") + KEY});
    auto client = daemon.started() ? nd_bench::connect_retrying(daemon.socket()) : std::nullopt;
    if (!client) {
        std::fprintf(stderr, "the daemon did not come up (%s)\n", shuttle.c_str());
        return 1;
    }

    const std::string url = fake.base_url() + "/chat/completions";
    const std::string body = ask_body();
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL* easy = curl_easy_init();
    curl_slist* headers = nullptr;
    headers = curl_slist_append(headers, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Expect:");
    headers = curl_slist_append(headers, (std::string("Authorization: Bearer ") + KEY).c_str());
    curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);

    auto straight_call = [&] {
        const auto t0 = Clock::now();
        long status = 0;
        if (curl_easy_perform(easy) != CURLE_OK || (curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status), status != 200))
            return -1.0;
        return ms_since(t0);
    };
    const json ask{{"prompt", PROMPT}};
    auto daemon_call = [&] {
        const auto t0 = Clock::now();
        auto r = client->call(w::Request{"", "model_ask", ask}, w::Clock::now() + std::chrono::seconds(10));
        if (r.status != w::Client::CallStatus::answered || r.response.is_error) {
            std::fprintf(stderr, "model_ask failed: %s%s\n", r.failure.c_str(), r.response.text.c_str());
            return -1.0;
        }
        return ms_since(t0);
    };

    for (int i = 0; i < 50; ++i) { // warm both paths (connections, the daemon's first call)
        straight_call();
        daemon_call();
    }
    fake.clear();
    std::vector<double> straight, through;
    const int rounds = 6;
    for (int round = 0; round < rounds; ++round) {
        for (int i = 0; i < calls / rounds; ++i) {
            const double ms = straight_call();
            if (ms < 0)
                return 1;
            straight.push_back(ms);
        }
        for (int i = 0; i < calls / rounds; ++i) {
            const double ms = daemon_call();
            if (ms < 0)
                return 1;
            through.push_back(ms);
        }
    }
    // The connections the daemon's requests came on (its user agent is shuttle's; the straight
    // handle's is curl's default, none).
    std::set<int> daemon_connection_ids;
    for (const auto& r : fake.requests())
        if (auto ua = r.headers.find("user-agent"); ua != r.headers.end() && ua->second.starts_with("shuttle/"))
            daemon_connection_ids.insert(r.connection);
    const auto daemon_connections = daemon_connection_ids.size();

    char body_file[] = "/tmp/model-bench-body-XXXXXX";
    const int fd = ::mkstemp(body_file);
    [[maybe_unused]] auto n = ::write(fd, body.data(), body.size());
    ::close(fd);
    std::vector<double> cli;
    for (int i = 0; i < 50; ++i)
        if (const double ms = curl_cli(url, body_file); ms >= 0)
            cli.push_back(ms);
    ::unlink(body_file);
    curl_slist_free_all(headers);
    curl_easy_cleanup(easy);

    using nd_bench::percentile;
    const double s50 = percentile(straight, 0.5), t50 = percentile(through, 0.5);
    std::printf("model call, %zu calls each, the fake endpoint answering at once:\n", straight.size());
    std::printf("  straight (libcurl, connection kept):      p50 %.3f ms  p99 %.3f ms\n", s50, percentile(straight, 0.99));
    std::printf("  through the daemon (model_ask on the wire): p50 %.3f ms  p99 %.3f ms\n", t50, percentile(through, 0.99));
    std::printf("  added by the daemon at p50: %.3f ms (target at most 2 ms): %s\n", t50 - s50,
        t50 - s50 <= 2.0 ? "met" : "NOT met");
    std::printf("  connections the daemon's %zu calls came on: %zu\n", through.size(), daemon_connections);
    if (!cli.empty())
        std::printf("  curl program, a process and connection per call (%zu calls): p50 %.3f ms\n", cli.size(),
            percentile(cli, 0.5));
    return 0;
}

// nish-fake-openai: the fake OpenAI-compatible endpoint (fake_openai.h) as a program, for the node
// tests. It prints one line, {"port":N,"base_url":"http://127.0.0.1:N/v1"}, and serves until its
// standard input reaches end of file or it gets SIGTERM or SIGINT. A test drives it over HTTP on the
// same port with the control requests /__push, /__default, /__requests, /__connections, /__clear.
//
// Ending at end of input means a test that spawns it with a pipe on stdin cannot leak it: when the
// test process dies, the pipe closes and the server goes too. Started with stdin on /dev/null it
// exits at once, by the same rule.

#include "fake_openai.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <exception>
#include <memory>
#include <poll.h>
#include <unistd.h>

namespace {

int g_signal_pipe[2] = {-1, -1};

void on_signal(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(g_signal_pipe[1], &byte, 1);
}

// Blocks until stdin ends or a signal comes.
void wait_for_the_end()
{
    for (;;) {
        pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {g_signal_pipe[0], POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        if (fds[1].revents != 0)
            return;
        if (fds[0].revents != 0) {
            char buffer[4096]; // what comes on stdin means nothing; only its end does
            const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
                return;
        }
    }
}

} // namespace

int main()
{
    if (::pipe(g_signal_pipe) != 0) {
        std::perror("nish-fake-openai: pipe");
        return 1;
    }
    struct sigaction action = {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGTERM, &action, nullptr);
    ::sigaction(SIGINT, &action, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    std::unique_ptr<nd_test::FakeOpenAI> server;
    try {
        server = std::make_unique<nd_test::FakeOpenAI>();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nish-fake-openai: %s\n", e.what());
        return 1;
    }
    const nlohmann::ordered_json ready = {{"port", server->port()}, {"base_url", server->base_url()}};
    std::printf("%s\n", ready.dump().c_str());
    std::fflush(stdout);

    wait_for_the_end();
    server.reset(); // stops and joins before exit, so no thread runs into static destruction
    return 0;
}

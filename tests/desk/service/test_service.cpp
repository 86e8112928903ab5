// A service plugin for the tests and benchmarks (docs/services.md): it listens on
// SHUTTLE_SERVICE_SOCKET and serves each connection on a thread of its own by the tool of its first
// frame. It writes what happened to the file after --log, one line per event.
//
//   svc_echo      answers {"tool", "agent_id", "args"} as its text
//   svc_env       answers what it was started with: its variables, working directory, process group
//   svc_frames    {"count": N}: N response frames "frame <i>", then closes
//   svc_stream    {"bytes": N}: N raw bytes after the first frame, then closes
//   svc_sink      reads to end of file, then answers the number of bytes it read
//   svc_until_eof reads to end of file (logging "eof"), then answers "saw eof"
//   svc_crash     exits with status 3 at once
//   svc_exit_unread answers "next", then exits with status 3 100 ms after it accepts its next
//                 connection, without reading a byte of it
//   svc_hang      reads nothing more and never answers
//
// Options: --log FILE; --ignore-term (SIGTERM does nothing); --child (starts `sleep 600` in its
// process group and logs its pid); --listen-after MS (binds its socket that much later); --exit-after MS
// (exits with status 4 that much after it started); --exit-on-accept (exits with status 3 100 ms
// after it accepts its first connection, unread, as after svc_exit_unread).

#include "desk/wire/frame_io.h"
#include "desk/wire/wire.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <spawn.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace w = nd_desk::wire;
using nlohmann::json;

namespace {

std::string g_log;
std::mutex g_log_mutex;
std::atomic<bool> g_exit_on_accept{false}; // svc_exit_unread

void log_line(const std::string& line)
{
    if (g_log.empty())
        return;
    std::lock_guard lock(g_log_mutex);
    const int fd = ::open(g_log.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    const std::string text = line + "\n";
    [[maybe_unused]] auto n = ::write(fd, text.data(), text.size());
    ::close(fd);
}

bool send_all(int fd, const char* data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

bool answer(int fd, const std::string& text, bool is_error = false)
{
    return w::write_frame(fd, w::encode_response(w::Response{text, is_error, std::nullopt}), std::nullopt) == 0;
}

// Reads to end of file; the number of bytes read.
std::uint64_t drain(int fd)
{
    static thread_local char buffer[64 * 1024];
    std::uint64_t total = 0;
    for (;;) {
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return total;
        total += static_cast<std::uint64_t>(n);
    }
}

std::string env_or_none(const char* name)
{
    const char* value = std::getenv(name);
    return value ? value : "none";
}

void serve(int fd)
{
    auto read = w::read_frame(fd, w::MAX_REQUEST_BYTES, std::nullopt);
    if (read.status != w::ReadStatus::frame) {
        ::close(fd);
        return;
    }
    auto request = w::decode_request(read.payload);
    if (!request) {
        answer(fd, request.error().message, true);
        ::close(fd);
        return;
    }
    const std::string& tool = request->tool;
    const json& args = request->args;
    log_line("call " + tool);
    if (tool == "svc_echo") {
        answer(fd, json{{"tool", tool}, {"agent_id", request->agent_id}, {"args", args}}.dump());
    } else if (tool == "svc_env") {
        char cwd[4096] = "";
        [[maybe_unused]] auto ignored = ::getcwd(cwd, sizeof cwd);
        answer(fd, json{{"service_socket", env_or_none("SHUTTLE_SERVICE_SOCKET")}, {"socket", env_or_none("SHUTTLE_SOCKET")},
            {"model_key", env_or_none("OPENROUTER_API_KEY")}, {"other_key", env_or_none("TEST_MODEL_KEY")},
            {"config", env_or_none("SHUTTLE_CONFIG")}, {"cwd", cwd}, {"pid", ::getpid()}, {"pgid", ::getpgrp()}}.dump());
    } else if (tool == "svc_frames") {
        const int count = args.is_object() ? args.value("count", 3) : 3;
        for (int i = 0; i < count; ++i)
            if (!answer(fd, "frame " + std::to_string(i)))
                break;
    } else if (tool == "svc_stream") {
        std::uint64_t left = args.is_object() ? args.value("bytes", std::uint64_t{0}) : 0;
        static thread_local char chunk[64 * 1024];
        std::memset(chunk, 'x', sizeof chunk);
        while (left > 0) {
            const std::size_t n = std::min<std::uint64_t>(left, sizeof chunk);
            if (!send_all(fd, chunk, n)) {
                log_line("stream cut with " + std::to_string(left) + " bytes left");
                break;
            }
            left -= n;
        }
    } else if (tool == "svc_sink") {
        answer(fd, std::to_string(drain(fd)));
    } else if (tool == "svc_until_eof") {
        const auto n = drain(fd);
        log_line("eof after " + std::to_string(n));
        answer(fd, "saw eof");
    } else if (tool == "svc_exit_unread") {
        g_exit_on_accept = true;
        answer(fd, "next");
    } else if (tool == "svc_crash") {
        std::_Exit(3);
    } else if (tool == "svc_hang") {
        for (;;)
            ::pause();
    } else {
        answer(fd, "no tool " + tool, true);
    }
    ::close(fd);
}

} // namespace

int main(int argc, char** argv)
{
    bool ignore_term = false, child = false;
    int listen_after = 0, exit_after = -1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--log" && i + 1 < argc)
            g_log = argv[++i];
        else if (arg == "--ignore-term")
            ignore_term = true;
        else if (arg == "--child")
            child = true;
        else if (arg == "--listen-after" && i + 1 < argc)
            listen_after = std::atoi(argv[++i]);
        else if (arg == "--exit-after" && i + 1 < argc)
            exit_after = std::atoi(argv[++i]);
        else if (arg == "--exit-on-accept")
            g_exit_on_accept = true;
    }
    std::signal(SIGPIPE, SIG_IGN);
    if (ignore_term)
        std::signal(SIGTERM, SIG_IGN);
    log_line("start " + std::to_string(::getpid()));
    if (child) {
        const char* sleep_argv[] = {"/bin/sleep", "600", nullptr};
        pid_t pid = -1;
        if (::posix_spawn(&pid, "/bin/sleep", nullptr, nullptr, const_cast<char**>(sleep_argv), environ) == 0)
            log_line("child " + std::to_string(pid));
    }
    if (exit_after >= 0)
        std::thread([exit_after] {
            std::this_thread::sleep_for(std::chrono::milliseconds(exit_after));
            std::_Exit(4);
        }).detach();
    if (listen_after > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(listen_after));
    const char* path = std::getenv("SHUTTLE_SERVICE_SOCKET");
    if (!path)
        return 2;
    const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path, sizeof addr.sun_path - 1);
    if (::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listener, 64) != 0) {
        log_line(std::string("cannot listen: ") + std::strerror(errno));
        return 1;
    }
    log_line("listening");
    for (;;) {
        const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR)
                continue;
            return 1;
        }
        if (g_exit_on_accept) {
            // Long enough for the daemon's first frame to be in: it goes unread.
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            log_line("exit unread");
            std::_Exit(3);
        }
        std::thread(serve, fd).detach();
    }
}

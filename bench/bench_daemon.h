#pragma once

// What the desk's benchmarks share: a `shuttle daemon` process of their own, in a temporary
// directory with its own config.toml and socket (its stderr in daemon.log there), stopped with
// SIGTERM (and its directory removed) when the object goes; a wire client that waits for the daemon to listen; percentiles.

#include "desk/wire/client.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace nd_bench {

inline double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

// A wire client of the daemon at `path`, waiting up to 10 s for it to listen.
inline std::optional<nd_desk::wire::Client> connect_retrying(const std::string& path)
{
    for (int i = 0; i < 400; ++i) {
        if (auto c = nd_desk::wire::Client::connect(path))
            return std::move(c).value();
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return std::nullopt;
}

// One wire call of `tool`, timed: the answer (or why none came) and its wall time in ms.
struct TimedCall {
    double ms = 0;
    nd_desk::wire::Client::CallResult result;
    bool answered() const { return result.status == nd_desk::wire::Client::CallStatus::answered; }
    // Why the call failed: no answer, or the daemon's error text; empty when it succeeded.
    std::string failure() const
    {
        if (!answered())
            return result.failure.empty() ? "no answer" : result.failure;
        return result.response.is_error ? result.response.text : std::string();
    }
};
inline TimedCall timed_call(nd_desk::wire::Client& client, const std::string& tool, const nlohmann::json& args,
                            std::chrono::seconds timeout = std::chrono::seconds(15))
{
    TimedCall out;
    const auto t0 = std::chrono::steady_clock::now();
    out.result = client.call(nd_desk::wire::Request{"", tool, args}, nd_desk::wire::Clock::now() + timeout);
    out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

class BenchDaemon {
public:
    // Starts `shuttle daemon --backend BACKEND` with config.toml holding `config` (use {dir} for the
    // directory), the caller's environment without its SHUTTLE_* variables, and `env` ("K=V") added.
    // `prepare` runs on the directory before the daemon starts (a tools.d to write).
    BenchDaemon(const std::string& shuttle, const std::string& backend, std::string config,
                const std::vector<std::string>& env = {}, const std::function<void(const std::string&)>& prepare = {})
    {
        char tmpl[] = "/tmp/shuttle-bench-XXXXXX";
        if (!::mkdtemp(tmpl))
            return;
        m_dir = tmpl;
        m_socket = m_dir + "/desk.sock";
        for (auto at = config.find("{dir}"); at != std::string::npos; at = config.find("{dir}", at))
            config.replace(at, 5, m_dir);
        std::ofstream(m_dir + "/config.toml") << config;
        if (prepare)
            prepare(m_dir);
        std::vector<std::string> strings;
        for (char** e = environ; *e; ++e)
            if (std::strncmp(*e, "SHUTTLE_", 8) != 0)
                strings.emplace_back(*e);
        strings.push_back("SHUTTLE_SOCKET=" + m_socket);
        strings.push_back("SHUTTLE_CONFIG=" + m_dir + "/config.toml");
        strings.insert(strings.end(), env.begin(), env.end());
        std::vector<char*> envp;
        for (auto& s : strings)
            envp.push_back(s.data());
        envp.push_back(nullptr);
        std::vector<std::string> args{shuttle, "daemon", "--backend", backend};
        std::vector<char*> argv;
        for (auto& s : args)
            argv.push_back(s.data());
        argv.push_back(nullptr);
        // Its log lines go to daemon.log in the directory, not between the figures.
        posix_spawn_file_actions_t files;
        posix_spawn_file_actions_init(&files);
        const std::string log = m_dir + "/daemon.log";
        posix_spawn_file_actions_addopen(&files, 2, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (::posix_spawn(&m_pid, shuttle.c_str(), &files, nullptr, argv.data(), envp.data()) != 0)
            m_pid = -1;
        posix_spawn_file_actions_destroy(&files);
    }
    ~BenchDaemon() { stop(); }
    // SIGTERM, its exit waited for, its directory removed; once.
    void stop()
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGTERM);
            int status = 0;
            ::waitpid(m_pid, &status, 0);
            m_pid = -1;
        }
        if (!m_dir.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(m_dir, ec);
            m_dir.clear();
        }
    }
    BenchDaemon(const BenchDaemon&) = delete;
    BenchDaemon& operator=(const BenchDaemon&) = delete;

    bool started() const { return m_pid > 0; }  // (false again after stop())
    pid_t pid() const { return m_pid; }
    const std::string& dir() const { return m_dir; }
    const std::string& socket() const { return m_socket; }

private:
    pid_t m_pid = -1;
    std::string m_dir;
    std::string m_socket;
};

} // namespace nd_bench

#include "desk/desk_read_launch.h"

#include "desk/desk.h"
#include "desk/spawn_group.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <optional>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace nd_desk {

namespace {

constexpr std::chrono::milliseconds PROBE_TIMEOUT{3000};

// Spawns argv with stdio on /dev/null, in a new process group, with default signal handling and
// an empty signal mask (the daemon's threads block signals its children must not inherit).
nd_core::Result<pid_t> spawn_detached(const std::vector<std::string>& argv, const std::vector<std::string>& hidden,
    const std::vector<std::string>& set = {})
{
    auto args = c_array(argv);
    const auto env = child_environment(hidden, set);
    auto envp = c_array(env);
    GroupSpawnAttr attr;
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
    close_inherited(&files);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, args[0], &files, attr.get(), args.data(), envp.data());
    posix_spawn_file_actions_destroy(&files);
    if (rc != 0)
        return nd_core::make_error(nd_core::ErrorCode::action_failed, argv.front() + " could not start: " + std::strerror(rc));
    return pid;
}

} // namespace

std::string find_on_path(const std::string& name, const std::string& path_list)
{
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
        return {};
    std::size_t start = 0;
    while (start <= path_list.size()) {
        const auto end = std::min(path_list.find(':', start), path_list.size());
        const auto dir = path_list.substr(start, end - start);
        start = end + 1;
        // An empty entry means the working directory, which a daemon must not run programs from.
        if (dir.empty() || dir.front() != '/')
            continue;
        const auto candidate = dir + "/" + name;
        struct stat st{};
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return {};
}

bool systemd_scope_works()
{
    static std::mutex mutex;
    static std::optional<bool> known;
    std::lock_guard lock(mutex);
    if (known)
        return *known;
    known = false;
    const char* path = std::getenv("PATH");
    const auto run = find_on_path("systemd-run", path ? path : "");
    const auto truth = find_on_path("true", path ? path : "");
    if (run.empty() || truth.empty())
        return false;
    auto pid = spawn_detached({run, "--user", "--scope", "--quiet", "--collect", "--", truth}, {});
    if (!pid)
        return false;
    const auto deadline = std::chrono::steady_clock::now() + PROBE_TIMEOUT;
    int status = 0;
    for (;;) {
        const auto done = ::waitpid(*pid, &status, WNOHANG);
        if (done == *pid)
            break;
        if (done < 0)
            return false;
        if (std::chrono::steady_clock::now() >= deadline) {
            ::kill(*pid, SIGKILL);
            ::waitpid(*pid, &status, 0);
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    known = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return *known;
}

nd_core::Result<Launched> launch_app(const std::string& executable, const std::vector<std::string>& hidden,
    const std::vector<std::string>& set)
{
    Launched out;
    std::vector<std::string> argv{executable};
    if (systemd_scope_works()) {
        const char* path = std::getenv("PATH");
        // --scope runs the command in this very process once the scope exists, so the pid is the app's.
        argv = {find_on_path("systemd-run", path ? path : ""), "--user", "--scope", "--quiet", "--collect", "--", executable};
        out.scoped = true;
    }
    out.pid = TRY(spawn_detached(argv, hidden, set));
    // Reaped when it exits, so no zombie is left; nothing waits for that.
    std::thread([pid = out.pid] {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }).detach();
    return out;
}

nd_core::Result<Launched> launch_named(const Desk& desk, const std::string& app)
{
    if (app.empty() || app.find('/') != std::string::npos)
        return nd_core::make_error(nd_core::ErrorCode::invalid_arguments,
            "app: must be an executable's name on PATH, without a directory, e.g. gedit");
    if (!desk.config().allow.empty() && !desk.config().allows(app))
        return nd_core::make_error(nd_core::ErrorCode::app_out_of_scope,
            "the app \"" + app + "\" is not in the app allowlist ([apps] allow in config.toml): launch one it lists");
    const char* path = std::getenv("PATH");
    const auto executable = find_on_path(app, path ? path : "");
    if (executable.empty())
        return nd_core::make_error(nd_core::ErrorCode::invalid_arguments,
            "app: no executable \"" + app.substr(0, 200) + "\" is on the daemon's PATH: check the name (desk_windows shows "
            "the apps' executable names)");
    auto hidden = desk.config().model_key_variables();
    for (auto& name : desk.backend().launch_env_hidden())
        hidden.push_back(std::move(name));
    return launch_app(executable, hidden, desk.backend().launch_env_set());
}

} // namespace nd_desk

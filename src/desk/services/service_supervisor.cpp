#include "desk/services/service_supervisor.h"

#include "desk/plugins/trusted_program.h"
#include "desk/services/service_paths.h"
#include "desk/spawn_group.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace nd_desk {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

int pidfd_open(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

// The service's process, started; or why it could not be.
nd_core::Result<pid_t> spawn_service(const Service& service, const ServiceLaunch& launch)
{
    if (auto why = untrusted_program(service.bin))
        return nd_core::make_error(nd_core::ErrorCode::action_failed,
            "could not start: " + *why + "; only a program that this user or root alone can change is run (docs/security.md)");
    std::vector<std::string> argv{service.bin};
    argv.insert(argv.end(), service.args.begin(), service.args.end());
    const auto env = child_environment(launch.hidden, {"SHUTTLE_SERVICE_SOCKET=" + service_socket_path(launch.endpoint, service.name),
        "SHUTTLE_SOCKET=" + launch.endpoint});
    auto args = c_array(argv), envp = c_array(env);

    GroupSpawnAttr attr;
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addchdir_np(&files, launch.work_dir.c_str());
    close_inherited(&files);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, args[0], &files, attr.get(), args.data(), envp.data());
    posix_spawn_file_actions_destroy(&files);
    if (rc != 0)
        return nd_core::make_error(nd_core::ErrorCode::action_failed, service.bin + " could not start: " + std::strerror(rc));
    return pid;
}

std::string seconds(Clock::duration d)
{
    const auto ms = std::chrono::duration_cast<milliseconds>(d).count();
    return std::to_string(ms / 1000) + "." + std::to_string(ms % 1000 / 100) + " s";
}

std::string describe_status(int status)
{
    if (WIFEXITED(status))
        return "exit status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return std::string("signal ") + ::sigabbrev_np(WTERMSIG(status));
    return "status " + std::to_string(status);
}

// Waits for the process to end, up to `timeout` (none: as long as it takes), or until `stop_fd`
// (-1: none) is readable. True when it ended. Without a pidfd (an old kernel), looks every 100 ms.
bool wait_exit(int pidfd, pid_t pid, int stop_fd, std::optional<milliseconds> timeout)
{
    const auto until = timeout ? Clock::now() + *timeout : Clock::time_point::max();
    for (;;) {
        const auto left = std::chrono::duration_cast<milliseconds>(until - Clock::now()).count();
        if (timeout && left <= 0)
            return false;
        int ms = timeout ? static_cast<int>(left) : -1;
        if (pidfd < 0)
            ms = ms < 0 ? 100 : std::min(ms, 100);
        pollfd fds[2] = {{stop_fd, POLLIN, 0}, {pidfd, POLLIN, 0}};
        if (::poll(fds, 2, ms) < 0 && errno != EINTR)
            return false;
        if (fds[0].revents & POLLIN)
            return false;
        if (pidfd >= 0) {
            if (fds[1].revents & POLLIN)
                return true;
            continue;
        }
        siginfo_t info{};
        if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid)
            return true;
    }
}

// Kills what is left of the group and reaps the leader.
int end_group(pid_t pid)
{
    ::kill(-pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

} // namespace

ServiceSupervisor::ServiceSupervisor(std::vector<Service> services, ServiceLaunch launch, ServicePolicy policy, Log log)
    : m_services(std::move(services)), m_launch(std::move(launch)), m_policy(policy), m_log(std::move(log))
{
    m_stop_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    for (const auto& s : m_services)
        m_status.push_back({s.name, -1, 0, {}});
}

ServiceSupervisor::~ServiceSupervisor()
{
    stop();
    if (m_stop_fd >= 0)
        ::close(m_stop_fd);
}

void ServiceSupervisor::start()
{
    if (m_services.empty() || !m_threads.empty())
        return;
    const std::string dir = services_dir(m_launch.endpoint);
    if (auto ready = prepare_services_dir(dir); !ready) {
        if (m_log)
            m_log("services: none started: " + ready.error().message);
        return;
    }
    for (std::size_t i = 0; i < m_services.size(); ++i)
        m_threads.emplace_back([this, i] { supervise(i); });
}

void ServiceSupervisor::stop()
{
    m_stopping = true;
    if (m_stop_fd >= 0) {
        const std::uint64_t one = 1;
        [[maybe_unused]] auto n = ::write(m_stop_fd, &one, sizeof one);
    }
    for (auto& t : m_threads)
        if (t.joinable())
            t.join();
    m_threads.clear();
}

std::vector<ServiceStatus> ServiceSupervisor::status() const
{
    std::lock_guard lock(m_mutex);
    return m_status;
}

bool ServiceSupervisor::pause(milliseconds d) const
{
    const auto until = Clock::now() + d;
    for (;;) {
        const auto left = std::chrono::duration_cast<milliseconds>(until - Clock::now()).count();
        if (left <= 0)
            return !m_stopping.load();
        pollfd fd{m_stop_fd, POLLIN, 0};
        if (::poll(&fd, 1, static_cast<int>(left)) > 0 || m_stopping.load())
            return false;
    }
}

void ServiceSupervisor::note(std::size_t index, int pid, bool started, const std::string& exit)
{
    std::lock_guard lock(m_mutex);
    auto& s = m_status[index];
    s.pid = pid;
    if (started)
        ++s.starts;
    if (!exit.empty())
        s.last_exit = exit;
}

void ServiceSupervisor::supervise(std::size_t index)
{
    const Service& service = m_services[index];
    const std::string socket = service_socket_path(m_launch.endpoint, service.name);
    auto log = [&](const std::string& line) {
        if (m_log)
            m_log("service " + service.name + ": " + line);
    };
    milliseconds wait = m_policy.first_wait;
    while (!m_stopping.load()) {
        std::string ended;
        auto started_at = Clock::now();
        auto pid = [&]() -> nd_core::Result<pid_t> {
            TRY_VOID(remove_stale_socket(socket));
            return spawn_service(service, m_launch);
        }();
        if (!pid) {
            ended = pid.error().message;
            note(index, -1, false, ended);
        } else {
            note(index, *pid, true, {});
            log("started (pid " + std::to_string(*pid) + ")");
            const int pidfd = pidfd_open(*pid);
            if (!wait_exit(pidfd, *pid, m_stop_fd, std::nullopt)) {
                // stop(): SIGTERM to the service, its grace, then the group.
                ::kill(*pid, SIGTERM);
                wait_exit(pidfd, *pid, -1, m_policy.term_grace);
                const int status = end_group(*pid);
                if (pidfd >= 0)
                    ::close(pidfd);
                note(index, -1, false, describe_status(status) + " at the daemon's stop");
                log("stopped (" + describe_status(status) + ")");
                return;
            }
            const int status = end_group(*pid);
            if (pidfd >= 0)
                ::close(pidfd);
            ended = describe_status(status) + " after " + seconds(Clock::now() - started_at);
            note(index, -1, false, ended);
        }
        if (Clock::now() - started_at >= m_policy.long_run)
            wait = m_policy.first_wait;
        log(ended + "; starting again in " + seconds(wait));
        if (!pause(wait))
            return;
        wait = std::min(wait * 2, m_policy.max_wait);
    }
}

} // namespace nd_desk

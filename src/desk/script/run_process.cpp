#include "desk/script/run_process.h"

#include "core/encode/utf8.h"
#include "desk/spawn_group.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace nd_desk {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds POLL_STEP{50};
constexpr std::chrono::milliseconds PIPE_GRACE{500};

struct Fd {
    int fd = -1;
    Fd() = default;
    explicit Fd(int f) : fd(f) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() { reset(); }
    void reset()
    {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
};

// Output kept up to its cap; the rest is read and dropped so the child never blocks on a pipe.
struct Capture {
    std::string text;
    std::size_t cap = 0;
    bool cut = false;

    // False at end of file or on an error.
    bool read_from(int fd)
    {
        char chunk[8192];
        for (;;) {
            const ssize_t n = ::read(fd, chunk, sizeof chunk);
            if (n > 0) {
                const auto room = text.size() < cap + 4 ? cap + 4 - text.size() : 0;
                text.append(chunk, std::min<std::size_t>(room, static_cast<std::size_t>(n)));
                if (static_cast<std::size_t>(n) > room)
                    cut = true;
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
        }
    }
};

int pidfd_open(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

nd_core::Result<pid_t> spawn(const ProcessSpec& spec, int out_fd, int err_fd)
{
    auto args = c_array(spec.argv), envp = c_array(spec.env);

    GroupSpawnAttr attr;
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&files, out_fd, 1);
    posix_spawn_file_actions_adddup2(&files, err_fd, 2);
    if (!spec.work_dir.empty())
        posix_spawn_file_actions_addchdir_np(&files, spec.work_dir.c_str());
    close_inherited(&files);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, args[0], &files, attr.get(), args.data(), envp.data());
    posix_spawn_file_actions_destroy(&files);
    if (rc != 0)
        return nd_core::make_error(nd_core::ErrorCode::action_failed,
            spec.argv.front() + " could not start: " + std::strerror(rc));
    return pid;
}

} // namespace

nd_core::Result<ProcessOutcome> run_process(const ProcessSpec& spec, const ProcessWatch& watch)
{
    if (spec.argv.empty())
        return nd_core::make_error(nd_core::ErrorCode::internal_error, "no program to run");
    int out_pipe[2], err_pipe[2];
    if (::pipe2(out_pipe, O_CLOEXEC) != 0)
        return nd_core::make_error(nd_core::ErrorCode::internal_error, std::string("no pipe: ") + std::strerror(errno));
    Fd out_read(out_pipe[0]), out_write(out_pipe[1]);
    if (::pipe2(err_pipe, O_CLOEXEC) != 0)
        return nd_core::make_error(nd_core::ErrorCode::internal_error, std::string("no pipe: ") + std::strerror(errno));
    Fd err_read(err_pipe[0]), err_write(err_pipe[1]);

    const auto start = Clock::now();
    const pid_t pid = TRY(spawn(spec, out_write.fd, err_write.fd));
    out_write.reset();
    err_write.reset();
    Fd pidfd(pidfd_open(pid));
    for (int fd : {out_read.fd, err_read.fd})
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);

    ProcessOutcome outcome;
    Capture out{{}, spec.output_cap}, err{{}, spec.output_cap};
    bool out_open = true, err_open = true, alive = true, killed = false;
    std::optional<Clock::time_point> term_at, ended_at;
    int status = 0;

    auto reap = [&] {
        if (!alive)
            return;
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno == ECHILD)) {
            alive = false;
            ended_at = Clock::now();
        }
    };
    auto end_group = [&](EndReason reason) {
        outcome.reason = reason;
        term_at = Clock::now();
        ::kill(-pid, SIGTERM);
    };

    for (;;) {
        const auto now = Clock::now();
        if (!term_at) {
            if (watch.kill_now && watch.kill_now())
                end_group(EndReason::stopped);
            else if (watch.stopped && watch.stopped())
                end_group(EndReason::stopped);
            else if (alive && now >= watch.deadline)
                end_group(EndReason::timeout);
        }
        if (term_at && !killed && (now - *term_at >= watch.grace || (watch.kill_now && watch.kill_now()))) {
            ::kill(-pid, SIGKILL);
            killed = true;
            ended_at = Clock::now(); // the pipes get their grace from here
        }
        // Done: the process is gone and the pipes are shut, or their grace ran out; after a TERM,
        // not before the group was KILLed (whatever else it started goes with it). A client that
        // went away reads no report: no grace for the pipes then.
        const bool waiting_for_kill = term_at && !killed;
        const bool nobody_reads = watch.kill_now && watch.kill_now();
        if (!alive && !waiting_for_kill &&
            ((!out_open && !err_open) || nobody_reads || (ended_at && now - *ended_at >= PIPE_GRACE)))
            break;

        pollfd fds[3];
        nfds_t n = 0;
        if (out_open)
            fds[n++] = {out_read.fd, POLLIN, 0};
        if (err_open)
            fds[n++] = {err_read.fd, POLLIN, 0};
        const bool watch_pid = alive && pidfd.fd >= 0;
        if (watch_pid)
            fds[n++] = {pidfd.fd, POLLIN, 0};
        if (::poll(fds, n, static_cast<int>(POLL_STEP.count())) < 0 && errno != EINTR)
            break;
        if (out_open)
            out_open = out.read_from(out_read.fd);
        if (err_open)
            err_open = err.read_from(err_read.fd);
        reap();
    }
    if (alive) {
        // A leader that outlived its SIGKILL is in the kernel; wait for it there.
        ::waitpid(pid, &status, 0);
    }
    outcome.duration = std::chrono::duration_cast<milliseconds>(Clock::now() - start);
    if (outcome.reason == EndReason::exited) {
        if (WIFEXITED(status)) {
            outcome.exit_code = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
            outcome.signal = WTERMSIG(status);
            outcome.exit_code = 128 + WTERMSIG(status);
        }
    }
    outcome.out_cut = out.cut || out.text.size() > spec.output_cap;
    outcome.err_cut = err.cut || err.text.size() > spec.output_cap;
    outcome.out = nd_core::utf8_cut(std::move(out.text), spec.output_cap);
    outcome.err = nd_core::utf8_cut(std::move(err.text), spec.output_cap);
    return outcome;
}

} // namespace nd_desk

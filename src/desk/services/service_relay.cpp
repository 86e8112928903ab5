#include "desk/services/service_relay.h"

#include <cerrno>
#include <csignal>
#include <pthread.h>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace nd_desk {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Between connect attempts: short at first (a service that is just binding), then 50 ms.
milliseconds retry_step(int attempt) { return milliseconds(attempt < 10 ? 5 : 50); }

// A pipe for one direction's splices: RELAY_BUFFER_BYTES of room. Closed when it goes.
struct Pipe {
    int read = -1, write = -1;
    Pipe()
    {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) == 0) {
            read = fds[0];
            write = fds[1];
            ::fcntl(write, F_SETPIPE_SZ, static_cast<int>(RELAY_BUFFER_BYTES));
        }
    }
    ~Pipe()
    {
        if (read >= 0)
            ::close(read);
        if (write >= 0)
            ::close(write);
    }
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
};

// Passes `size` bytes held in `pipe` on to `to`. False on an error (errno set).
bool splice_out(Pipe& pipe, int to, std::size_t size, std::uint64_t& passed)
{
    while (size > 0) {
        const ssize_t n = ::splice(pipe.read, nullptr, to, nullptr, size, SPLICE_F_MOVE);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        size -= static_cast<std::size_t>(n);
        passed += static_cast<std::uint64_t>(n);
    }
    return true;
}

// Sends `size` bytes of `data` to `to`. False on an error (errno set).
bool send_all(int to, const char* data, std::size_t size, std::uint64_t& passed)
{
    while (size > 0) {
        const ssize_t n = ::send(to, data, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= static_cast<std::size_t>(n);
        passed += static_cast<std::uint64_t>(n);
    }
    return true;
}

// Until the client-to-service direction takes its first bytes from the client, a reset of the
// service before it sent a byte means the call's first frame went unread (RelayOutcome::unread).
// The two directions settle under one lock which came first; the client-to-service direction waits
// for the client with poll until then, so that it can be woken without taking a byte.
class FirstBytes {
public:
    FirstBytes() : m_wake(::eventfd(0, EFD_CLOEXEC)) {}
    ~FirstBytes()
    {
        if (m_wake >= 0)
            ::close(m_wake);
    }
    FirstBytes(const FirstBytes&) = delete;
    FirstBytes& operator=(const FirstBytes&) = delete;

    // Client to service: waits until the client has bytes (or its end) and claims them; false when
    // the service's reset came first. Without an eventfd, claims at once (nothing is ever unread).
    bool await_taking(int from)
    {
        pollfd fds[2] = {{from, POLLIN, 0}, {m_wake, POLLIN, 0}};
        while (m_wake >= 0 && ::poll(fds, 2, -1) < 0 && errno == EINTR) {
        }
        std::lock_guard lock(m_mutex);
        if (m_unread)
            return false;
        m_taking = true;
        return true;
    }
    // Service to client, at a reset before the service sent a byte: true (and the other direction
    // woken) when nothing had been taken from the client.
    bool claim_unread()
    {
        std::lock_guard lock(m_mutex);
        if (m_taking || m_wake < 0)
            return false;
        m_unread = true;
        const std::uint64_t one = 1;
        [[maybe_unused]] auto n = ::write(m_wake, &one, sizeof one);
        return true;
    }

private:
    std::mutex m_mutex;
    bool m_taking = false;
    bool m_unread = false;
    int m_wake = -1;
};

enum class Pumped { ended, failed, unread };

// One direction, blocking: what `from` sends goes to `to` until `from` closes its end (then `to`'s
// input is closed: ended) or an error (failed, with `error` saying which side failed). It moves
// bytes with splice(2) through a pipe of RELAY_BUFFER_BYTES, from one socket's buffers to the
// other's without a copy into the daemon; where the kernel cannot splice these sockets (EINVAL, or
// no pipe), it copies through a buffer of the same size. The direction from the client waits for
// its first bytes through `first`, and the one from the service tells `first` of a reset before
// its first byte (both then end unread).
Pumped pump(int from, int to, const char* from_name, const char* to_name, std::uint64_t& passed, std::string& error,
    FirstBytes& first, bool from_client)
{
    auto fail = [&](const char* what, const char* side) {
        error = std::string(what) + " the " + side + " failed: " + std::strerror(errno);
        return Pumped::failed;
    };
    if (from_client && !first.await_taking(from))
        return Pumped::unread;
    Pipe pipe;
    bool splicing = pipe.read >= 0;
    std::unique_ptr<char[]> buffer;
    for (;;) {
        ssize_t n;
        if (splicing) {
            n = ::splice(from, nullptr, pipe.write, nullptr, RELAY_BUFFER_BYTES, SPLICE_F_MOVE);
            if (n < 0 && errno == EINVAL && passed == 0) {
                splicing = false;
                continue;
            }
        } else {
            if (!buffer)
                buffer.reset(new char[RELAY_BUFFER_BYTES]);
            n = ::recv(from, buffer.get(), RELAY_BUFFER_BYTES, 0);
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == ECONNRESET && !from_client && passed == 0 && first.claim_unread())
            return Pumped::unread;
        if (n < 0)
            return fail("reading from", from_name);
        if (n == 0) {
            ::shutdown(to, SHUT_WR);
            return Pumped::ended;
        }
        const auto size = static_cast<std::size_t>(n);
        if (!(splicing ? splice_out(pipe, to, size, passed) : send_all(to, buffer.get(), size, passed)))
            return fail("writing to", to_name);
    }
}

// splice(2) has no MSG_NOSIGNAL: a splice into a socket whose peer is gone raises SIGPIPE at the
// thread. The relay blocks it on its thread while it runs, and takes a SIGPIPE that came in that
// time off the thread before unblocking, so a process that does not ignore SIGPIPE survives it.
class SigpipeBlocked {
public:
    SigpipeBlocked()
    {
        sigemptyset(&m_pipe);
        sigaddset(&m_pipe, SIGPIPE);
        sigset_t pending;
        sigpending(&pending);
        m_was_pending = sigismember(&pending, SIGPIPE) == 1;
        pthread_sigmask(SIG_BLOCK, &m_pipe, &m_old);
    }
    ~SigpipeBlocked()
    {
        if (!m_was_pending) {
            const timespec none{0, 0};
            while (sigtimedwait(&m_pipe, nullptr, &none) == SIGPIPE) {
            }
        }
        pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
    }
    SigpipeBlocked(const SigpipeBlocked&) = delete;
    SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

private:
    sigset_t m_pipe, m_old;
    bool m_was_pending = false;
};

} // namespace

nd_core::Result<int> connect_unix_waiting(const std::string& path, milliseconds wait, const std::function<bool()>& give_up)
{
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path)
        return nd_core::make_error(nd_core::ErrorCode::invalid_arguments,
            "the socket path " + path + " is longer than a unix socket takes (" + std::to_string(sizeof addr.sun_path - 1) + " bytes)");
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    const auto until = Clock::now() + wait;
    for (int attempt = 0;; ++attempt) {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return nd_core::make_error(nd_core::ErrorCode::internal_error, std::string("no socket: ") + std::strerror(errno));
        if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0)
            return fd;
        const int err = errno;
        ::close(fd);
        if (err != ENOENT && err != ECONNREFUSED && err != EAGAIN && err != EINTR)
            return nd_core::make_error(nd_core::ErrorCode::action_failed, "cannot connect to " + path + ": " + std::strerror(err));
        if (give_up && give_up())
            return nd_core::make_error(nd_core::ErrorCode::stopped_by_kill_switch, "gave up connecting to " + path);
        if (Clock::now() >= until)
            return nd_core::make_error(nd_core::ErrorCode::timed_out,
                "no service listens at " + path + " after " + std::to_string(wait.count() / 1000) + " s");
        std::this_thread::sleep_for(std::min<Clock::duration>(retry_step(attempt), until - Clock::now()));
    }
}

RelayOutcome relay_both_ways(int a, int b)
{
    RelayOutcome out;
    // Both sockets shut down: the other direction's blocked read or write returns at once.
    auto end_both = [&] {
        ::shutdown(a, SHUT_RDWR);
        ::shutdown(b, SHUT_RDWR);
    };
    FirstBytes first;
    std::string back_error;
    Pumped back_pumped = Pumped::ended;
    std::thread back;
    try {
        back = std::thread([&] {
            SigpipeBlocked no_sigpipe;
            back_pumped = pump(b, a, "service", "client", out.to_a, back_error, first, false);
            if (back_pumped == Pumped::failed)
                end_both();
        });
    } catch (const std::system_error& e) {
        end_both();
        out.error = std::string("no thread for the call's other direction: ") + e.what();
        return out;
    }
    {
        SigpipeBlocked no_sigpipe;
        if (pump(a, b, "client", "service", out.to_b, out.error, first, true) == Pumped::failed)
            end_both();
    }
    back.join();
    out.unread = back_pumped == Pumped::unread;
    if (out.error.empty())
        out.error = std::move(back_error);
    return out;
}

} // namespace nd_desk

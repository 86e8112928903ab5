#include "desk/wire/frame_io.h"

#include "desk/wire/wire.h"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace nd_desk::wire {

namespace {

int remaining_ms(std::optional<Clock::time_point> deadline)
{
    if (!deadline)
        return -1;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1 << 30));
}

// Waits until `fd` is readable. Returns frame (readable), timed_out, woken or failed.
ReadStatus wait_readable(int fd, std::optional<Clock::time_point> deadline, int wake_fd, int& error_number)
{
    for (;;) {
        pollfd fds[2] = {{fd, POLLIN, 0}, {wake_fd, POLLIN, 0}};
        const int ms = remaining_ms(deadline);
        const int n = ::poll(fds, wake_fd >= 0 ? 2 : 1, ms);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            error_number = errno;
            return ReadStatus::failed;
        }
        if (wake_fd >= 0 && (fds[1].revents & POLLIN))
            return ReadStatus::woken;
        if (fds[0].revents)
            return ReadStatus::frame;
        if (n == 0 && ms == 0)
            return ReadStatus::timed_out;
    }
}

// Reads exactly `size` bytes into `out` (appending). Returns frame, closed (EOF at once),
// truncated (EOF later), timed_out, woken or failed.
ReadStatus read_exact(int fd, char* out, std::size_t size, std::optional<Clock::time_point> deadline, int wake_fd,
                      int& error_number)
{
    std::size_t got = 0;
    while (got < size) {
        auto ready = wait_readable(fd, deadline, wake_fd, error_number);
        if (ready != ReadStatus::frame)
            return ready;
        const ssize_t n = ::recv(fd, out + got, size - got, 0);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            error_number = errno;
            return ReadStatus::failed;
        }
        if (n == 0)
            return got == 0 ? ReadStatus::closed : ReadStatus::truncated;
        got += static_cast<std::size_t>(n);
    }
    return ReadStatus::frame;
}

} // namespace

ReadResult read_frame(int fd, std::size_t max_bytes, std::optional<Clock::time_point> deadline, int wake_fd)
{
    ReadResult out;
    unsigned char header[HEADER_BYTES];
    out.status = read_exact(fd, reinterpret_cast<char*>(header), HEADER_BYTES, deadline, wake_fd, out.error_number);
    if (out.status != ReadStatus::frame)
        return out;
    const std::size_t size = size_from_header(header);
    if (size > max_bytes) {
        out.status = ReadStatus::too_large;
        out.announced = size;
        return out;
    }
    out.payload.resize(size);
    auto body = read_exact(fd, out.payload.data(), size, deadline, wake_fd, out.error_number);
    if (body == ReadStatus::closed)
        body = size == 0 ? ReadStatus::frame : ReadStatus::truncated;
    out.status = body;
    if (body != ReadStatus::frame)
        out.payload.clear();
    return out;
}

int write_frame(int fd, std::string_view payload, std::optional<Clock::time_point> deadline)
{
    const std::string header = header_for(payload.size());
    std::string_view parts[2] = {header, payload};
    for (auto part : parts) {
        std::size_t sent = 0;
        while (sent < part.size()) {
            const ssize_t n = ::send(fd, part.data() + sent, part.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n >= 0) {
                sent += static_cast<std::size_t>(n);
                continue;
            }
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                return errno;
            pollfd p{fd, POLLOUT, 0};
            const int ms = remaining_ms(deadline);
            const int ready = ::poll(&p, 1, ms);
            if (ready == 0 && ms == 0)
                return ETIMEDOUT;
            if (ready > 0 && (p.revents & (POLLERR | POLLHUP)) && !(p.revents & POLLOUT))
                return EPIPE;
        }
    }
    return 0;
}

std::string describe(const ReadResult& r)
{
    switch (r.status) {
    case ReadStatus::frame: return "a frame";
    case ReadStatus::closed: return "the connection closed";
    case ReadStatus::truncated: return "the connection closed inside a frame";
    case ReadStatus::too_large:
        return "a frame of " + std::to_string(r.announced) + " bytes is larger than the wire allows";
    case ReadStatus::timed_out: return "no whole frame arrived in time";
    case ReadStatus::woken: return "the wait was interrupted";
    case ReadStatus::failed: return std::string("reading the connection failed: ") + std::strerror(r.error_number);
    }
    return "unknown";
}

} // namespace nd_desk::wire

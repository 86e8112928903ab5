#include "mcp/fd_write.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace nd_mcp {

int write_all(int fd, std::string_view bytes, std::optional<std::chrono::steady_clock::time_point> deadline)
{
    std::size_t offset = 0;
    while (offset < bytes.size()) {
        ssize_t n = ::write(fd, bytes.data() + offset, bytes.size() - offset);
        if (n >= 0) {
            offset += static_cast<std::size_t>(n);
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            return errno;
        // Only a non-blocking descriptor gets here: wait until the reader drains it.
        int timeout_ms = -1;
        if (deadline) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0)
                return ETIMEDOUT;
            timeout_ms = static_cast<int>(left.count());
        }
        pollfd pfd{fd, POLLOUT, 0};
        ::poll(&pfd, 1, timeout_ms);
    }
    return 0;
}

} // namespace nd_mcp

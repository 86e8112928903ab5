#include "driver/daemon/stdio_relay.h"

#include "mcp/fd_write.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace nd_driver {

namespace {

enum class Copy { moved, ended, failed };

Copy copy_once(int from, int to, const char* what)
{
    char buffer[65536];
    const ssize_t n = ::read(from, buffer, sizeof buffer);
    if (n == 0)
        return Copy::ended;
    if (n < 0) {
        if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
            return Copy::moved;
        if (errno == ECONNRESET)
            return Copy::ended;
        std::fprintf(stderr, "nish-driver mcp --connect: reading %s failed: %s\n", what, std::strerror(errno));
        return Copy::failed;
    }
    const int error = nd_mcp::write_all(to, std::string_view(buffer, static_cast<std::size_t>(n)), std::nullopt);
    if (error == 0)
        return Copy::moved;
    if (error == EPIPE || error == ECONNRESET)
        return Copy::ended;
    std::fprintf(stderr, "nish-driver mcp --connect: writing %s failed: %s\n", what, std::strerror(error));
    return Copy::failed;
}

} // namespace

int relay_stdio(int socket_fd, int in_fd, int out_fd)
{
    // A closed stdout or socket is an end, not a signal that kills the process.
    std::signal(SIGPIPE, SIG_IGN);
    bool input_open = true;
    for (;;) {
        pollfd fds[2] = {{socket_fd, POLLIN, 0}, {input_open ? in_fd : -1, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            std::fprintf(stderr, "nish-driver mcp --connect: poll failed: %s\n", std::strerror(errno));
            return 1;
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            switch (copy_once(socket_fd, out_fd, "the daemon's answers")) {
            case Copy::moved: break;
            case Copy::ended:
                if (!input_open)
                    return 0; // it answered everything the client sent, then closed
                // The client still talks: the daemon went away under it (stopped or killed).
                std::fprintf(stderr, "nish-driver mcp --connect: the daemon closed the connection (it stopped or was "
                                     "killed); calls in flight got no answer. Start it again (nish-driver daemon) and "
                                     "reconnect.\n");
                return 1;
            case Copy::failed: return 1;
            }
        }
        if (input_open && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            switch (copy_once(in_fd, socket_fd, "the requests")) {
            case Copy::moved: break;
            case Copy::ended:
                // The client is done asking; the daemon still answers what it sent.
                input_open = false;
                ::shutdown(socket_fd, SHUT_WR);
                break;
            case Copy::failed: return 1;
            }
        }
    }
}

} // namespace nd_driver

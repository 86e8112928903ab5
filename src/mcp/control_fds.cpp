#include "mcp/control_fds.h"

#include <fcntl.h>
#include <unistd.h>

namespace nd_mcp {

namespace {

bool number(std::string_view text, int& out)
{
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string_view::npos)
        return false;
    out = std::stoi(std::string(text));
    return true;
}

} // namespace

std::optional<ControlFds> parse_control_fds(std::string_view value, std::string& error, std::string_view stdio_use)
{
    ControlFds fds;
    const auto comma = value.find(',');
    if (comma == std::string_view::npos || !number(value.substr(0, comma), fds.in) || !number(value.substr(comma + 1), fds.out)) {
        error = "--control-fd takes IN,OUT: two descriptor numbers";
        return std::nullopt;
    }
    for (int fd : {fds.in, fds.out}) {
        if (fd == STDIN_FILENO || fd == STDOUT_FILENO) {
            error = "--control-fd cannot use stdin or stdout";
            if (!stdio_use.empty())
                error += ": " + std::string(stdio_use);
            return std::nullopt;
        }
        if (::fcntl(fd, F_GETFD) < 0) {
            error = "--control-fd: descriptor " + std::to_string(fd) + " is not open";
            return std::nullopt;
        }
    }
    return fds;
}

void close_control_fds_on_exec(const ControlFds& fds)
{
    for (int fd : {fds.in, fds.out})
        if (int flags = ::fcntl(fd, F_GETFD); flags >= 0)
            ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

} // namespace nd_mcp

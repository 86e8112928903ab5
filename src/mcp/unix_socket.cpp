#include "mcp/unix_socket.h"

#include "core/file_lock.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace nd_mcp {

using nd_core::ErrorCode;
using nd_core::make_error;

std::size_t max_unix_path() { return sizeof(sockaddr_un{}.sun_path) - 1; }

namespace {

nd_core::Result<void> make_parents(const std::string& path)
{
    for (std::size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
        const std::string dir = path.substr(0, slash);
        if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
            return make_error(ErrorCode::backend_unavailable, "cannot make the directory " + dir + ": " + std::strerror(errno));
    }
    return {};
}

bool someone_listens(const sockaddr_un& addr)
{
    const int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (probe < 0)
        return false;
    const bool answered = ::connect(probe, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
    ::close(probe);
    return answered;
}

// The lock beside a socket (PATH.lock, 0600, left in place) that daemons take while they decide
// whether a socket file is stale, replace it and listen, and while they close and remove theirs: so
// two daemons started in the same instant cannot both bind (each removing the other's file), and a
// daemon that stops cannot remove the socket of one started after it.
nd_core::Result<nd_core::FileLock> take_start_lock(const std::string& socket_path)
{
    // Held only for a moment by a daemon starting or stopping; a holder past 5 s is not one of
    // ours doing its job.
    const std::string path = socket_path + ".lock";
    return nd_core::FileLock::take(path,
        {.what = "the socket's start lock",
         .busy = "cannot take the socket's start lock " + path + ": another program has held it for over 5 s",
         .open_hint = "; give the socket a path in a directory of your own"},
        std::chrono::seconds(5));
}

sockaddr_un address_of(const std::string& path)
{
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.data(), path.size());
    return addr;
}

} // namespace

nd_core::Result<int> listen_unix(const std::string& path, const std::optional<std::string>& socket_group)
{
    if (path.empty() || path.size() > max_unix_path())
        return make_error(ErrorCode::invalid_arguments, "the socket path is empty or too long for a unix socket: " + path);
    gid_t gid = 0;
    if (socket_group) {
        const group* g = ::getgrnam(socket_group->c_str());
        if (!g)
            return make_error(ErrorCode::invalid_arguments, "the socket group names no group: " + *socket_group);
        gid = g->gr_gid;
    }
    if (path.front() == '/')
        TRY_VOID(make_parents(path));
    sockaddr_un addr = address_of(path);
    const auto lock = TRY(take_start_lock(path));

    struct stat st{};
    if (::lstat(path.c_str(), &st) == 0) {
        if (!S_ISSOCK(st.st_mode))
            return make_error(ErrorCode::invalid_arguments, path + " exists and is not a socket; move it away first");
        if (someone_listens(addr))
            return make_error(ErrorCode::invalid_arguments, "a daemon already listens at " + path);
        ::unlink(path.c_str());
    }
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return make_error(ErrorCode::backend_unavailable, std::string("cannot make a socket: ") + std::strerror(errno));
    // The file is born 0600 (or 0660 for a group): no moment where others could connect.
    const mode_t old_mask = ::umask(socket_group ? 0117 : 0177);
    const int bound = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    const int bind_errno = errno;
    ::umask(old_mask);
    if (bound != 0) {
        ::close(fd);
        return make_error(ErrorCode::backend_unavailable, "cannot bind " + path + ": " + std::strerror(bind_errno));
    }
    if (socket_group) {
        if (::chown(path.c_str(), static_cast<uid_t>(-1), gid) != 0 || ::chmod(path.c_str(), 0660) != 0) {
            const int err = errno;
            ::close(fd);
            ::unlink(path.c_str());
            return make_error(ErrorCode::backend_unavailable,
                "cannot give " + path + " to group " + *socket_group + ": " + std::strerror(err));
        }
    }
    if (::listen(fd, 128) != 0) {
        const int err = errno;
        ::close(fd);
        ::unlink(path.c_str());
        return make_error(ErrorCode::backend_unavailable, "cannot listen on " + path + ": " + std::strerror(err));
    }
    return fd;
}

void unlisten_unix(int fd, const std::string& path)
{
    if (fd < 0)
        return;
    auto lock = take_start_lock(path);
    ::close(fd);
    // Ours is closed, so a daemon that answers at the path is another one, started after the file
    // was last ours: its socket stays. Without the lock, leave the file: the next start replaces it.
    if (lock.ok() && !someone_listens(address_of(path)))
        ::unlink(path.c_str());
}

nd_core::Result<int> connect_unix(const std::string& path)
{
    if (path.empty() || path.size() > max_unix_path())
        return make_error(ErrorCode::invalid_arguments, "the socket path is empty or too long for a unix socket: " + path);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return make_error(ErrorCode::backend_unavailable, std::string("cannot make a socket: ") + std::strerror(errno));
    sockaddr_un addr = address_of(path);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        const int err = errno;
        ::close(fd);
        return make_error(ErrorCode::backend_unavailable, path + " (" + std::strerror(err) + ")");
    }
    return fd;
}

std::optional<PeerCredentials> peer_credentials(int fd)
{
    ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
        return std::nullopt;
    return PeerCredentials{static_cast<int>(cred.pid), static_cast<unsigned>(cred.uid)};
}

} // namespace nd_mcp

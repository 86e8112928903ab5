#include "core/whole_file.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nd_core {

namespace {

Error refused(std::string_view what, const std::string& path, int err)
{
    std::string hint = err == ENOSPC || err == EDQUOT ? "; free some space or pass a path on another disk"
                                                      : "; pass a file in a directory that exists and can be written";
    const std::string reason = err == ELOOP ? "it is a symbolic link, which is not followed" : std::strerror(err);
    return make_error(ErrorCode::invalid_arguments,
        std::string(what) + ": cannot write " + path + " (" + reason + "); nothing was written" + hint);
}

// Every byte, or the errno that stopped it.
int write_all(int fd, std::string_view bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const auto n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : ENOSPC;
        done += static_cast<std::size_t>(n);
    }
    return 0;
}

// A name that is neither a file nor a directory (a pipe, a device) is written as it is: it cannot
// be written whole, and replacing it would break it for everything else that uses it.
Result<void> write_in_place(const std::string& path, std::string_view bytes, std::string_view what, Links links)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK | (links == Links::refuse ? O_NOFOLLOW : 0));
    if (fd < 0)
        return refused(what, path, errno == ENXIO ? EPIPE : errno);
    // Blocking from here on: a pipe whose reader is slow is waited for, as any writer would.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    int err = write_all(fd, bytes);
    if (::close(fd) != 0 && err == 0)
        err = errno;
    if (err != 0)
        return refused(what, path, err);
    return {};
}

} // namespace

Result<void> write_whole_file(const std::string& path, std::string_view bytes, std::string_view what, Links links)
{
    if (path.empty() || path.front() != '/' || path.back() == '/')
        return make_error(ErrorCode::invalid_arguments,
            std::string(what) + ": \"" + path.substr(0, 200) + "\" is not an absolute file path; pass one");
    struct stat st{};
    const bool exists = ::lstat(path.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return refused(what, path, EISDIR);
    if (exists && S_ISLNK(st.st_mode)) {
        struct stat target{};
        if (links == Links::refuse || ::stat(path.c_str(), &target) != 0)
            return refused(what, path, ELOOP);
        if (!S_ISREG(target.st_mode))
            return write_in_place(path, bytes, what, links);
        char* real = ::realpath(path.c_str(), nullptr);
        if (!real)
            return refused(what, path, errno);
        const std::string resolved = real;
        std::free(real);
        return write_whole_file(resolved, bytes, what, Links::refuse);
    }
    if (exists && !S_ISREG(st.st_mode))
        return write_in_place(path, bytes, what, links);
    std::string temporary = path + ".part-XXXXXX";
    const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
    if (fd < 0)
        return refused(what, path, errno);
    // A file it replaces keeps its mode; a new one is the user's alone.
    int err = exists && ::fchmod(fd, st.st_mode & 07777) != 0 ? errno : 0;
    if (err == 0)
        err = write_all(fd, bytes);
    if (::close(fd) != 0 && err == 0)
        err = errno;
    if (err == 0 && ::rename(temporary.c_str(), path.c_str()) != 0)
        err = errno;
    if (err != 0) {
        ::unlink(temporary.c_str());
        return refused(what, path, err);
    }
    return {};
}

} // namespace nd_core

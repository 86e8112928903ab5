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
    return make_error(ErrorCode::invalid_arguments,
        std::string(what) + ": cannot write " + path + " (" + std::strerror(err) + "); nothing was written" + hint);
}

} // namespace

Result<void> write_whole_file(const std::string& path, std::string_view bytes, std::string_view what)
{
    if (path.empty() || path.front() != '/' || path.back() == '/')
        return make_error(ErrorCode::invalid_arguments,
            std::string(what) + ": \"" + path.substr(0, 200) + "\" is not an absolute file path; pass one");
    struct stat st{};
    if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        return refused(what, path, EISDIR);
    std::string temporary = path + ".part-XXXXXX";
    const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
    if (fd < 0)
        return refused(what, path, errno);
    std::size_t done = 0;
    int err = 0;
    while (done < bytes.size()) {
        const auto n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            err = n < 0 ? errno : ENOSPC;
            break;
        }
        done += static_cast<std::size_t>(n);
    }
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

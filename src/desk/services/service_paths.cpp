#include "desk/services/service_paths.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace nd_desk {

namespace {

nd_core::Error fail(const std::string& what) { return nd_core::make_error(nd_core::ErrorCode::internal_error, what); }

std::string directory_of(const std::string& path)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? std::string("/") : path.substr(0, slash);
}

} // namespace

std::string services_dir(const std::string& endpoint) { return directory_of(endpoint) + "/services"; }

std::string service_socket_path(const std::string& endpoint, const std::string& service)
{
    return services_dir(endpoint) + "/" + service + ".sock";
}

nd_core::Result<void> prepare_services_dir(const std::string& dir)
{
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        return fail("cannot make " + dir + ": " + std::strerror(errno));
    struct stat st{};
    if (::lstat(dir.c_str(), &st) != 0)
        return fail("cannot read " + dir + ": " + std::strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return fail(dir + " is not a directory (a link or a file is there); remove it and restart the daemon");
    if (st.st_uid != ::geteuid())
        return fail(dir + " belongs to another user (uid " + std::to_string(st.st_uid) + "); remove it and restart the daemon");
    if ((st.st_mode & 07777) != 0700 && ::chmod(dir.c_str(), 0700) != 0)
        return fail("cannot set " + dir + " to mode 0700: " + std::strerror(errno));
    return {};
}

nd_core::Result<void> remove_stale_socket(const std::string& path)
{
    struct stat st{};
    if (::lstat(path.c_str(), &st) != 0)
        return {};
    if (S_ISDIR(st.st_mode))
        return fail(path + " is a directory; a service's socket cannot be made there");
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
        return fail("cannot remove " + path + ": " + std::strerror(errno));
    return {};
}

} // namespace nd_desk

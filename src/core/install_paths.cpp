#include "core/install_paths.h"

#include <climits>
#include <sys/stat.h>
#include <unistd.h>

#ifndef NISH_BIN_TO_DATA
#define NISH_BIN_TO_DATA "../share"
#endif

namespace nd_core {

std::string program_directory()
{
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return {};
    const std::string path(buf, static_cast<std::size_t>(n));
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::string installed_data_dir(std::string_view sub)
{
    const auto dir = program_directory();
    if (dir.empty())
        return {};
    return dir + "/" NISH_BIN_TO_DATA "/nish" + (sub.empty() ? std::string() : "/" + std::string(sub));
}

std::string first_existing_dir(std::initializer_list<std::string_view> candidates)
{
    for (const auto c : candidates) {
        struct stat st {};
        const std::string path(c);
        if (!path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
            return path;
    }
    return {};
}

} // namespace nd_core

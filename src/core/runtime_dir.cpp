#include "core/runtime_dir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace nd_core {

std::string private_runtime_dir()
{
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    if (runtime && runtime[0] == '/')
        return std::string(runtime) + "/nish-driver";
    return "/tmp/nish-driver-" + std::to_string(::getuid());
}

Result<std::string> ensure_private_runtime_dir()
{
    std::string dir = private_runtime_dir();
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        return make_error(ErrorCode::backend_unavailable, "cannot make the directory " + dir + ": " + std::strerror(errno));
    struct stat st{};
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid())
        return make_error(ErrorCode::backend_unavailable, "the directory " + dir + " is not a directory of this user's");
    return dir;
}

std::string display_file_part(std::string name)
{
    if (name.empty()) {
        const char* env = std::getenv("DISPLAY");
        name = env ? env : "";
    }
    std::string out;
    for (char c : name) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
        out.push_back(plain ? c : '_');
    }
    while (!out.empty() && out.front() == '_')
        out.erase(out.begin());
    return out.empty() ? "default" : out;
}

} // namespace nd_core

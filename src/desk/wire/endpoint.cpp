#include "desk/wire/endpoint.h"

#include "mcp/unix_socket.h"

#include <cstdlib>
#include <pwd.h>
#include <unistd.h>

namespace nd_desk::wire {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

nd_core::Result<std::string> checked(std::string path)
{
    if (path.size() > nd_mcp::max_unix_path())
        return make_error(ErrorCode::invalid_arguments, "the socket path " + path + " is longer than a unix socket allows (" +
                                                            std::to_string(nd_mcp::max_unix_path()) + " bytes)");
    return path;
}

} // namespace

nd_core::Result<std::string> standard_endpoint()
{
    const char* cache = std::getenv("XDG_CACHE_HOME");
    if (cache && cache[0] == '/')
        return checked(std::string(cache) + "/loomhand/shuttle/desk.sock");
    const char* home = std::getenv("HOME");
    std::string home_dir = home && home[0] == '/' ? home : "";
    if (home_dir.empty())
        if (const passwd* pw = ::getpwuid(::getuid()); pw && pw->pw_dir && pw->pw_dir[0] == '/')
            home_dir = pw->pw_dir;
    if (home_dir.empty())
        return make_error(ErrorCode::invalid_arguments, "no home directory is known: set HOME, XDG_CACHE_HOME or SHUTTLE_SOCKET");
    return checked(home_dir + "/.cache/loomhand/shuttle/desk.sock");
}

nd_core::Result<std::string> default_endpoint()
{
    const char* over = std::getenv("SHUTTLE_SOCKET");
    if (over && over[0] != '\0')
        return checked(over);
    return standard_endpoint();
}

} // namespace nd_desk::wire

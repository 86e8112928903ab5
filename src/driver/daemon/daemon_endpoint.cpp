#include "driver/daemon/daemon_endpoint.h"

#include "core/runtime_dir.h"
#include "mcp/unix_socket.h"

#include <cstdlib>

namespace nd_driver {

nd_core::Result<std::string> daemon_endpoint(const std::string& backend_name)
{
    if (const char* env = std::getenv("NISH_DRIVER_SOCKET"); env && *env)
        return std::string(env);
    auto dir = TRY(nd_core::ensure_private_runtime_dir());
    const std::string display = backend_name == "mock" ? "mock" : nd_core::display_file_part("");
    return dir + "/daemon-" + display + ".sock";
}

nd_core::Result<int> connect_daemon(const std::string& socket, const std::string& backend_name)
{
    const std::string path = socket.empty() ? TRY(daemon_endpoint(backend_name)) : socket;
    auto fd = nd_mcp::connect_unix(path);
    if (fd.ok() || fd.error().code != nd_core::ErrorCode::backend_unavailable)
        return fd;
    auto error = fd.error();
    error.message = "no nish-driver daemon answers at " + error.message + ": start one with `nish-driver daemon" +
                    (backend_name == "mock" ? " --backend mock" : "") + "` or `systemctl --user start nish-driver`";
    return error;
}

} // namespace nd_driver

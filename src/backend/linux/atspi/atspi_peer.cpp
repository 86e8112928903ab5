#include "backend/linux/atspi/atspi_peer.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <memory>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

std::optional<std::string> peer_socket_path(std::string_view address)
{
    constexpr std::string_view prefix = "unix:path=";
    if (address.substr(0, prefix.size()) != prefix)
        return std::nullopt;
    std::string_view path = address.substr(prefix.size());
    // sun_path holds 108 bytes with its terminator.
    if (path.empty() || path.front() != '/' || path.size() >= sizeof(sockaddr_un::sun_path))
        return std::nullopt;
    for (char c : path) {
        auto u = static_cast<unsigned char>(c);
        // ',' starts another key, ';' another address, '%' an escape: none belongs in a plain path.
        if (u < 0x21 || u > 0x7e || c == ',' || c == ';' || c == '%')
            return std::nullopt;
    }
    if (path.find("/../") != std::string_view::npos || path.ends_with("/.."))
        return std::nullopt;
    return std::string(path);
}

std::optional<PeerCredentials> socket_peer(int fd)
{
    ucred cred{};
    socklen_t len = sizeof cred;
    if (fd < 0 || ::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || len != sizeof cred)
        return std::nullopt;
    return PeerCredentials{cred.pid, cred.uid};
}

bool socket_belongs_to(int fd, std::int64_t pid)
{
    auto peer = socket_peer(fd);
    return peer && pid > 0 && peer->pid == pid && peer->uid == static_cast<std::int64_t>(::geteuid());
}

nd_core::Result<sd_bus*> connect_peer(std::string_view address, std::int64_t pid)
{
    auto path = peer_socket_path(address);
    if (!path)
        return make_error(ErrorCode::action_failed, "the app's peer address is not a plain unix socket path");
    struct BusUnref {
        void operator()(sd_bus* b) const { sd_bus_flush_close_unref(b); }
    };
    sd_bus* raw = nullptr;
    int r = sd_bus_new(&raw);
    std::unique_ptr<sd_bus, BusUnref> bus(raw);
    std::string normalised = "unix:path=" + *path;
    if (r >= 0)
        r = sd_bus_set_address(bus.get(), normalised.c_str());
    if (r >= 0)
        r = sd_bus_set_bus_client(bus.get(), 0);
    if (r >= 0)
        r = sd_bus_set_description(bus.get(), "nish-atspi-peer");
    if (r >= 0)
        r = sd_bus_start(bus.get());
    if (r < 0)
        return make_error(ErrorCode::action_failed,
                          std::string("cannot connect to the app's peer socket: ") + std::strerror(-r));
    if (!socket_belongs_to(sd_bus_get_fd(bus.get()), pid))
        return make_error(ErrorCode::action_failed,
                          "the app's peer socket belongs to another process than pid " + std::to_string(pid));
    return bus.release();
}

} // namespace nd_linux

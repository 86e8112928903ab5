#pragma once

// Peer-to-peer connections to apps (org.a11y.atspi.Application.GetApplicationBusAddress).
//
// An app built on atk-bridge (GTK3, Chromium) listens on a socket of its own; calls sent there skip
// the bus daemon, which halves a round trip's cost and keeps a 10,000-node walk off the daemon's
// single thread. The address comes from the app itself, so it is trusted only this far: it must be
// exactly `unix:path=/absolute/path` (one address, no other keys, no escapes), and the process at
// the other end of the socket (SO_PEERCRED) must be the app's own pid, under our own uid. Anything
// else is refused and the app is read over the shared bus, as apps without a peer socket are.

#include "core/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <systemd/sd-bus.h>

namespace nd_linux {

// The socket path of an acceptable peer address, or nullopt.
std::optional<std::string> peer_socket_path(std::string_view address);

struct PeerCredentials {
    std::int64_t pid = 0;
    std::int64_t uid = 0;
};

// The credentials of the process at the other end of a connected unix socket.
std::optional<PeerCredentials> socket_peer(int fd);

// Whether the other end of `fd` is process `pid`, running as this process's uid.
bool socket_belongs_to(int fd, std::int64_t pid);

// Connects to an app's peer address (no Hello: a peer is not a bus) and checks that the socket
// belongs to `pid`. The returned connection is the caller's (sd_bus_flush_close_unref).
nd_core::Result<sd_bus*> connect_peer(std::string_view address, std::int64_t pid);

} // namespace nd_linux

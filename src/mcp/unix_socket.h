#pragma once

// The unix sockets both daemons listen on and their clients connect to: shuttle's desk wire
// (docs/wire.md, "Endpoint") and nish-driver's daemon (docs/daemon.md). A socket is private to its
// user (0600) unless a group is named (0660, owned by that group); the file is created with the
// right mode from the start (umask), never opened wider and narrowed later.

#include "core/result.h"

#include <cstddef>
#include <optional>
#include <string>

namespace nd_mcp {

// Longest path a unix socket address holds (sun_path less its terminating zero).
std::size_t max_unix_path();

// Makes missing parent directories (0700), replaces a stale socket file (one nobody listens on),
// refuses a path where a daemon answers or where something other than a socket lies, then binds
// and listens. Returns the listening descriptor (close-on-exec). The check, the replacement and
// the bind happen under a lock beside the socket (PATH.lock, 0600, left in place), so of daemons
// started at one path in the same instant exactly one listens.
nd_core::Result<int> listen_unix(const std::string& path, const std::optional<std::string>& socket_group = std::nullopt);

// Closes a descriptor listen_unix gave and removes the socket file, unless (under the same lock)
// another daemon already listens at the path.
void unlisten_unix(int fd, const std::string& path);

// Connects to the socket at path. invalid_arguments for a path no unix socket can have;
// backend_unavailable when nothing answers, its message "PATH (REASON)" for the caller to say
// what should have answered and how to start it.
nd_core::Result<int> connect_unix(const std::string& path);

struct PeerCredentials {
    int pid = -1;
    unsigned uid = ~0u;
};

// Who is at the other end of a connected unix socket (SO_PEERCRED); none when it cannot be told.
std::optional<PeerCredentials> peer_credentials(int fd);

} // namespace nd_mcp

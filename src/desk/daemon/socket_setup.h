#pragma once

// The daemon's listening socket (docs/wire.md, "Endpoint"): private to its user (0600) unless
// config.toml names a socket_group (0660, owned by that group). The file is created with the
// right mode from the start (umask), never opened wider and narrowed later.

#include "core/result.h"

#include <optional>
#include <string>

namespace nd_desk {

// Makes missing parent directories (0700), replaces a stale socket file (one nobody listens on),
// refuses a path where a daemon answers or where something other than a socket lies, then binds
// and listens. Returns the listening descriptor.
nd_core::Result<int> listen_on(const std::string& path, const std::optional<std::string>& socket_group);

} // namespace nd_desk

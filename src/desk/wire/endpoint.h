#pragma once

// Where the daemon listens (docs/wire.md): SHUTTLE_SOCKET when set, else
// $XDG_CACHE_HOME/loomhand/shuttle/desk.sock (an absolute XDG_CACHE_HOME only, as the XDG spec
// says), else ~/.cache/loomhand/shuttle/desk.sock. A unix socket path must fit sun_path.

#include "core/result.h"

#include <string>

namespace nd_desk::wire {

// invalid_arguments when no HOME is known or the path is too long for a unix socket.
nd_core::Result<std::string> default_endpoint();

// The same rule without SHUTTLE_SOCKET (what the daemon uses unless told otherwise).
nd_core::Result<std::string> standard_endpoint();

} // namespace nd_desk::wire

#pragma once

// Where the driver daemon listens (docs/daemon.md): NISH_DRIVER_SOCKET when set, else
// <private runtime dir>/daemon-<display>.sock ($XDG_RUNTIME_DIR/nish-driver/daemon-0.sock for
// DISPLAY=:0), one per display; the mock backend's daemon is daemon-mock.sock. The directory is
// made private (0700) on the way, and refused when it is not this user's own.

#include "core/result.h"

#include <string>

namespace nd_driver {

// backend_name is the --backend value (auto, mock, linux).
nd_core::Result<std::string> daemon_endpoint(const std::string& backend_name);

// Connects to the daemon at socket (empty: daemon_endpoint(backend_name)). The error says how to
// start one.
nd_core::Result<int> connect_daemon(const std::string& socket, const std::string& backend_name);

} // namespace nd_driver

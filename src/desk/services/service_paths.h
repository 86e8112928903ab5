#pragma once

// Where a service listens (docs/services.md): services/<service>.sock beside the daemon's endpoint,
// in a directory of mode 0700 that only the daemon's user reaches.

#include "core/result.h"

#include <string>

namespace nd_desk {

// services/ beside the endpoint.
std::string services_dir(const std::string& endpoint);
// services/<service>.sock beside the endpoint.
std::string service_socket_path(const std::string& endpoint, const std::string& service);

// Makes the directory (0700) when missing; an existing one must be a directory (not a link) the
// daemon's user owns, and is set to 0700. Errors name the path and what is wrong with it.
nd_core::Result<void> prepare_services_dir(const std::string& dir);

// Removes what a service left at `path` (a socket, or any other file); a directory there is an error.
nd_core::Result<void> remove_stale_socket(const std::string& path);

} // namespace nd_desk

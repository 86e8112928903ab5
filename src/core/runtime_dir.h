#pragma once

// The user's private runtime directory of nish-driver (docs/architecture.md, "One engine per
// display"): $XDG_RUNTIME_DIR/nish-driver, else /tmp/nish-driver-<uid>. It holds the per-display
// takeover locks and the driver daemon's sockets, so it must be a directory of this user's only:
// one that someone else made (in /tmp) could let them hold our lock or listen in our place.

#include "core/result.h"

#include <string>

namespace nd_core {

// The directory's path; nothing is made.
std::string private_runtime_dir();

// Makes the directory (0700) when missing and checks it is a directory this user owns.
// backend_unavailable with the path and the reason otherwise.
Result<std::string> ensure_private_runtime_dir();

// A display's name as a file name part: ":99.0" -> "99.0"; anything but letters, digits, '.' and
// '-' becomes '_', leading '_' are dropped; empty (no name and no $DISPLAY) -> "default".
// An empty name means $DISPLAY.
std::string display_file_part(std::string name);

} // namespace nd_core

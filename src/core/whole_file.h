#pragma once

// Writing a file the caller named (a screenshot's --out, shot's path) whole or not at all: the bytes
// go to a new temporary file beside it, which is renamed over the name only once every byte is
// written and the file is closed. A full disk, a write error or a crash leaves the name as it was
// (absent, or its old content) and no temporary file behind. A new file is private to its user
// (mode 0600: a picture of the screen is as private as the screen); a file it replaces keeps its
// mode. A symbolic link is refused, never followed or replaced (Links::refuse: a path an agent
// chose), or followed to what it names (Links::follow: the person's own command line). A name that is neither a file nor
// a directory (a pipe, /dev/stdout's target, a device) is written as it is, never replaced: it
// cannot be written whole, and replacing it would break it for everything else.

#include "core/result.h"

#include <string>
#include <string_view>

namespace nd_core {

// Errors (invalid_arguments, the message starting "<what>: " and naming the path and the system's
// reason): a path that is not absolute, a directory that does not exist or cannot be written, a
// name that is a directory or a symbolic link, a disk that fills up, a pipe no one reads.
enum class Links { refuse, follow };

Result<void> write_whole_file(const std::string& path, std::string_view bytes, std::string_view what = "path",
    Links links = Links::refuse);

} // namespace nd_core

#pragma once

// Writing a file the caller named (a screenshot's --out, shot's path) whole or not at all: the bytes
// go to a new private temporary file beside it, which is renamed over the name only once every byte
// is written and the file is closed. A full disk, a write error or a crash leaves the name as it was
// (absent, or its old content) and no temporary file behind. The name's last component is replaced,
// never followed, when it is a symbolic link. The file is private to its user (mode 0600): a
// picture of the screen is as private as the screen.

#include "core/result.h"

#include <string>
#include <string_view>

namespace nd_core {

// Errors (invalid_arguments, the message starting "<what>: " and naming the path and the system's
// reason): a path that is not absolute, a directory that does not exist or cannot be written, a
// name that is a directory, a disk that fills up.
Result<void> write_whole_file(const std::string& path, std::string_view bytes, std::string_view what = "path");

} // namespace nd_core

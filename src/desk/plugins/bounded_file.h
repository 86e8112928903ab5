#pragma once

// Reading a whole file the user names (a plugin file, a plugin's resource) without trusting it to
// be small or even a file: a regular file (a symbolic link is followed) of at most `cap` bytes.

#include "core/result.h"

#include <cstddef>
#include <string>

namespace nd_desk {

// The file's bytes. The error's message says what is wrong without naming the file (the caller
// does): "cannot be read: <why>", "is not a regular file", "is N bytes, more than M".
nd_core::Result<std::string> read_bounded_file(const std::string& path, std::size_t cap);

} // namespace nd_desk

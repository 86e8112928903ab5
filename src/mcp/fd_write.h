#pragma once

// Writing a whole line to a descriptor that may be non-blocking: the MCP server's stdout and the
// control pipe's output share this loop.

#include <chrono>
#include <optional>
#include <string_view>

namespace nd_mcp {

// Writes all of `bytes` to `fd`, retrying on EINTR and waiting for POLLOUT while a non-blocking
// descriptor is full, until `deadline` (none: as long as it takes). Returns 0 once everything is
// written, ETIMEDOUT when the deadline passed first, else the errno of the failed write.
int write_all(int fd, std::string_view bytes, std::optional<std::chrono::steady_clock::time_point> deadline);

} // namespace nd_mcp

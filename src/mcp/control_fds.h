#pragma once

// --control-fd IN,OUT (docs/control-pipe.md): the two descriptors a host passes down for its
// control pipe. nish-driver mcp and shuttle daemon take the same value the same way.

#include <optional>
#include <string>
#include <string_view>

namespace nd_mcp {

struct ControlFds {
    int in = -1;
    int out = -1; // may be the same descriptor as in (one end of a socket pair)
};

// "IN,OUT": two open descriptors, neither stdin nor stdout. Nothing, and the message in `error`,
// when the value is not that; `stdio_use` says why stdin and stdout are refused ("MCP uses them").
std::optional<ControlFds> parse_control_fds(std::string_view value, std::string& error, std::string_view stdio_use = {});

// Marks both close-on-exec, so the programs the caller starts never inherit the host's pipe.
void close_control_fds_on_exec(const ControlFds&);

} // namespace nd_mcp

#pragma once

// `nish-driver mcp --connect` (docs/daemon.md): an MCP client that can only start a program over
// stdio reaches the daemon through this. It copies stdin to the daemon's socket and the socket to
// stdout, byte for byte; at the end of stdin it half-closes the socket, so the answers to what
// was sent still arrive, and it ends when the daemon closes the connection.

namespace nd_driver {

// Returns 0 when either side ended normally, 1 on a read or write error (reported on stderr).
int relay_stdio(int socket_fd, int in_fd = 0, int out_fd = 1);

} // namespace nd_driver

#pragma once

// The two halves of a service call on the daemon's side (docs/services.md, "Routing"): reaching the
// service's socket, and passing bytes both ways once the first frame is through. Nothing after the
// first frame is parsed, and no size cap or deadline applies.

#include "core/result.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace nd_desk {

// The buffer each direction copies through.
inline constexpr std::size_t RELAY_BUFFER_BYTES = 64 * 1024;

// A connected socket to the unix socket at `path`, trying again while nothing listens there yet
// (no file, or a refused connect) until `wait` has passed or `give_up()` turns true (asked between
// tries). Errors: timed_out ("no service listens at ..."), stopped_by_kill_switch (gave up), or the connect's own
// failure (a path too long, a permission denied).
nd_core::Result<int> connect_unix_waiting(const std::string& path, std::chrono::milliseconds wait,
    const std::function<bool()>& give_up);

struct RelayOutcome {
    std::uint64_t to_b = 0; // bytes passed from a to b
    std::uint64_t to_a = 0; // and from b to a
    std::string error;      // the first error, or empty when both sides closed their ends
    // `b` was reset (it closed with bytes it had not read, ECONNRESET) before it sent a byte and
    // before a byte was taken from `a`: what was written to it before the relay (a call's first
    // frame) went unread, for a service that exited before it read its call, or with the call still
    // in its listen queue. `a` is left as it was, and the call may be sent again.
    bool unread = false;
};

// Copies what `a` sends to `b` and what `b` sends to `a` through a buffer of RELAY_BUFFER_BYTES
// each way (a pipe that splice(2) fills and empties, so the bytes are not copied into the daemon),
// one direction on the calling thread and the other on a thread of its own, both blocking. When
// one side closes its end (end of file), the other side's input is closed (shutdown SHUT_WR) once
// everything before the end has been passed on, and the other direction goes on. Returns when both
// sides have closed their ends, or at the first error (a failed read or write, a reset), which
// shuts both sockets down so the other direction ends too; except a reset of `b` that leaves its
// input unread (RelayOutcome::unread), which leaves `a` untouched. The descriptors are left open;
// they must be blocking. SIGPIPE is blocked on both threads while they write.
RelayOutcome relay_both_ways(int a, int b);

} // namespace nd_desk

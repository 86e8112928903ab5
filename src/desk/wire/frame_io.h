#pragma once

// Reading and writing whole frames on a stream socket, with a deadline and a size cap, for every
// user of the wire. A reader waits in poll(), so a peer that sends half a frame and stops costs a
// thread its deadline, never forever; `wake_fd` (an eventfd or pipe, -1 for none) ends a wait early.

#include "core/result.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace nd_desk::wire {

using Clock = std::chrono::steady_clock;

enum class ReadStatus : std::uint8_t {
    frame,     // `payload` holds one whole frame
    closed,    // the peer closed before the first byte of a frame: a clean end
    truncated, // the peer closed inside a frame
    too_large, // the header announced more than the cap; the connection cannot be resynced
    timed_out, // the deadline passed
    woken,     // wake_fd became readable
    failed,    // a read error (errno in `error_number`)
};

struct ReadResult {
    ReadStatus status = ReadStatus::failed;
    std::string payload;
    std::size_t announced = 0; // with too_large: the size the header gave
    int error_number = 0;
};

// Reads one frame of at most `max_bytes`. No deadline: waits as long as it takes.
ReadResult read_frame(int fd, std::size_t max_bytes, std::optional<Clock::time_point> deadline, int wake_fd = -1);

// Writes one frame (header and payload). Returns 0, ETIMEDOUT, EPIPE or the write's errno.
int write_frame(int fd, std::string_view payload, std::optional<Clock::time_point> deadline);

std::string describe(const ReadResult&);

} // namespace nd_desk::wire

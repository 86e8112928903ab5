#pragma once

// One supervised child process for script_run and the plugins: started in a process group of its
// own with stdin on /dev/null and its stdout and stderr on pipes, watched until it ends or must be
// ended. Ending it is SIGTERM to the group, then SIGKILL to what is left of the group after the
// grace (at once when `kill_now` turns true during it), then up to RUN_PIPE_GRACE for the pipes.
// Linux: posix_spawn, a pidfd, poll.

#include "core/result.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace nd_desk {

struct ProcessSpec {
    std::vector<std::string> argv; // argv[0]: an absolute program path
    std::vector<std::string> env;  // "NAME=value"
    std::string work_dir;
    std::size_t output_cap = 32 * 1024;
};

enum class EndReason : std::uint8_t { exited, timeout, stopped };

struct ProcessOutcome {
    EndReason reason = EndReason::exited;
    std::optional<int> exit_code;     // exited: its code, or 128 + the signal that ended it
    std::optional<int> signal;        // exited through a signal it did not get from us
    std::string out, err;             // the first output_cap bytes, cut at a character
    bool out_cut = false, err_cut = false;
    std::chrono::milliseconds duration{0};
};

struct ProcessWatch {
    std::chrono::steady_clock::time_point deadline;
    std::function<bool()> stopped;    // a safety stop (or a cancel): end it as stopped
    std::function<bool()> kill_now;   // the client went away: no grace
    std::chrono::milliseconds grace{2000};
};

// Runs the process to its end under the watch. Errors only when it could not start.
nd_core::Result<ProcessOutcome> run_process(const ProcessSpec&, const ProcessWatch&);


} // namespace nd_desk

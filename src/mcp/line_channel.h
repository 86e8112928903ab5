#pragma once

// The line IO of a host control pipe (docs/control-pipe.md): two descriptors a host passed down.
// A thread reads request lines from IN (LineReader, capped) and writes each reply on OUT; other
// threads write their event lines to OUT too. Every line is written whole under one lock, so
// replies and events never interleave inside a line.
//
// Writes are bounded: OUT is made non-blocking and a line that cannot be written within the write
// timeout (a host that stopped reading) closes the output for good, so a stuck host never holds a
// caller. End of file on IN ends the reader quietly; lines still go out. SIGPIPE is ignored, so a
// host that closed its reading end gives EPIPE. The channel closes neither descriptor: the caller
// keeps them open while it runs. nish-driver's ControlPipe and shuttle's HostControl use it.

#include "core/result.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace nd_mcp {

struct LineChannelOptions {
    std::size_t max_line_bytes = 64 * 1024; // requests are a few hundred bytes
    std::chrono::milliseconds write_timeout{2000};
    std::string log_prefix = "control pipe: "; // before each stderr line
};

class LineChannel {
public:
    // One non-blank request line (without its newline) to its reply line (without one; empty: no
    // reply). Runs on the reader thread.
    using Handler = std::function<std::string(std::string_view line)>;
    // Nobody can answer any more: the input ended or failed, the reader was stopped, or a write
    // failed. May run more than once, on the reader's thread or a writer's.
    using Closed = std::function<void()>;

    LineChannel(int in_fd, int out_fd, Handler, Closed, LineChannelOptions = {});
    // Stops the reader and joins it.
    ~LineChannel();
    LineChannel(const LineChannel&) = delete;
    LineChannel& operator=(const LineChannel&) = delete;

    // Makes OUT non-blocking, runs `before_reading` (may be empty: what must be in place before
    // the first request is handled) and starts the reader. Fails when the wake pipe cannot be made.
    nd_core::Result<void> start(const std::function<void()>& before_reading = {});
    // Ends the reader (its Closed runs) and joins it. Lines may still be sent after.
    void stop();

    // Writes one line and its newline; false (and Closed) once the output is closed or timed out.
    bool send(std::string_view line);
    // False once the host closed its reading end (a hang-up or an error, seen without a write).
    bool output_alive() const;

private:
    void read_loop();
    bool write_line(std::string_view line);
    void closed();
    void log(std::string_view what) const;

    int m_in_fd;
    int m_out_fd;
    Handler m_handle;
    Closed m_closed;
    LineChannelOptions m_options;
    int m_wake_pipe[2] = {-1, -1};
    std::thread m_reader;
    std::mutex m_write_mutex;
    bool m_output_closed = false; // guarded by m_write_mutex
};

} // namespace nd_mcp

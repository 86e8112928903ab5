#pragma once

// A client connection to the daemon (docs/wire.md): connect, send a request frame, read the
// response frame. One call at a time per connection. Closing the connection during a call asks the
// daemon to cancel it; `shuttle mcp` does that when its client cancels.

#include "desk/wire/frame_io.h"
#include "desk/wire/wire.h"

#include <string>

namespace nd_desk::wire {

class Client {
public:
    // Errors: backend_unavailable when nothing listens at `path` (the message says to start
    // `shuttle daemon`), timed_out.
    static nd_core::Result<Client> connect(const std::string& path);
    Client(Client&&) noexcept;
    Client& operator=(Client&&) noexcept;
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;
    ~Client();

    // Sends `request` and waits for its response until `deadline` (none: as long as it takes) or
    // until `wake_fd` is readable: then the call is cancelled and the connection closed, which the
    // daemon takes as a cancel. A failure (the daemon went away, a malformed answer, the deadline)
    // also closes the connection and says what happened in `failure`.
    enum class CallStatus : std::uint8_t { answered, cancelled, failed };
    struct CallResult {
        CallStatus status = CallStatus::failed;
        Response response;   // with answered
        std::string failure; // with failed: what went wrong, for the caller's error text
    };
    CallResult call(const Request&, std::optional<Clock::time_point> deadline = std::nullopt, int wake_fd = -1);

    int fd() const { return m_fd; }
    void close();

private:
    explicit Client(int fd) : m_fd(fd) {}
    int m_fd = -1;
};

} // namespace nd_desk::wire

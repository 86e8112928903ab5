#include "desk/wire/client.h"

#include "mcp/unix_socket.h"

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace nd_desk::wire {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<Client> Client::connect(const std::string& path)
{
    auto fd = nd_mcp::connect_unix(path);
    if (fd.ok())
        return Client(*fd);
    auto error = fd.error();
    if (error.code == ErrorCode::backend_unavailable)
        error.message = "no shuttle daemon answers at " + error.message + ": start it with `shuttle daemon`";
    return error;
}

Client::Client(Client&& other) noexcept : m_fd(other.m_fd) { other.m_fd = -1; }

Client& Client::operator=(Client&& other) noexcept
{
    if (this != &other) {
        close();
        m_fd = other.m_fd;
        other.m_fd = -1;
    }
    return *this;
}

Client::~Client() { close(); }

void Client::close()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
}

Client::CallResult Client::call(const Request& request, std::optional<Clock::time_point> deadline, int wake_fd)
{
    CallResult out;
    if (m_fd < 0) {
        out.failure = "the connection to the daemon is closed";
        return out;
    }
    const std::string payload = encode_request(request);
    if (payload.size() > MAX_REQUEST_BYTES) {
        out.failure = "the request is " + std::to_string(payload.size()) + " bytes; the wire takes at most " +
                      std::to_string(MAX_REQUEST_BYTES);
        return out;
    }
    if (int err = write_frame(m_fd, payload, deadline); err != 0) {
        out.failure = std::string("sending the request to the daemon failed: ") + std::strerror(err);
        close();
        return out;
    }
    auto read = read_frame(m_fd, MAX_RESPONSE_BYTES, deadline, wake_fd);
    if (read.status == ReadStatus::woken) {
        close(); // the daemon cancels the call when its connection closes
        out.status = CallStatus::cancelled;
        return out;
    }
    if (read.status != ReadStatus::frame) {
        out.failure = "the daemon's answer did not arrive: " + describe(read);
        close();
        return out;
    }
    auto decoded = decode_response(read.payload);
    if (!decoded) {
        out.failure = "the daemon's answer is malformed: " + decoded.error().message;
        close();
        return out;
    }
    out.status = CallStatus::answered;
    out.response = std::move(decoded).value();
    return out;
}

} // namespace nd_desk::wire

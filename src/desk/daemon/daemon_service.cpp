// The daemon's side of a service tool's call (docs/services.md): refused while a safety stop is
// on, else handed to the router, which connects to the service and relays the connection. A call
// that never reached the service is answered with an error frame and the connection goes on; once
// the relay ran, the connection is over.

#include "desk/daemon/daemon.h"
#include "desk/wire/frame_io.h"

#include <cstdlib>
#include <poll.h>

namespace nd_desk {

namespace w = wire;

namespace {

// The client closed its connection altogether (not just its sending side, which a call may do).
bool hung_up(int fd)
{
    pollfd p{fd, 0, 0};
    return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR)) != 0;
}

// A response to a refused call must be taken within this.
constexpr std::chrono::seconds REFUSAL_WRITE_TIMEOUT{10};

} // namespace

ServiceLaunch Daemon::service_launch(const DaemonOptions& options)
{
    const char* home = std::getenv("HOME");
    return ServiceLaunch{options.endpoint, home && *home ? home : "/", options.config.value_or(DeskConfig{}).model_key_variables()};
}

bool Daemon::serve_service_call(int fd, std::string_view payload, const ServiceRoute& route)
{
    auto refuse = [&](const w::Response& response) {
        return w::write_frame(fd, w::encode_response(response), w::Clock::now() + REFUSAL_WRITE_TIMEOUT) == 0;
    };
    if (m_desk->safety_stop().stopped())
        return refuse(w::error_text(STOPPED_REFUSAL));
    auto refused = m_router->call(fd, payload, route,
        [&] { return m_stopping.load() || m_desk->safety_stop().stopped() || hung_up(fd); });
    return refused && refuse(*refused);
}

} // namespace nd_desk

#include "desk/services/service_router.h"

#include "desk/safety_stop.h"
#include "desk/services/service_paths.h"
#include "desk/services/service_relay.h"
#include "desk/wire/frame_io.h"

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <unistd.h>

namespace nd_desk {

namespace w = wire;

namespace {

// The first frame must be taken by the service within this.
constexpr std::chrono::seconds FIRST_FRAME_WRITE_TIMEOUT{10};
// A call that a service closed unread is sent again at most this often.
constexpr int MAX_UNREAD_RESENDS = 2;

} // namespace

ServiceRouter::ServiceRouter(const std::vector<Service>& services, const std::string& endpoint,
    std::chrono::milliseconds connect_wait)
    : m_connect_wait(connect_wait)
{
    for (const auto& service : services)
        for (const auto& tool : service.tools)
            m_tools.emplace(tool.name, ServiceRoute{service.name, service_socket_path(endpoint, service.name)});
}

std::optional<w::Response> ServiceRouter::call(int client_fd, std::string_view payload, const ServiceRoute& route,
    const std::function<bool()>& give_up)
{
    for (int sent = 0;; ++sent) {
        auto connected = connect_unix_waiting(route.socket, m_connect_wait, give_up);
        if (!connected) {
            if (connected.error().code == nd_core::ErrorCode::timed_out)
                return w::error_text("service " + route.service + " is not listening: " + connected.error().message +
                                     " (it may be starting again after an exit; the daemon's log says why)");
            return w::error_text("service " + route.service + ": " + connected.error().message);
        }
        const int service_fd = *connected;
        std::list<std::pair<int, int>>::iterator entry;
        {
            std::lock_guard lock(m_mutex);
            entry = m_in_flight.emplace(m_in_flight.end(), client_fd, service_fd);
        }
        auto forget = [&] {
            std::lock_guard lock(m_mutex);
            m_in_flight.erase(entry);
            ::close(service_fd);
        };
        // A stop that came while it connected refuses the call before the service sees it.
        if (give_up && give_up()) {
            forget();
            return w::error_text(STOPPED_REFUSAL);
        }
        // A service that exits with the call still in its listen queue (or accepted, unread) has
        // not seen it: the call goes to the service started next, within the connect wait again.
        const bool again = sent < MAX_UNREAD_RESENDS;
        if (const int err = w::write_frame(service_fd, payload, w::Clock::now() + FIRST_FRAME_WRITE_TIMEOUT); err != 0) {
            forget();
            if (again && (err == EPIPE || err == ECONNRESET))
                continue;
            return w::error_text("service " + route.service + " did not take the call: " +
                                 (err == ETIMEDOUT ? std::string("it read nothing for 10 s") : std::string(std::strerror(err))));
        }
        const auto outcome = relay_both_ways(client_fd, service_fd);
        forget();
        if (!outcome.unread)
            return std::nullopt;
        if (give_up && give_up())
            return w::error_text(STOPPED_REFUSAL);
        if (!again)
            return w::error_text("service " + route.service + " closed the call unread " + std::to_string(sent + 1) +
                                 " times (it exits before it reads its calls; the daemon's log says why)");
    }
}

void ServiceRouter::close_all()
{
    std::lock_guard lock(m_mutex);
    for (const auto& [client, service] : m_in_flight) {
        ::shutdown(client, SHUT_RDWR);
        ::shutdown(service, SHUT_RDWR);
    }
}

} // namespace nd_desk

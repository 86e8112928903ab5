#pragma once

// Routing a desk call to the service that serves its tool (docs/services.md, "Routing"). The daemon
// reads the frame's tool with the wire's peek (no full decode) and looks it up here; a service tool's
// connection then belongs to the service: the router connects to the service's socket (waiting up to
// SERVICE_CONNECT_WAIT while it starts), writes the frame exactly as it was read, and relays bytes
// both ways until both sides have closed their ends or the first error. The safety stop ends every
// call in flight at once, without a reply.

#include "desk/plugins/service_decl.h"
#include "desk/wire/wire.h"

#include <chrono>
#include <functional>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nd_desk {

inline constexpr std::chrono::milliseconds SERVICE_CONNECT_WAIT{10000};

struct ServiceRoute {
    std::string service; // its name
    std::string socket;  // where it listens
};

class ServiceRouter {
public:
    ServiceRouter() = default;
    ServiceRouter(const std::vector<Service>& services, const std::string& endpoint,
        std::chrono::milliseconds connect_wait = SERVICE_CONNECT_WAIT);
    ServiceRouter(const ServiceRouter&) = delete;
    ServiceRouter& operator=(const ServiceRouter&) = delete;

    // The route of a service's tool (listed on MCP or not), or null: one hash lookup, no allocation.
    const ServiceRoute* find(std::string_view tool) const
    {
        const auto it = m_tools.find(tool);
        return it == m_tools.end() ? nullptr : &it->second;
    }

    // One call for the client on `client_fd`, whose first frame's payload is `payload`. Returns the
    // error response to send when the call never reached the service (nothing listened within the
    // wait, the frame could not be written, `give_up()` turned true first, the service closed it
    // unread each time it was sent); nothing once the relay ran: the connection is then over, and
    // the caller closes it without a reply. A call the service closed unread (it exited with the
    // call in its listen queue, or before it read it: RelayOutcome::unread) is sent again, twice at
    // most, each time waiting for a listener as the first time.
    std::optional<wire::Response> call(int client_fd, std::string_view payload, const ServiceRoute&,
        const std::function<bool()>& give_up);

    // Ends every call in flight: both of its sockets are shut down, so the client reads the end of
    // the stream with no reply and the service reads end of file.
    void close_all();

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, ServiceRoute, Hash, std::equal_to<>> m_tools;
    std::chrono::milliseconds m_connect_wait = SERVICE_CONNECT_WAIT;
    std::mutex m_mutex;
    std::list<std::pair<int, int>> m_in_flight; // (client, service)
};

} // namespace nd_desk

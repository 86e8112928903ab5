#include "backend/linux/atspi/atspi_bus.h"

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_names.h"
#include "backend/linux/atspi/atspi_peer.h"

#include <algorithm>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

struct BusUnref {
    void operator()(sd_bus* b) const { sd_bus_flush_close_unref(b); }
};
using BusPtr = std::unique_ptr<sd_bus, BusUnref>;

std::string errno_text(int r) { return std::strerror(r < 0 ? -r : r); }

} // namespace

nd_core::Result<std::string> address_from_session_bus(std::chrono::milliseconds timeout)
{
    sd_bus* raw = nullptr;
    int r = sd_bus_open_user(&raw);
    if (r < 0)
        return make_error(ErrorCode::backend_unavailable,
                          "no session bus to ask for the AT-SPI bus address: " + errno_text(r));
    BusPtr session(raw);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        sd_bus_message* call = nullptr;
        r = sd_bus_message_new_method_call(session.get(), &call, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus",
                                           "GetAddress");
        if (r < 0)
            return make_error(ErrorCode::backend_unavailable, "cannot build org.a11y.Bus.GetAddress: " + errno_text(r));
        MessagePtr request(call);
        const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - std::chrono::steady_clock::now());
        sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_message* reply = nullptr;
        r = sd_bus_call(session.get(), request.get(), static_cast<std::uint64_t>(std::max<std::int64_t>(left.count(), 1000)),
                        &error, &reply);
        if (r >= 0) {
            MessagePtr answer(reply);
            const char* address = nullptr;
            r = sd_bus_message_read(answer.get(), "s", &address);
            if (r < 0 || address == nullptr || *address == '\0')
                return make_error(ErrorCode::backend_unavailable, "org.a11y.Bus.GetAddress returned no address");
            return std::string(address);
        }
        std::string why = error.name ? error.name : errno_text(r);
        // A NoReply long before the timeout: the launcher that owned the name died under the call
        // (a bus that was just lost); the session bus starts a new one for the next call.
        const bool owner_died = error.name && std::string_view(error.name) == "org.freedesktop.DBus.Error.NoReply";
        sd_bus_error_free(&error);
        if (!owner_died || std::chrono::steady_clock::now() + std::chrono::milliseconds(50) >= deadline)
            return make_error(ErrorCode::backend_unavailable, "the session bus does not name an AT-SPI bus (" + why + ")");
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

AtspiBus::AtspiBus(sd_bus* bus, std::string address) : m_bus(bus), m_address(std::move(address))
{
    const char* env = std::getenv("NISH_ATSPI_PEER");
    m_peers_enabled = !(env && std::string_view(env) == "0");
    if (const char* lanes = std::getenv("NISH_ATSPI_LANES"); lanes && *lanes >= '1' && *lanes <= '9' && !lanes[1])
        m_lanes = std::min<std::size_t>(static_cast<std::size_t>(*lanes - '0'), MAX_PEER_LANES);
}

AtspiBus::~AtspiBus()
{
    close_peers();
    if (m_bus)
        sd_bus_flush_close_unref(m_bus);
}

void AtspiBus::use_peer(const std::string& app_name, std::int64_t pid, Deadline deadline)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_peers_enabled || m_peers.count(app_name) || m_no_peer.count(app_name))
            return;
    }
    auto reply = call({app_name, ROOT_PATH, IFACE_APPLICATION, "GetApplicationBusAddress"}, {}, deadline);
    std::string address;
    if (reply) {
        const char* text = nullptr;
        if (sd_bus_message_read(reply->get(), "s", &text) > 0 && text)
            address = text;
    } else if (reply.error().code == nd_core::ErrorCode::app_not_responding ||
               reply.error().code == nd_core::ErrorCode::timed_out) {
        return; // a busy app may answer next time; the read itself will report it
    }
    std::lock_guard lock(m_mutex);
    if (m_no_peer.size() > 4096)
        m_no_peer.clear();
    if (address.empty()) {
        m_no_peer.insert(app_name); // Qt5 and GTK4 offer none
        return;
    }
    auto peer = connect_peer(address, pid);
    if (!peer) {
        m_no_peer.insert(app_name);
        return;
    }
    if (m_peers.size() >= MAX_PEERS)
        close_peers();
    Lanes lanes;
    lanes.conns.push_back(*peer);
    // The other lanes, each checked as the first was; an app that refuses one more keeps fewer.
    while (lanes.conns.size() < m_lanes) {
        auto more = connect_peer(address, pid);
        if (!more)
            break;
        lanes.conns.push_back(*more);
    }
    m_peers.emplace(app_name, std::move(lanes));
}

void AtspiBus::close_peers()
{
    for (auto& [name, lanes] : m_peers)
        for (sd_bus* conn : lanes.conns)
            sd_bus_flush_close_unref(conn);
    m_peers.clear();
}

bool AtspiBus::has_peer(const std::string& app_name) const
{
    std::lock_guard lock(m_mutex);
    return m_peers.count(app_name) != 0;
}

std::size_t AtspiBus::lanes_of(const std::string& app_name) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_peers.find(app_name);
    return it == m_peers.end() ? 0 : it->second.conns.size();
}

sd_bus* AtspiBus::route(std::string_view dest, bool spread)
{
    if (m_peers.empty())
        return m_bus;
    auto it = m_peers.find(dest);
    if (it == m_peers.end())
        return m_bus;
    auto& lanes = it->second;
    if (!spread)
        return lanes.conns.front();
    lanes.next = (lanes.next + 1) % lanes.conns.size();
    return lanes.conns[lanes.next];
}

bool AtspiBus::is_peer(const sd_bus* bus) const { return bus != m_bus; }

void AtspiBus::drop_peer(sd_bus* peer)
{
    for (auto it = m_peers.begin(); it != m_peers.end(); ++it) {
        auto& conns = it->second.conns;
        auto lane = std::find(conns.begin(), conns.end(), peer);
        if (lane == conns.end())
            continue;
        // Calls still holding slots keep the connection's memory alive until they let go. The
        // app's other lanes stay: each one that broke too is dropped when a batch finds it so.
        sd_bus_close_unref(peer);
        conns.erase(lane);
        if (conns.empty())
            m_peers.erase(it);
        else
            it->second.next = 0;
        return;
    }
}

void AtspiBus::owe(const std::string& dest, std::size_t calls)
{
    if (calls == 0)
        return;
    // Past the bound the table starts again: a forgotten app is sent a full batch, as before.
    if (m_owed.size() >= MAX_OWING_APPS && !m_owed.count(dest))
        m_owed.clear();
    m_owed[dest] += calls;
}

std::size_t AtspiBus::owed(std::string_view dest) const
{
    auto found = m_owed.find(dest);
    return found == m_owed.end() ? 0 : found->second;
}

void AtspiBus::settle(std::string_view dest)
{
    if (auto found = m_owed.find(dest); found != m_owed.end())
        m_owed.erase(found);
}

std::size_t AtspiBus::owed_calls(std::string_view dest) const
{
    std::lock_guard lock(m_mutex);
    return owed(dest);
}

ArgWriter get_property(const char* iface, const char* property)
{
    return [iface, property](sd_bus_message* m) { return sd_bus_message_append(m, "ss", iface, property); };
}

nd_core::Result<std::unique_ptr<AtspiBus>> AtspiBus::open()
{
    const char* env = std::getenv("AT_SPI_BUS_ADDRESS");
    std::string address = env ? env : "";
    if (address.empty())
        address = TRY(address_from_session_bus(DEFAULT_CALL_TIMEOUT));
    auto bus = TRY(open_address(address));
    bus->m_address_from_session = env == nullptr || *env == '\0';
    // Without a registered listener GTK3 answers Cache.GetItems with UnknownMethod; the reader
    // then walks, which is slower but correct, so a registry that refuses is not fatal.
    (void)bus->register_listener();
    return bus;
}

nd_core::Result<std::unique_ptr<AtspiBus>> AtspiBus::open_address(const std::string& address)
{
    sd_bus* bus = TRY(connect(address));
    return std::unique_ptr<AtspiBus>(new AtspiBus(bus, address));
}

nd_core::Result<void> AtspiBus::ensure_connected()
{
    if (sd_bus_is_open(m_bus) > 0)
        return {};
    const auto now = Clock::now();
    if (now - m_last_reconnect < std::chrono::seconds(1))
        return make_error(ErrorCode::backend_unavailable, "the AT-SPI bus connection closed; reconnecting shortly");
    m_last_reconnect = now;
    std::string address = m_address;
    if (m_address_from_session) {
        auto asked = address_from_session_bus(DEFAULT_CALL_TIMEOUT);
        if (!asked)
            return make_error(ErrorCode::backend_unavailable,
                              "the AT-SPI bus went away and no new one is advertised: " + asked.error().message);
        address = *asked;
    }
    auto fresh = connect(address);
    if (!fresh)
        return make_error(ErrorCode::backend_unavailable,
                          "the AT-SPI bus went away and reconnecting failed: " + fresh.error().message);
    sd_bus_flush_close_unref(m_bus);
    m_bus = *fresh;
    m_address = address;
    ++m_generation;
    // Unique names restart on a new bus daemon: nothing learned per name still holds.
    close_peers();
    m_no_peer.clear();
    m_owed.clear();
    {
        std::lock_guard lock(m_pid_mutex);
        m_pids.clear();
    }
    // The listener again (GTK3's cache answers only while one is registered); its reply is not
    // waited for: the batch that called us sends it ahead of its own calls.
    (void)sd_bus_call_method_async(m_bus, nullptr, REGISTRY_NAME, REGISTRY_PATH, IFACE_REGISTRY, "RegisterEvent",
                                   nullptr, nullptr, "sass", "object:children-changed", 0, "");
    return {};
}

nd_core::Result<sd_bus*> AtspiBus::connect(const std::string& address)
{
    if (address.empty())
        return make_error(ErrorCode::backend_unavailable, "empty AT-SPI bus address");
    sd_bus* raw = nullptr;
    int r = sd_bus_new(&raw);
    if (r < 0)
        return make_error(ErrorCode::backend_unavailable, "sd_bus_new failed: " + errno_text(r));
    BusPtr bus(raw);
    r = sd_bus_set_address(bus.get(), address.c_str());
    if (r >= 0)
        r = sd_bus_set_bus_client(bus.get(), 1);
    if (r >= 0)
        r = sd_bus_set_description(bus.get(), "nish-atspi");
    if (r >= 0)
        r = sd_bus_start(bus.get());
    if (r < 0)
        return make_error(ErrorCode::backend_unavailable, "cannot connect to the AT-SPI bus: " + errno_text(r));
    return bus.release();
}

nd_core::Result<void> AtspiBus::register_listener()
{
    auto reply = call({REGISTRY_NAME, REGISTRY_PATH, IFACE_REGISTRY, "RegisterEvent"},
                      [](sd_bus_message* m) {
                          int r = sd_bus_message_append(m, "s", "object:children-changed");
                          if (r >= 0)
                              r = sd_bus_message_append_strv(m, nullptr);
                          if (r >= 0)
                              r = sd_bus_message_append(m, "s", "");
                          return r;
                      },
                      deadline_in(DEFAULT_CALL_TIMEOUT));
    if (!reply)
        return std::move(reply).error();
    return {};
}

nd_core::Result<MessagePtr> AtspiBus::call(const Method& method, const ArgWriter& args, Deadline deadline)
{
    MessagePtr out;
    nd_core::Error failure;
    bool failed = false;
    AtspiBatch batch(*this, deadline);
    batch.add(method, args, [&](const Reply& reply) {
        if (reply.ok()) {
            out.reset(sd_bus_message_ref(reply.message));
        } else {
            failed = true;
            failure = error_from_dbus(reply.error, method.member);
        }
    });
    TRY_VOID(batch.run());
    if (failed)
        return failure;
    if (!out)
        return make_error(ErrorCode::internal_error, std::string(method.member) + " finished without a reply");
    return out;
}

nd_core::Result<std::int64_t> AtspiBus::connection_pid(const std::string& unique_name, Deadline deadline)
{
    if (auto pid = cached_pid(unique_name); pid >= 0)
        return pid;
    auto reply = TRY(call({DBUS_NAME, DBUS_PATH, DBUS_IFACE, "GetConnectionUnixProcessID"},
                          [&](sd_bus_message* m) { return sd_bus_message_append(m, "s", unique_name.c_str()); },
                          deadline));
    std::uint32_t pid = 0;
    if (sd_bus_message_read(reply.get(), "u", &pid) < 0)
        return make_error(ErrorCode::internal_error, "GetConnectionUnixProcessID returned no pid");
    remember_pid(unique_name, pid);
    return static_cast<std::int64_t>(pid);
}

void AtspiBus::remember_pid(const std::string& unique_name, std::int64_t pid)
{
    std::lock_guard lock(m_pid_mutex);
    // Bounded: names of apps that left are forgotten once the map grows large.
    if (m_pids.size() > 4096)
        m_pids.clear();
    m_pids[unique_name] = pid;
}

std::int64_t AtspiBus::cached_pid(const std::string& unique_name) const
{
    std::lock_guard lock(m_pid_mutex);
    auto it = m_pids.find(unique_name);
    return it == m_pids.end() ? -1 : it->second;
}

bool dbus_error_is_gone(const sd_bus_error* e)
{
    if (e == nullptr || e->name == nullptr)
        return false;
    return sd_bus_error_has_names(e, SD_BUS_ERROR_UNKNOWN_OBJECT, SD_BUS_ERROR_SERVICE_UNKNOWN,
                                  SD_BUS_ERROR_NAME_HAS_NO_OWNER, SD_BUS_ERROR_NO_REPLY, SD_BUS_ERROR_DISCONNECTED);
}

bool dbus_error_is_unknown_method(const sd_bus_error* e)
{
    if (e == nullptr || e->name == nullptr)
        return false;
    return sd_bus_error_has_names(e, SD_BUS_ERROR_UNKNOWN_METHOD, SD_BUS_ERROR_UNKNOWN_INTERFACE,
                                  SD_BUS_ERROR_UNKNOWN_PROPERTY, SD_BUS_ERROR_NOT_SUPPORTED);
}

nd_core::Error error_from_dbus(const sd_bus_error* e, std::string_view what)
{
    std::string name = (e && e->name) ? e->name : "unknown error";
    std::string call(what);
    if (e && sd_bus_error_has_name(e, SD_BUS_ERROR_TIMEOUT))
        return make_error(ErrorCode::app_not_responding, call + " got no answer in time");
    if (dbus_error_is_gone(e))
        return make_error(ErrorCode::element_not_found, call + ": the object or its app is gone (" + name + ")");
    return make_error(ErrorCode::action_failed, call + " failed (" + name + ")");
}

} // namespace nd_linux

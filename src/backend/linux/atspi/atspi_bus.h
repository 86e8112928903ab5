#pragma once

// One connection to the accessibility bus (sd-bus), shared by the tree reader and the actuator.
//
// Contract: every call made through this class has a deadline; an app that never answers costs at
// most that deadline. sd-bus is not thread-safe, so the bus carries a mutex: AtspiBatch::run and
// the call helpers hold it while they send and wait, and callers from several threads are
// serialised. The bus owns the sd_bus connection; nothing outside this folder sees sd-bus types
// except through bus().

#include "core/result.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <systemd/sd-bus.h>

namespace nd_linux {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

// The default bound of a single call (actuator calls, look-ups).
inline constexpr std::chrono::milliseconds DEFAULT_CALL_TIMEOUT{2000};

inline Deadline deadline_in(std::chrono::milliseconds d) { return Clock::now() + d; }

struct MessageUnref {
    void operator()(sd_bus_message* m) const { sd_bus_message_unref(m); }
};
using MessagePtr = std::unique_ptr<sd_bus_message, MessageUnref>;

// Appends a call's arguments to its message; returns a negative errno on failure.
using ArgWriter = std::function<int(sd_bus_message*)>;

// The arguments of Properties.Get(iface, property). Both are string literals: the writer keeps the
// pointers.
ArgWriter get_property(const char* iface, const char* property);

// The D-Bus address of one method: destination, object path, interface and member.
struct Method {
    std::string_view dest;
    std::string_view path;
    std::string_view iface;
    std::string_view member;
};

class AtspiBus {
public:
    // Connects to the accessibility bus: $AT_SPI_BUS_ADDRESS, else asks the session bus
    // (org.a11y.Bus GetAddress). Registers one event listener (Registry.RegisterEvent) so that
    // GTK3's Cache.GetItems answers.
    static nd_core::Result<std::unique_ptr<AtspiBus>> open();
    // Connects to a known address (tests, or an address found elsewhere).
    static nd_core::Result<std::unique_ptr<AtspiBus>> open_address(const std::string& address);
    // A bare connection to `address` as a bus client, started (the event listener opens its own).
    static nd_core::Result<sd_bus*> connect(const std::string& address);

    ~AtspiBus();
    AtspiBus(const AtspiBus&) = delete;
    AtspiBus& operator=(const AtspiBus&) = delete;

    sd_bus* bus() const { return m_bus; }
    // Bumped each time the connection is replaced (reconnect()): bus names learned before then
    // name nothing, or someone else, now; holders of per-name memory start afresh.
    std::uint64_t generation() const { return m_generation; }
    const std::string& address() const { return m_address; }
    std::mutex& mutex() { return m_mutex; }

    // One call, waited for until the deadline. An error reply becomes an Error through
    // error_from_dbus(); a reply that does not come in time is app_not_responding.
    nd_core::Result<MessagePtr> call(const Method&, const ArgWriter&, Deadline);

    // The pid of a bus connection (org.freedesktop.DBus.GetConnectionUnixProcessID). Unique bus
    // names are never reused, so answers are cached for the life of the bus.
    nd_core::Result<std::int64_t> connection_pid(const std::string& unique_name, Deadline);
    // Caches a pid learned elsewhere (a batch of look-ups).
    void remember_pid(const std::string& unique_name, std::int64_t pid);
    // The cached pid, or -1.
    std::int64_t cached_pid(const std::string& unique_name) const;

    // Peer-to-peer connections (atspi_peer.h). use_peer() asks an app for its peer address once
    // and opens the connection when the address and the socket's owner check out; from then on
    // every call for that app goes there. Nothing changes for apps without one. NISH_ATSPI_PEER=0
    // turns peers off (benchmarks compare both).
    void use_peer(const std::string& app_name, std::int64_t pid, Deadline);
    bool has_peer(const std::string& app_name) const;
    std::size_t lanes_of(const std::string& app_name) const; // 0 without a peer
    bool peers_enabled() const { return m_peers_enabled; }

    // An app's peer is a few connections (lanes), not one. An atk-bridge app (GTK3, Chromium,
    // Firefox, LibreOffice, Java) dispatches one D-Bus message per connection and turn of its
    // main loop, and a turn costs more than the message: calls spread over four connections are
    // answered up to four a turn. Measured on Chromium with 2,000 calls in flight: 16.2 µs a call
    // on one connection, 10.7 on two, 9.2 on four, 8.4 on eight. NISH_ATSPI_LANES=1..8 sets the
    // number (benchmarks compare).
    static constexpr std::size_t DEFAULT_PEER_LANES = 4;
    static constexpr std::size_t MAX_PEER_LANES = 8;

    // For AtspiBatch, with mutex() held: the connection a call for `dest` goes to (with `spread`,
    // the app's next lane in turn; without, its first), whether that is a peer (then the call
    // carries no destination), and forgetting a peer lane whose connection broke (the app
    // exited); once an app has no lane left, its calls go to the bus again.
    sd_bus* route(std::string_view dest, bool spread = false);
    bool is_peer(const sd_bus*) const;
    void drop_peer(sd_bus*);

    // For AtspiBatch, with mutex() held. The calls a batch gave up on at its deadline stay in the
    // app's queue, and an app answers its calls in order: a batch that sent a busy app more would
    // only lengthen the wait of the next one, and an app hung for seconds (Java building its
    // bridge's cache) would come back to thousands of stale calls. So the bus keeps what each app
    // owes; the next batch for it first pings it, and sends the rest once the ping comes back.
    void owe(const std::string& dest, std::size_t calls);
    bool owes_any() const { return !m_owed.empty(); }
    std::size_t owed(std::string_view dest) const;
    void settle(std::string_view dest);
    // Locks: the calls batches gave up on that `dest` has not been seen to answer yet.
    std::size_t owed_calls(std::string_view dest) const;

    // For AtspiBatch, with mutex() held: when the bus connection has closed (the AT-SPI bus went
    // away), connects again, to the address asked anew from the session bus when that is where
    // it came from; at most one attempt a second, backend_unavailable while there is no bus.
    nd_core::Result<void> ensure_connected();

private:
    AtspiBus(sd_bus*, std::string address);
    nd_core::Result<void> register_listener();
    void close_peers(); // with m_mutex held (or in the destructor)

    sd_bus* m_bus = nullptr;
    std::string m_address;
    mutable std::mutex m_mutex;
    // Its own lock: batch handlers fill it while m_mutex is held, callers read it outside.
    mutable std::mutex m_pid_mutex;
    std::unordered_map<std::string, std::int64_t> m_pids;
    // Under m_mutex. Both bounded: past MAX_PEERS the table starts again (peers reopen on use).
    static constexpr std::size_t MAX_PEERS = 64;
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    struct Lanes {
        std::vector<sd_bus*> conns; // [0] takes the calls that keep their order
        std::size_t next = 0;       // the lane the next spread call takes
    };
    std::unordered_map<std::string, Lanes, NameHash, std::equal_to<>> m_peers;
    std::size_t m_lanes = DEFAULT_PEER_LANES;
    std::unordered_set<std::string> m_no_peer;
    static constexpr std::size_t MAX_OWING_APPS = 1024;
    std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>> m_owed; // under m_mutex
    bool m_peers_enabled = true;
    bool m_address_from_session = false; // reconnect() asks the session bus again
    std::uint64_t m_generation = 0;
    Clock::time_point m_last_reconnect{};
};

// Asks the session bus ($DBUS_SESSION_BUS_ADDRESS) where the accessibility bus is
// (org.a11y.Bus GetAddress), bounded by `timeout`.
nd_core::Result<std::string> address_from_session_bus(std::chrono::milliseconds timeout);

// Maps a D-Bus error (name, errno) to the error table: a vanished object, app or method is
// element_not_found, an unanswered call app_not_responding, anything else action_failed.
// `what` names the call in the message (bounded identifiers only, never app text).
nd_core::Error error_from_dbus(const sd_bus_error*, std::string_view what);
// True when the error says the object or its app is gone.
bool dbus_error_is_gone(const sd_bus_error*);
// True when the error says the object lacks the interface or method.
bool dbus_error_is_unknown_method(const sd_bus_error*);

} // namespace nd_linux

#pragma once

// The AT-SPI events the warm reads trust (docs/linux-atspi.md, "Warm reads").
//
// Contract: AtspiEvents owns a connection of its own to the accessibility bus, registers listeners
// for the object, window and document events with the registry (apps emit only what someone
// listens for), and records, per app (its unique bus name), which objects changed since the last
// take(): structurally (children added or removed, an object gone) or in what they say (name,
// description, states, text, value). A thread drains the connection so that an idle driver never
// piles events up; everything it records is bounded, and past the bound an app's record says
// overflow instead, which makes the next read of that app cold.
//
// sync() makes a record complete up to now: it pings the app over the same connection, and D-Bus
// keeps one sender's messages in order, so every event the app sent before it answered has been
// recorded when sync() returns. A cold read taken at that moment sees no more than that.

#include "backend/linux/atspi/atspi_bus.h"

#include <atomic>
#include <set>
#include <thread>

namespace nd_linux {

struct AppChanges {
    std::set<std::string> structural; // object paths whose children (or whose presence) changed
    std::set<std::string> content;    // object paths whose own facts changed
    std::set<std::string> gone;       // object paths that went defunct: their parents changed
    bool root_changed = false;        // the app's own root: a window came or went
    bool overflow = false;            // too many to keep: trust nothing of this app
    // Of `content`, the paths whose focused state changed: a toolkit may change their parent's with
    // no event of its own (Qt's menu bar takes the focus with the item it announces).
    std::set<std::string> focused;
};

class AtspiEvents {
public:
    static constexpr std::size_t MAX_PATHS_PER_APP = 2048;
    static constexpr std::size_t MAX_APPS = 256;

    static nd_core::Result<std::unique_ptr<AtspiEvents>> open(const std::string& address);
    ~AtspiEvents();
    AtspiEvents(const AtspiEvents&) = delete;
    AtspiEvents& operator=(const AtspiEvents&) = delete;

    // Waits until every event `app` sent before now has been recorded (see above). Fails when the
    // app does not answer in time or the connection broke.
    nd_core::Result<void> sync(const std::string& app, Deadline);
    // The changes recorded for `app` since the last take(), which starts a new record.
    AppChanges take(const std::string& app);
    // True once any event of `app` has been seen: an app that never sends one cannot be trusted.
    bool heard_from(const std::string& app) const;
    // False once the connection broke; the owner opens a new one.
    bool alive() const { return !m_broken.load(); }
    std::size_t events_seen() const { return m_events.load(); }

private:
    explicit AtspiEvents(sd_bus*);
    static int on_signal(sd_bus_message*, void* userdata, sd_bus_error*);
    void record(sd_bus_message*); // with m_mutex held
    void drain_loop();
    void drain_locked(); // with m_mutex held

    sd_bus* m_bus = nullptr;
    mutable std::mutex m_mutex;
    std::unordered_map<std::string, AppChanges> m_changes; // under m_mutex
    std::unordered_set<std::string> m_heard;               // under m_mutex
    std::atomic<bool> m_broken{false};
    std::atomic<bool> m_stop{false};
    std::atomic<std::size_t> m_events{0};
    int m_wake[2] = {-1, -1}; // a pipe that ends the drain thread's poll
    std::thread m_thread;
};

} // namespace nd_linux

#pragma once

// The person's input during a takeover (§4.3), from XInput 2 raw events. Raw events come from the
// physical (slave) device that made them, before any grab or focus decides where they go, and name
// that device as sourceid. The driver's own synthetic input goes through XTEST, whose events come
// from the "Virtual core XTEST pointer/keyboard" slaves of the core masters: presses from those are
// the driver's and ignored; any other key or button press after reset() is the person's. Motion is
// only counted (person_motions): the engine judges pointer movement against its 8 px slop itself.
//
// Other XTEST clients (xdotool, a remote-desktop server) also use the core XTEST devices, so their
// input looks like the driver's; that is why one engine per display owns the takeover
// (docs/architecture.md).
//
// Runs on its own X connection and thread, which wakes at least every TICK to notice stop. poll()
// and reset() are thread-safe. If the connection breaks, healthy() turns false and stays so: the
// caller must then stop trusting poll() (and end the takeover).

#include "backend/linux/x11/x11_display.h"
#include "core/backend/input_watcher.h"
#include "core/result.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

namespace nd_linux {

class X11InputWatcher final : public nd_core::InputWatcher {
public:
    static constexpr std::chrono::milliseconds TICK{50};

    // Opens its own connection to `display_name` (empty: $DISPLAY), learns the XTEST devices and
    // selects raw key, button and motion events on the root for all master devices, then starts the
    // thread. Errors: backend_unavailable (no display, no XInput 2.1, no core XTEST devices),
    // timed_out.
    static nd_core::Result<std::unique_ptr<X11InputWatcher>> open(const std::string& display_name = {});
    ~X11InputWatcher() override;
    X11InputWatcher(const X11InputWatcher&) = delete;
    X11InputWatcher& operator=(const X11InputWatcher&) = delete;

    void reset() override;
    std::optional<nd_core::PersonInput> poll() override;

    // False once the connection broke or the thread could not go on.
    bool healthy() const override { return m_healthy.load(); }
    // Since the last reset: raw events from the driver's own XTEST devices, and the person's motions.
    std::uint64_t driver_events() const { return m_driver_events.load(); }
    std::uint64_t person_motions() const { return m_person_motions.load(); }
    // The device ids whose input counts as the driver's (tests, diagnostics).
    std::set<std::uint16_t> ignored_devices() const;

private:
    X11InputWatcher() = default;
    nd_core::Result<void> learn_devices(Deadline);
    nd_core::Result<void> select_events(Deadline);
    void run();
    void handle(const xcb_generic_event_t*);

    std::unique_ptr<X11Display> m_display; // used only by the thread once it runs
    std::uint8_t m_xi_opcode = 0;

    mutable std::mutex m_mutex; // m_ignored, m_seen
    std::set<std::uint16_t> m_ignored;
    std::optional<nd_core::PersonInput> m_seen;

    std::atomic<std::uint64_t> m_driver_events{0}, m_person_motions{0};
    std::atomic<bool> m_healthy{true};
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace nd_linux

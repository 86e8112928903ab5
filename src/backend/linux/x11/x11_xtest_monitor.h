#pragma once

// Watches every client's XTEST FakeInput requests through the RECORD extension, so that an
// approval surface can tell a click some program synthesised from one the person made.
//
// Why it is needed: the device rule (x11_devices.h) is not enough on X11. XTEST lets any client
// send an XInput 1 device event in the name of any device, physical ones included: the click then
// names a real mouse as its source. Every such request still passes through the server as a
// FakeInput request of the client that sent it, and RECORD shows those to us. So a click on an
// approval surface counts only when no client sent a synthetic button press from 1.5 s before the
// click's press until its release (PersonRule).
//
// Two connections of its own: one holds the record context, the other receives the recorded
// requests (RECORD blocks the connection that enables a context), read on a thread. settle() makes
// a caller's view current: it returns once the thread has read everything the server had sent when
// settle() was called. If the data connection breaks, healthy() turns false for good; the owner
// opens a new monitor (whose record then starts anew, see since()).

#include "backend/linux/x11/x11_display.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace nd_linux {

class X11XtestMonitor {
public:
    // How many recent synthetic presses are kept (older ones are dropped; 1.5 s of them is the need).
    static constexpr std::size_t KEEP = 512;

    struct Press {
        Clock::time_point at;
        bool button = false;      // a button (else a key)
        std::uint16_t device = 0; // the XInput 1 device named in the request; 0 for a core event
    };

    // Errors: backend_unavailable (no display, no RECORD, no XTEST, the context refused), timed_out.
    static nd_core::Result<std::unique_ptr<X11XtestMonitor>> open(const std::string& display_name = {});
    ~X11XtestMonitor();
    X11XtestMonitor(const X11XtestMonitor&) = delete;
    X11XtestMonitor& operator=(const X11XtestMonitor&) = delete;

    // When recording began: presses before it are unknown.
    Clock::time_point since() const { return m_since; }
    bool healthy() const { return m_healthy.load(); }

    // Reads in everything the server has already sent, waiting at most until `deadline`. Errors:
    // timed_out (the thread did not get through in time), backend_unavailable (the record is broken).
    nd_core::Result<void> settle(Deadline deadline);
    // The synthetic presses seen at or after `from`.
    std::vector<Press> presses_since(Clock::time_point from) const;
    // How many FakeInput requests were recorded in all (tests, diagnostics).
    std::uint64_t recorded() const { return m_recorded.load(); }

private:
    X11XtestMonitor() = default;
    void run();
    void take(const std::uint8_t* data, std::size_t length, bool swapped);
    void kick();

    std::unique_ptr<X11Display> m_control; // holds the context
    std::unique_ptr<X11Display> m_data;    // receives the record; used by the thread only
    std::uint32_t m_context = 0;
    unsigned int m_enable_sequence = 0;
    std::uint8_t m_xi_first_event = 0;
    Clock::time_point m_since{};

    mutable std::mutex m_mutex; // m_presses, m_served
    std::condition_variable m_served_changed;
    std::deque<Press> m_presses;
    std::uint64_t m_asked = 0, m_served = 0; // settle tickets asked and read through
    std::atomic<std::uint64_t> m_recorded{0};
    std::atomic<bool> m_healthy{true};
    std::atomic<bool> m_stop{false};
    int m_wake_fd = -1;
    std::thread m_thread;
};

} // namespace nd_linux

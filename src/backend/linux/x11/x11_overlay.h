#pragma once

// The takeover indicator on X11 (§4.2, §4.3), on a connection of its own.
//
// show_indicator() puts up a red frame round the screen and the label "nish-driver: AI takeover
// active" (OverlayWindows), click-through and kept on top; hide_indicator() takes it down and makes a
// round trip before it returns, so it is gone from the server when the call ends. A thread reads the
// connection's events: it repaints, raises the indicator when something covers it, notices when
// another client unmaps or destroys one of its windows (indicator_alive() turns false) and, while
// paused, accepts the person's click on Continue: button 1 pressed and released on the button, read
// through XInput 2, that PersonRule judges the person's (their own device, no synthetic press by
// this driver or any other client from 1.5 s before: docs/linux-x11.md, "Who may answer").
//
// Thread safety: every method may be called from any thread. The X work of a call and of the event
// thread is serialised by one mutex; the Continue handler runs on the event thread with no lock held,
// so it may call set_paused(), hide_indicator() or indicator_alive(), but not show_indicator() (which
// may restart that thread) nor destroy the overlay. It may wait for a lock that a caller of
// show_indicator() holds: replacing a broken connection then leaves that thread to finish the
// handler on its own instead of joining it.
//
// The paused state is the engine's: it is kept across hide_indicator(), so an indicator shown again
// for a paused session comes up paused with its Continue button (§4.3).

#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_display_lock.h"
#include "backend/linux/x11/x11_overlay_windows.h"
#include "backend/linux/x11/x11_person_rule.h"
#include "core/backend/overlay.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace nd_linux {

class X11Overlay final : public nd_core::Overlay {
public:
    // How long show_indicator() waits for the server to show every window before it gives up.
    static constexpr std::chrono::milliseconds SHOW_TIMEOUT{1000};

    // Connects lazily, on the first show_indicator(), to `display_name` (empty: $DISPLAY). `rule`
    // must outlive the overlay.
    X11Overlay(std::string display_name, PersonRule& rule);
    ~X11Overlay() override;
    X11Overlay(const X11Overlay&) = delete;
    X11Overlay& operator=(const X11Overlay&) = delete;

    // Takes the display's takeover lock (x11_display_lock.h) and keeps it until hide_indicator().
    // Errors: backend_unavailable (another driver holds the takeover on this display, no display,
    // no SHAPE, windows refused or not shown) and timed_out.
    nd_core::Result<void> show_indicator() override;
    void set_paused(bool) override;
    void hide_indicator() override;
    bool indicator_alive() override;
    void set_continue_handler(std::function<void()>) override;

    // For tests: the X ids of the shown windows (frame, label, and the button while paused) and the
    // button's alone (0 when there is none).
    std::vector<std::uint32_t> window_ids();
    std::uint32_t continue_button();
    // Why the last click on Continue was not taken; empty when none was refused.
    std::string last_refusal();

private:
    nd_core::Result<void> connect();
    void run(std::uint64_t generation);
    // A press and release on Continue, for PersonRule to judge.
    struct Candidate {
        XiButton press;
        Clock::time_point pressed_at;
        XiButton release;
    };
    // Handles one event under the lock; a candidate when it completed a click on Continue.
    std::optional<Candidate> handle(const xcb_generic_event_t& event);
    std::optional<Candidate> handle_button(const XiButton& button);
    void kick();
    void stop_thread();

    const std::string m_display_name;
    PersonRule& m_rule;

    std::mutex m_mutex; // the connection, the windows and the click state
    std::unique_ptr<X11Display> m_display;
    std::unique_ptr<OverlayWindows> m_windows;
    bool m_paused = false;
    bool m_armed = false; // a left press on Continue waits for its release
    XiButton m_press;     // that press
    Clock::time_point m_pressed_at{};
    std::uint8_t m_xi_opcode = 0;
    std::string m_last_refusal;

    std::mutex m_handler_mutex;
    std::function<void()> m_handler;

    std::mutex m_life_mutex; // connecting and starting or stopping the thread
    DisplayLock m_lock;      // held while the indicator shows; under m_mutex

    std::atomic<bool> m_shown{false};
    std::atomic<bool> m_lost{false};
    // The event thread runs while the generation it started with is current; stop_thread() bumps it.
    std::atomic<std::uint64_t> m_generation{1};
    std::atomic<std::uint64_t> m_handler_generation{0}; // the generation whose thread is in the handler; 0: none
    int m_wake_fd = -1; // an eventfd: a call that read events on the thread's behalf wakes it
    std::thread m_thread;
    std::vector<std::thread> m_retired; // threads left inside the Continue handler; joined at the end
};

} // namespace nd_linux

#pragma once

// Foreground synthetic input for one desk act (XTEST on X11). One DeskInput lives for the act: it
// holds the desk's input mutex the whole time (so two clients' key combinations or drags never
// interleave) and the backend's input lease (the per-display takeover lock: no desk input while a
// nish-driver takeover holds the display). Each backend call is made under the backend lock, never
// held while sleeping; the call's stop token is checked before every step (each typed character,
// each drag step), and every key and button still held is released on a stop, on an error and when
// the DeskInput goes away. No point may lie on one of nish-driver's own surfaces and no key goes out
// while one holds the focus (core/engine/own_surface_guard.h): reserved_for_person, nothing sent.

#include "core/backend/backend.h"
#include "desk/verb.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace nd_desk {

class Desk;

class DeskInput {
public:
    static constexpr std::int32_t DRAG_STEPS = 12;
    static constexpr std::chrono::milliseconds DRAG_STEP{15};

    // Errors: unsupported (no synthetic input on this desk), backend_unavailable "another driver
    // holds the takeover on this display", stopped_by_kill_switch.
    static nd_core::Result<std::unique_ptr<DeskInput>> begin(Desk&, const CallScope&);
    ~DeskInput();
    DeskInput(const DeskInput&) = delete;
    DeskInput& operator=(const DeskInput&) = delete;

    nd_core::Result<void> move(nd_core::Point);
    nd_core::Result<void> click(nd_core::Point, nd_core::MouseButton, std::int32_t count);
    // Presses the keysyms in order and releases them in reverse.
    nd_core::Result<void> press_keys(const std::vector<std::string>& keysyms);
    // Types one character; the caller checks the stop between characters with check().
    nd_core::Result<void> type_char(char32_t);
    nd_core::Result<void> scroll(nd_core::Point, std::int32_t dx, std::int32_t dy);
    // Presses the left button at `from`, moves to `to` in DRAG_STEPS fake motions, releases there.
    nd_core::Result<void> drag(nd_core::Point from, nd_core::Point to);
    nd_core::Result<void> raise(const nd_core::WindowInfo&);

    // stopped_by_kill_switch (after releasing everything) once the call was stopped.
    nd_core::Result<void> check();
    // Sleeps unless stopped (then false), holding no backend lock.
    bool pause(std::chrono::milliseconds);
    void release_all();

private:
    nd_core::Result<void> or_release(nd_core::Result<void> sent);
    nd_core::Result<void> refuse_at(nd_core::Point, std::string_view what);
    nd_core::Result<void> refuse_focus();
    DeskInput(Desk&, const CallScope&, std::unique_lock<std::mutex>, std::unique_ptr<nd_core::InputLease>);

    Desk& m_desk;
    const CallScope& m_scope;
    std::unique_lock<std::mutex> m_input_lock;
    std::unique_ptr<nd_core::InputLease> m_lease;
    nd_core::SyntheticInput& m_input;
    std::vector<std::string> m_held_keys;
    std::vector<nd_core::MouseButton> m_held_buttons;
};

// Splits "ctrl+shift+t" into keysym names (core/engine/guarded_input.h's aliases); invalid_arguments
// naming the part that is no key.
nd_core::Result<std::vector<std::string>> parse_key_combination(std::string_view keys);

} // namespace nd_desk

#pragma once

// Synthetic input with the hand-back checks of §4.3 around every call. Before each synthetic call,
// each glide step and each typed character: the session must still hold a live takeover, and the
// person must not have touched the pointer (more than 8 px from where the driver last put it) or
// pressed a key or button the driver did not send. On the person's input nothing more is sent,
// every held key and button is released, the session is paused, and the call fails with
// user_took_over (effect stopped). A GuardedInput lives for one tool call and releases what it
// holds when it goes away. No click, scroll or drag point may lie on one of nish-driver's own
// surfaces, and no key goes out while one holds the focus (own_surface_guard.h): reserved_for_person.

#include "core/engine/engine.h"

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace nd_core {

inline constexpr std::int32_t HANDBACK_POINTER_SLOP_PX = 8;
inline constexpr std::chrono::milliseconds GLIDE_STEP{10};
// Between the clicks of a double or triple click, well inside every toolkit's double-click time.
inline constexpr std::chrono::milliseconds MULTI_CLICK_GAP{60};

class GuardedInput {
public:
    GuardedInput(Engine&, Session&);
    ~GuardedInput();
    GuardedInput(const GuardedInput&) = delete;
    GuardedInput& operator=(const GuardedInput&) = delete;

    // Told as a glide or a typed text advances: done of total steps (a glide) or characters (text).
    using ProgressFn = std::function<void(std::int64_t done, std::int64_t total, std::string_view what)>;
    void on_progress(ProgressFn fn) { m_progress = std::move(fn); }

    Result<void> check();
    // Moves the pointer; with a duration, glides there in 10 ms steps, checking before each.
    Result<void> move_to(Point, std::chrono::milliseconds duration = std::chrono::milliseconds{0});
    Result<void> click(Point, MouseButton, std::int32_t count);
    // Presses the keys in order and releases them in reverse (a hotkey, or one key).
    Result<void> press_keys(const std::vector<std::string>& keysyms);
    // Types UTF-8 text one character at a time; a stop reports typed_characters.
    Result<std::int64_t> type_text(std::string_view utf8);
    Result<void> scroll(Point, std::int32_t dx, std::int32_t dy);
    Result<void> drag(Point from, Point to);
    Result<void> raise(const WindowInfo&);
    void release_all();

    bool sent_any() const { return m_sent_any; }

private:
    Result<void> stop(std::string_view reason);
    // The own-surface checks, with effect and typed_characters set as for a stop, everything released.
    Result<void> refuse_at(Point, std::string_view what);
    Result<void> refuse_focus();
    Result<void> refused(Error);
    SyntheticInput& input();

    Engine& m_engine;
    Session& m_session;
    std::vector<std::string> m_held_keys;
    std::vector<MouseButton> m_held_buttons;
    bool m_sent_any = false;
    std::int64_t m_typed = -1; // >= 0 while typing
    ProgressFn m_progress;
};

// Maps the names models use (ctrl, shift, alt, super, enter, esc, ...) to keysym names and checks the
// rest look like keysyms; an empty result means the name is not a key.
std::string normalize_key_name(std::string_view);

} // namespace nd_core

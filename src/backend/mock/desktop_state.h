#pragma once

// The mock desktop's whole state, shared by the backend's parts and its test hooks. The engine
// calls the parts from its own thread while a test pokes the hooks from another, so every access
// holds `mutex`; the parts take it once per call and never call each other while holding it.

#include "backend/mock/mock_model.h"
#include "core/backend/input_watcher.h"
#include "core/backend/own_surfaces.h"
#include "core/backend/synthetic_input.h"
#include "core/result.h"

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace nd_mock {

// One call of SyntheticInput, as the mock saw it.
struct SyntheticEvent {
    enum class Kind : std::uint8_t { move, button, key, type_char, scroll, raise };
    Kind kind = Kind::move;
    nd_core::Point point;           // move
    nd_core::MouseButton button = nd_core::MouseButton::left;
    bool press = false;             // button, key
    std::string keysym;             // key
    char32_t ch = 0;                // type_char
    std::int32_t dx = 0, dy = 0;    // scroll
    std::int64_t window_id = 0;     // raise

    // "move 10,20", "button left press", "key Return release", "char U+0041", "scroll 0,3",
    // "raise 41943047".
    std::string to_string() const;
    bool operator==(const SyntheticEvent&) const = default;
};

// One semantic call the mock applied (Actuator, or a synthetic click that hit an element).
struct SemanticEvent {
    std::int64_t window_id = 0;
    std::string key;    // the element's key
    std::string kind;   // "action", "set_value", "insert_text", "select"
    std::string detail; // the action name; a value's length, never the text itself

    // "action click 41943047/settings.sign_in"
    std::string to_string() const;
};

struct DesktopState {
    std::mutex mutex;
    std::vector<MockWindow> windows; // stacking order, topmost (and active) first
    std::vector<std::string> fixture_files;

    nd_core::Point pointer{0, 0};
    // What was sent, for tests to read back: at least the latest MAX_LOG events of each, at most
    // twice that (a long-running mock daemon acts without end; its memory must not grow with it, and
    // at most about 0.5 MB goes to these logs).
    static constexpr std::size_t MAX_LOG = 1024;
    std::vector<SyntheticEvent> synthetic_log;
    std::vector<SemanticEvent> semantic_log;
    std::size_t chars_typed = 0; // every type_char sent since the logs were cleared, kept or not
    template <typename Event>
    static void append(std::vector<Event>& log, Event event)
    {
        if (log.size() >= 2 * MAX_LOG)
            log.erase(log.begin(), log.end() - static_cast<std::ptrdiff_t>(MAX_LOG));
        log.push_back(std::move(event));
    }
    std::deque<nd_core::PersonInput> person_input;

    std::string clipboard;
    bool clipboard_ours = false; // the driver wrote it (release() wipes it), not another app

    bool indicator_shown = false;
    bool indicator_paused = false;
    bool indicator_destroyed = false;
    bool indicator_fails = false;

    // nish-driver's own surfaces (MockOwnSurfaces), above every window, topmost first.
    std::vector<nd_core::OwnSurface> own_surfaces;
    std::optional<std::size_t> focused_surface; // an index into own_surfaces
    bool own_surfaces_fail = false;

    // Null when no window has the id.
    MockWindow* find_window(std::int64_t window_id);
    // Removes the windows a close_window effect closed (once the act that ran it let go of them).
    void drop_closed_windows();
};

// The window an engine call names, checked for existence (window_target_not_found) and for a hung
// app (app_not_responding). Call with the mutex held.
nd_core::Result<MockWindow*> live_window(DesktopState&, const nd_core::WindowInfo&);
// The element an engine call names (element_not_found when its key is gone). Mutex held.
nd_core::Result<Node*> live_node(MockWindow&, const nd_core::Element&);

} // namespace nd_mock

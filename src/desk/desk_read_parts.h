#pragma once

// Small shared pieces of the read verbs: the backend's optional desk parts and the screen's size.
// Callers hold desk.lock_backend().

#include "core/backend/window_control.h"
#include "desk/desk.h"

#include <optional>

namespace nd_desk {

// The backend's window-manager requests, or null when it has none (the mock).
inline nd_core::WindowControl* window_control(Desk& desk)
{
    auto* parts = dynamic_cast<nd_core::DeskParts*>(&desk.backend());
    return parts ? parts->window_control() : nullptr;
}

// The screen's size, or nullopt when the backend has no screen or does not answer.
inline std::optional<nd_core::ScreenSize> screen_size(Desk& desk)
{
    auto lock = desk.lock_backend();
    auto* screen = desk.backend().screen();
    if (!screen)
        return std::nullopt;
    auto size = screen->size();
    if (!size)
        return std::nullopt;
    return *size;
}

// A backend's error with the next step a desk client can take added to its text: read again,
// list the windows, or wait for a busy app.
inline nd_core::Error with_next_step(nd_core::Error e)
{
    auto add = [&](std::string_view step) {
        if (e.message.find(step) == std::string::npos)
            e.message += ": " + std::string(step);
    };
    switch (e.code) {
    case nd_core::ErrorCode::app_not_responding:
    case nd_core::ErrorCode::timed_out:
        add("the app did not answer in time (busy, or blocked); wait a little and call again, or see desk_unanswered");
        break;
    case nd_core::ErrorCode::window_target_not_found: add("list the windows with desk_windows"); break;
    case nd_core::ErrorCode::app_not_accessible:
        add("if the app has just started, wait a moment and call again; otherwise it has no accessibility tree to "
            "read, so ask the person to restart it with accessibility on (an app desk_launch starts has it on), or work "
            "on it by its shot (desk_shot)");
        break;
    case nd_core::ErrorCode::stale_element_token:
    case nd_core::ErrorCode::element_not_found:
    case nd_core::ErrorCode::invalid_arguments:
        add("read the window again with desk_snapshot (or desk_find) and use an id from that read");
        break;
    default: break;
    }
    return e;
}

// The allowlist-filtered windows list as desk_windows answers it, with the facts it needs read
// under one lock; with_routes adds each window's background routes ("background": ["actions",
// "text", "value", "keys"], the ones its toolkit takes; docs/desk-background.md).
nd_core::Result<nlohmann::json> read_windows_json(Desk& desk, bool with_routes = false);

} // namespace nd_desk

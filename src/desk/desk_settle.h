#pragma once

// Waiting until the screen holds still (still_detector.h) with real captures: desk_still's loop, and
// the settle after each action of computer_act. Captures the whole screen under the capture lock
// (desk.h), scales it to 320 pixels outside it, and polls until no counted change has lasted
// hold_ms, or timeout_ms passes. Holds no lock while it sleeps; a stop ends it at once.
//
// A settle after input first reaches the app that got it (reach_app): on a busy machine an app may
// take longer than hold_ms to take a click off its queue, and a screen still until then would end
// the settle before the click's effect began.

#include "core/model/element.h"
#include "core/result.h"
#include "desk/verb.h"

#include <cstdint>

namespace nd_desk {

class Desk;

// A round trip to the window's app (TreeReader::sync_app), at most REACH_APP_MS. Best effort: an
// app that is gone (it closed on the input) or slow leaves the rest to the still detector.
inline constexpr std::int64_t REACH_APP_MS = 500;
void reach_app(Desk&, const nd_core::WindowInfo&);

struct Settled {
    bool still = false;            // false: timeout_ms passed first
    bool changed = false;          // some counted change was seen
    std::int64_t ms = 0;           // how long it waited
    std::int32_t volatile_blocks = 0;
};

// Errors: unsupported (no screen), a capture's error, stopped_by_kill_switch naming `what`.
nd_core::Result<Settled> wait_still(Desk&, const CallScope&, std::int64_t hold_ms, std::int64_t timeout_ms,
    std::string_view what);

} // namespace nd_desk

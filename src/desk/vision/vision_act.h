#pragma once

// computer_act (docs/vision.md): runs steps (act_steps.h) in order up to the first failure, each
// through the display's takeover lock and the desk's input mutex (DeskInput) and stopped by a
// safety stop, each waited out until the screen holds still; names the windows each step opened,
// closed or brought to the front; then takes the new screenshot. x,y map to the screen by the
// screenshot the caller saw (scale, else the session's latest), each later step of a list by the
// screenshot that would follow the step before it.

#include "desk/verb.h"
#include "desk/vision/act_steps.h"

namespace nd_desk {

class Desk;

// How long a still screen must hold after an action, and how long a settle may take at most.
inline constexpr std::int64_t SETTLE_HOLD_MS = 30;
inline constexpr std::int64_t SETTLE_TIMEOUT_MS = 2000;
// How long launch_app waits for the app's first window.
inline constexpr std::int64_t LAUNCH_WINDOW_TIMEOUT_MS = 10000;

struct ActRequest {
    std::string session;
    std::vector<ActStep> steps;
    std::int32_t max_edge = 1024;
    std::optional<double> scale; // screen pixels per pixel of the screenshot the caller saw
};

nd_core::Result<VerbReply> computer_act(Desk&, const CallScope&, const ActRequest&);

} // namespace nd_desk

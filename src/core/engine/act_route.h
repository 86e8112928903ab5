#pragma once

// The headless route of a pointer act (click, double click, right click) on one element, one for
// the driver's tools and the desk's verbs (docs/act-actions.md): the element's own action as
// choose_action picks it for its toolkit; for a row, cell, item or tab that a click selects, its
// selection; for a label without actions of its own, the route of the row or button that holds it
// (act_holder); for a control without actions around the one button that takes it (a GTK 4 menu
// button), that button (act_inner); else an error that names the actions the element has. Errors
// carry the takeover's escalation: a person's click there may work where no headless route does.

#include "core/backend/backend.h"
#include "core/engine/window_reads.h"
#include "core/model/act_actions.h"
#include "core/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace nd_core {

struct ActRouteAsk {
    ActKind act = ActKind::click;
    std::string_view name = "click"; // the act as the caller's tool names it, for messages
    bool select_fallback = false;    // select a selectable element no action fits (a click)
};

struct ActRouteTaken {
    std::string action;     // the action run, or "select"
    std::int32_t index = 0; // the element it ran on: the one asked for, or the holder of its label
};

// Runs the route on `ref`'s element through the backend's actuator. The caller holds whatever lock
// guards the backend. Errors: backend_unavailable (no actuator), element_not_ready (disabled),
// action_not_offered (no route; the actions it has, and one held back with why), action_failed
// (a list that refused to select the row), and the actuator's own.
Result<ActRouteTaken> run_act_route(Backend&, const ElementRef&, const ActRouteAsk&);

} // namespace nd_core

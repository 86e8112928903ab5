#pragma once

// What press and act share about a node: resolving its id with an error that says what to do next,
// the hit test before a click at its centre, and its default action (docs/desk-verbs-act.md).

#include "core/engine/window_reads.h"
#include "desk/verb.h"

#include <optional>
#include <string>

namespace nd_desk {

class Desk;

// Desk::resolve, with stale, closed and unknown ids explained: "read the window again with
// desk_snapshot".
nd_core::Result<nd_core::ElementRef> resolve_node(Desk&, std::string_view id);

struct HitTest {
    std::optional<nd_core::Point> point; // the node's centre, when a click there reaches the node
    std::string miss;                    // else why not
};

// Clicking the node's centre reaches it when the topmost managed window there is the node's window
// and the deepest showing node there is the node or inside it.
nd_core::Result<HitTest> hit_test(Desk&, const nd_core::ElementRef&);

// Runs the node's click as the driver's headless click does (core/engine/act_route.h): its own
// action, its selection, or its holder's route when it is a label; action_not_offered naming its
// actions when none fits. Returns the action run, or "select".
nd_core::Result<std::string> run_default_action(Desk&, const nd_core::ElementRef&);

// Clicks a screen point with the left button, through a DeskInput of its own.
nd_core::Result<void> click_point(Desk&, const CallScope&, nd_core::Point);

} // namespace nd_desk

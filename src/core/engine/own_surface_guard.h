#pragma once

// The one check every input path makes before it sends (docs/desk-verbs-act.md, docs/linux-x11.md,
// "Our input never lands on our surfaces"): nish-driver's takeover input (GuardedInput), the desk's
// input (DeskInput) and the desk verbs before they take the input lease. A point on one of our
// surfaces (the consent dialog, the takeover indicator, its Continue button; own_surfaces.h) is
// refused with reserved_for_person naming the surface and the point; there is no fallback to the
// window underneath, since the surface is what a click there would reach. Keys are refused while
// one of our surfaces holds the keyboard focus.
//
// Fails closed: when the backend cannot tell (timed_out, backend_unavailable), the input is refused
// with that error. A backend without own surfaces (null) lets everything through.

#include "core/backend/backend.h"

#include <optional>
#include <string_view>

namespace nd_core {

// Ok, or reserved_for_person "<what> (x, y) is on nish-driver's <surface> (kind) ...". `what` is a
// bounded identifier of ours ("the point", "the drag's end").
Result<void> refuse_own_surface_at(Backend&, Point, std::string_view what);
// Ok, or reserved_for_person while one of our surfaces holds the keyboard focus.
Result<void> refuse_own_focus(Backend&);

// The surface topmost at the point, for reads that report it (the desk's at verb); nullopt when
// none is or the backend has none. Errors as the backend gives them.
Result<std::optional<OwnSurface>> own_surface_at(Backend&, Point);

// How a kind reads in a message: "consent dialog", "takeover indicator", "Continue button"; other
// kinds as they are.
std::string surface_words(std::string_view kind);

} // namespace nd_core

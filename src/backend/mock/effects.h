#pragma once

// Applies scripted effects (docs/mock.md, "Effects") to a live window: state changes, name and
// value changes, inserted and removed subtrees, tab selection and a calculator keypad. Runs with the
// desktop mutex held. A failed effect is action_failed; effects already applied stay applied, as
// in a real app that fails halfway.

#include "backend/mock/mock_model.h"
#include "core/result.h"

#include <string>
#include <string_view>

namespace nd_mock {

// Runs `self`'s effects for `action` (none is fine: the action did something invisible).
nd_core::Result<void> apply_action_effects(MockWindow&, Node& self, const std::string& action);

// Selects `node` among its siblings (single selection) and runs its "select" effects.
nd_core::Result<void> select_node(MockWindow&, Node& node);

// Keeps what a field's filter allows ("digits": only 0-9).
std::string apply_filter(const Node&, std::string_view text);

// The calculator keypad: `key` applied to `expression` ("0", "12+3", ...); "=" evaluates left to
// right with integers, "C" clears, a division by zero gives "Error".
std::string calc_key(const std::string& expression, std::string_view key);

} // namespace nd_mock

#pragma once

// Test-hook changes to a live element (MockBackend::mutate), as if the app changed on its own:
// {"name": "..", "value": "..", "description": "..", "secret": "..", "states": [..],
//  "add_states": [..], "remove_states": [..], "append": element | [elements],
//  "replace_children": [elements], "remove": true}. Elements use the fixture syntax.

#include "backend/mock/mock_model.h"
#include "core/result.h"

#include <nlohmann/json.hpp>

namespace nd_mock {

// Mutex held. invalid_arguments for a bad patch, with nothing applied.
nd_core::Result<void> apply_patch(MockWindow&, Node&, const nlohmann::json& patch);

} // namespace nd_mock

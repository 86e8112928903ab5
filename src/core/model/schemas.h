#pragma once

// JSON Schemas (draft 7) shared by every tool's output: the error envelope of §2.1 and the pieces
// act results and windows are made of. Each tool's own output schema lives with its declaration;
// nd_driver::output_schema(tool) looks it up.

#include <nlohmann/json.hpp>

namespace nd_core::schemas {

// structuredContent of every failed call: {ok: false, error: {...}}.
const nlohmann::json& error_schema();
// The error object alone (also used for observe.error and observe.screenshot_error).
nlohmann::json error_object_schema(bool with_code_enum = true);
nlohmann::json frame_schema();
nlohmann::json window_schema();
nlohmann::json diff_schema();
nlohmann::json observe_schema();
// An act result's properties; tools add their own.
nlohmann::json act_result_schema(nlohmann::json extra_properties = nlohmann::json::object());
nlohmann::json takeover_schema();

} // namespace nd_core::schemas

#pragma once

// Input schemas and argument validation, both from a tool's ArgSpecs (one source).

#include "driver/tool.h"

namespace nd_driver {

// Global caps for arguments that declare none.
inline constexpr std::size_t DEFAULT_MAX_STRING_BYTES = 4096;
inline constexpr std::size_t DEFAULT_MAX_ARRAY_ITEMS = 64;

// {type: "object", properties: {...}, required: [...]}: no $ref, no root combinators.
nlohmann::json input_schema(const ToolDef&);

// Checks a call's arguments: missing required, wrong types of strict arguments, enums, ranges and
// sizes give invalid_arguments naming the argument; wrong-typed lenient arguments and unknown
// arguments are dropped (contract §1).
nd_core::Result<Args> validate_args(const ToolDef&, const nlohmann::json& arguments);

} // namespace nd_driver

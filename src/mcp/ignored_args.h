#pragma once

// The arguments a call's declaration let go by (contract §1: a driver ignores an argument it does
// not know and treats an optional one of the wrong type as absent), named so that a model that
// guessed a name hears of it: `click {mode: ...}` answers "mode: unknown, did you mean
// delivery_mode?" on success and on failure alike. The desk, which refuses such arguments, names
// the nearest declared one in its refusal from the same guess.

#include "mcp/tool_decl.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nd_mcp {

struct IgnoredArgument {
    std::string name;                        // as the call spelled it, cut to 64 bytes
    std::string reason;                      // "unknown", or "must be an integer" (wrong type)
    std::optional<std::string> did_you_mean; // the nearest declared name, for an unknown one
};

// At most this many are named; a call that sent more gets the first ones, in its own order.
inline constexpr std::size_t MAX_IGNORED_NAMED = 8;

// What check_arguments dropped from `arguments` under ArgPolicy::drop: unknown names and optional,
// non-strict arguments of the wrong type. Empty for a declaration that refuses instead, and for
// arguments that are not an object (the call is refused then).
std::vector<IgnoredArgument> ignored_arguments(const ToolDecl&, const nlohmann::json& arguments);

// The declared argument a mistyped or guessed name most likely meant: one that contains it or is
// contained in it ("mode" -> "delivery_mode"), else the closest by edit distance within a third of
// its length; none when nothing is near.
std::optional<std::string> nearest_argument(const ToolDecl&, std::string_view name);

// "mode: unknown, did you mean delivery_mode?; x: must be an integer" (the text line).
std::string ignored_text(const std::vector<IgnoredArgument>&);
// [{"name", "reason", "did_you_mean"?}] (the structured field), serialized.
std::string ignored_json(const std::vector<IgnoredArgument>&);

} // namespace nd_mcp

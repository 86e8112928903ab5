#pragma once

// The one declaration of an MCP tool, whichever program serves it: the contract tools of
// nish-driver, the desk verbs of shuttle, and tools a plugin or service declares at run time. A
// declaration says what the model sees (name, title, description, arguments, hints) and what a
// call may carry; from it come the input schema, the check a call's arguments pass before any
// handler runs, the tools/list entry and the generated docs (tool_docs.h), so none can drift from
// another. The front that serves a tool keeps what is its own beside the declaration: the driver
// its tool class and session rule, both fronts their handler.
//
// Ownership: every field owns its storage (std::string, std::vector), so a declaration built at
// run time from a plugin's or service's description stands alone; the compiled-in tools pay one
// copy of their literals, once, when their registry is built.

#include "core/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nd_mcp {

// json: text, an object or a list, as the caller has it (model_decide's state); listed with the
// three types.
enum class ArgType : std::uint8_t { string, integer, number, boolean, object, string_array, json };

struct ArgSpec {
    std::string name;
    ArgType type = ArgType::string;
    std::string description;
    bool required = false;
    std::vector<std::string> enum_values = {}; // strings only
    // Integer and number arguments. An integer's bounds are whole numbers, advertised as integers.
    std::optional<double> min = std::nullopt;
    std::optional<double> max = std::nullopt;
    // Under ArgPolicy::drop a wrong-typed optional argument is treated as absent (contract §1)
    // unless strict: targets, tokens and text are strict and refused with invalid_arguments.
    bool strict = false;
    std::size_t max_length = 0; // strings (bytes) and arrays (items); 0 = the policy's default cap
    // The bounds above only guard against abuse (a pid's, a token's length): checked, but not
    // advertised in the input schema, whose every token the model pays for on every turn.
    bool guard_bounds = false;
    // For object arguments: the properties it may hold (booleans only, e.g. observe).
    std::vector<std::string> bool_properties = {};
};

// What a call does with arguments its declaration does not admit. The two fronts differ here on
// purpose, and each keeps the wording of refusals its clients already know.
enum class ArgPolicy : std::uint8_t {
    // The contract's (§1), for a model that guesses: an unknown argument, and an optional one of
    // the wrong type that is not strict, is dropped as if absent. Strings and lists without a cap
    // of their own get the default caps below, and the schema advertises the caps.
    drop,
    // The desk's, for a caller that should hear of its mistake: an unknown argument or one of the
    // wrong type is refused, naming it, and the schema says additionalProperties: false. No
    // default caps (the wire bounds a request's size).
    refuse,
};

inline constexpr std::size_t DEFAULT_MAX_STRING_BYTES = 4096;
inline constexpr std::size_t DEFAULT_MAX_ARRAY_ITEMS = 64;

// MCP's tool annotations. Unset hints are left out of tools/list (each costs the model tokens on
// every turn), so a front sets only those that differ from the protocol's defaults.
struct ToolAnnotations {
    std::optional<bool> read_only = std::nullopt;
    std::optional<bool> destructive = std::nullopt;
    std::optional<bool> idempotent = std::nullopt;
    std::optional<bool> open_world = std::nullopt;
};

struct ToolDecl {
    std::string name;          // the MCP tool name
    std::string title = {};    // empty: none listed
    std::string description;   // for the model: what the tool does and answers (tools/list)
    std::vector<ArgSpec> args = {};
    std::string details = {};  // for people: how it does it (generated docs only, not tools/list)
    ToolAnnotations annotations = {};
    // The structuredContent of a success, for docs and tests; not listed (it would cost tokens).
    std::function<nlohmann::json()> output_schema = {};
    ArgPolicy policy = ArgPolicy::refuse;
};

// The JSON Schema type of an argument type ("array" for string_array; json lists three, and its
// docs name it "text or JSON").
std::string_view schema_type(ArgType);

// A bound or other number as refusals and docs show it: whole numbers without a fraction.
std::string number_text(double);

// {type: "object", properties: {...}, required: [...]}: no $ref, no root combinators.
nlohmann::json input_schema(const ToolDecl&);

// The tool's tools/list entry: {name, title?, description, inputSchema, annotations?}.
nlohmann::json list_entry(const ToolDecl&);

// Checks a call's arguments against the declaration under its policy: missing required
// arguments, wrong types, enums, ranges, sizes and (refuse) unknown arguments give
// invalid_arguments naming the argument. On success, the admitted arguments: only declared ones
// of the right type, integers as integers, objects that declare boolean properties holding only
// those (an object that declares none passes whole).
nd_core::Result<nlohmann::json> check_arguments(const ToolDecl&, const nlohmann::json& arguments);

// A JSON number as a whole int64, exactly: an integer that fits, or a float with no fraction inside
// the int64 range; otherwise (a fraction, beyond the range, not a number) none. Never goes through
// a double, which would round 2^63 - 1 up and out of range.
std::optional<std::int64_t> whole_int64(const nlohmann::json& value);

} // namespace nd_mcp

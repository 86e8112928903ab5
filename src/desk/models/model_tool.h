#pragma once

// The model tools (docs/models.md; seed 003's "model tools"): model_decide, model_ask and
// model_ground, answered by the daemon with the models of [models], so a script, a plugin or a
// service calls a model without ever holding the key. Each is a declaration (the MCP layer's
// ToolDecl, checked under ArgPolicy::refuse as the desk verbs are) and a handler, one per file, in
// one registry (model_tools.cpp). Every answer carries usage: {model, input_tokens, output_tokens,
// cached_tokens}.

#include "core/result.h"
#include "desk/models/model_client.h"
#include "desk/verb.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace nd_desk {

using ModelHandler = std::function<nd_core::Result<nlohmann::json>(ModelClient&, const CallScope&, const nlohmann::json& args)>;

struct ModelToolDef {
    nd_mcp::ToolDecl decl; // name "model_decide"
    ModelHandler handler;
    // The name after model_ ("decide"): the runtime's desk.model.decide.
    std::string_view short_name() const { return std::string_view(decl.name).substr(6); }
};

const std::vector<ModelToolDef>& model_tools();
const ModelToolDef* find_model_tool(std::string_view name);

// One call: the arguments checked against the declaration, then the handler; a failure's text
// starts with the tool's name.
nd_core::Result<nlohmann::json> call_model_tool(ModelClient&, const ModelToolDef&, const CallScope&, const nlohmann::json& args);

// A base64 PNG argument, or why not ("png_b64: ..."): valid base64 of a PNG's bytes.
nd_core::Result<void> check_png_b64(const std::string& b64, const std::string& name);

// timeout_ms, as the three declare it, and its value in a call's checked arguments.
nd_mcp::ArgSpec model_timeout_arg();
std::optional<int> model_timeout(const nlohmann::json& args);

namespace model_tool_list {
ModelToolDef decide();
ModelToolDef ask();
ModelToolDef ground();
} // namespace model_tool_list

} // namespace nd_desk

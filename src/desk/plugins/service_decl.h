#pragma once

// A service plugin's declaration (docs/services.md): a *.json file of the plugin directory with a
// "service" key,
//
//   {"service": string, "bin": string, "args"?: [string],
//    "tools": [{"name": string, "description": string, "input_schema": object, "mcp"?: bool}]}
//
// and no other field, in the file or in a tool. The rules: service matches ^[a-z][a-z0-9_]*$, at
// most 32 characters, no earlier file's; bin absolute; args strings; at least one tool, each named
// ^[a-z][a-z0-9_]*$ (at most 64 characters), no built-in tool, no desk_/model_/safety_ prefix, no
// _run suffix (the plugins' names), no other tool of this file or an earlier service; description
// non-empty, at most 2,048 characters; input_schema a JSON Schema whose type is object; mcp (default
// true) lists the tool on MCP, false keeps it on the desk wire only.

#include "core/result.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace nd_desk {

inline constexpr std::size_t SERVICE_NAME_MAX = 32;
inline constexpr std::size_t SERVICE_TOOL_NAME_MAX = 64;
inline constexpr std::size_t SERVICE_DESCRIPTION_MAX_CHARS = 2048;

struct ServiceTool {
    std::string name;
    std::string description;
    nlohmann::json input_schema; // an object whose "type" is "object"
    bool mcp = true;
};

struct Service {
    std::string name;
    std::string bin;               // absolute
    std::vector<std::string> args; // after bin
    std::vector<ServiceTool> tools;
    std::string file;              // the file it came from (its path)
};

// One parsed file (an object with a "service" key) checked against every rule; `earlier` are the
// services of the files before it. A refusal's message starts with the field at fault
// ("tools[1].name: ...").
nd_core::Result<Service> parse_service(const nlohmann::json& object, const std::string& file,
    const std::vector<Service>& earlier);

} // namespace nd_desk

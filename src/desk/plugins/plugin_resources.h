#pragma once

// The plugins' resources as `shuttle mcp` serves them (docs/plugins.md, "Resources"): listed with
// the resource's file name as its name, and read as UTF-8 text from its file when a client asks,
// so an edit shows without a restart.

#include "desk/plugins/plugin_set.h"
#include "mcp/tool_output.h"

#include <cstddef>
#include <string_view>

namespace nd_desk {

// A resource file is served up to this size; a larger one is an error naming it.
inline constexpr std::size_t PLUGIN_RESOURCE_MAX_BYTES = 4 * 1024 * 1024;

// resources/list's array: {uri, name (the path's file name), mimeType, description} for every
// resource of every loaded plugin, in file-name order.
nlohmann::json plugin_resource_list(const PluginSet&);

// resources/read of `uri`: not found when no loaded plugin has it; an error naming the file when
// it is missing, unreadable, larger than the cap or not UTF-8.
nd_mcp::ResourceText read_plugin_resource(const PluginSet&, std::string_view uri);

} // namespace nd_desk

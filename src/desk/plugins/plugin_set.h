#pragma once

// The plugin directory (docs/plugins.md), read into a value. A plugin adds one tool that runs a
// script with script_run's contract and its own program in place of Node; it is declared by one
// *.json file in the directory:
//
//   {"name": string, "description": string, "bin": string,
//    "resources"?: [{"uri": string, "path": string, "mime": string, "description": string}]}
//
// and no other field. The files are read in file-name order; each is loaded or refused on its
// own, so a bad file never takes the good ones down. A refusal names the file and the field. A
// file with a "service" key is a service plugin (service_decl.h), checked against its own schema
// and kept in `services`.
//
// The daemon reads the directory when it starts, `shuttle mcp` when an agent starts it, and
// `shuttle plugins` prints what it finds. Nothing here runs a plugin or a service.

#include "desk/config.h"
#include "desk/plugins/service_decl.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nd_desk {

// A plugin file is read only up to this size; a larger one is refused.
inline constexpr std::size_t PLUGIN_FILE_MAX_BYTES = 1024 * 1024;
// The directory's first this many *.json files (in file-name order) are read; the rest are refused.
inline constexpr std::size_t PLUGIN_FILES_MAX = 256;
inline constexpr std::size_t PLUGIN_DESCRIPTION_MAX_CHARS = 2048;
// MCP's bound on a tool name.
inline constexpr std::size_t PLUGIN_NAME_MAX = 128;

struct PluginResource {
    std::string uri;
    std::string path; // absolute; read when a client reads the resource
    std::string mime;
    std::string description;
};

struct Plugin {
    std::string name;
    std::string description;
    std::string bin;  // absolute: run in Node's place
    std::vector<PluginResource> resources;
    std::string file; // the file it came from (its path)
};

struct RefusedPlugin {
    std::string file;   // its path
    std::string reason; // starts with the field at fault, e.g. `name: must match ...`
};

struct PluginSet {
    std::string dir;
    std::vector<Plugin> loaded;           // file-name order
    std::vector<RefusedPlugin> refused;   // file-name order
    std::vector<Service> services;        // files with a "service" key, file-name order
    std::string note;                      // why nothing was read (an unreadable directory), or empty

    const Plugin* find(std::string_view name) const;
    // The resource with this uri among every plugin's, or null.
    const PluginResource* find_resource(std::string_view uri) const;
    bool has_resources() const;
    // {dir, loaded: [{name, description, bin, resources, file}],
    //  services: [{service, bin, args, tools: [{name, description, input_schema, mcp}], file}],
    //  refused: [{file, reason}], note?}
    nlohmann::json to_json() const;
    // One line per plugin and service loaded, per file refused, and the note: what a program prints on stderr
    // when it has read the directory.
    std::vector<std::string> log_lines() const;
};

// The plugin directory: [tools] plugins, else tools.d beside config.toml.
std::string plugins_dir(const DeskConfig&);

// Parses one file's text (read from `file`, at most PLUGIN_FILE_MAX_BYTES) into the set: a plugin,
// a service, or a refusal, checked against the files added before it.
void add_plugin_file(PluginSet& set, const std::string& file, const std::string& text);

// Reads every *.json file of `dir`. A missing directory is an empty set without a note (nobody
// made one); one that cannot be read is an empty set with a note saying why.
PluginSet load_plugins(const std::string& dir);

} // namespace nd_desk

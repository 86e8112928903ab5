#pragma once

// The CLI (docs/desk.md, "CLI"): `shuttle desk VERB [JSON | --name value ...]`, `shuttle stop`,
// `shuttle resume`. Each sends one frame to the daemon and prints the response text: JSON for the
// desk verbs. A shot's PNG goes to a file (--out FILE, else shot-<time>.png in the current
// directory), and the printed result names it. Exit status: 0 answered, 1 the daemon answered
// is_error (the text goes to stderr), 2 bad arguments, 3 no daemon or a broken connection.

#include "core/result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace nd_desk {

struct CliArgs {
    std::string verb;
    nlohmann::json args = nlohmann::json::object();
    std::string out_path; // --out, for a response with an image
};

// Parses what follows `shuttle desk`: the verb, then one JSON object or --name value pairs typed
// by the verb's declared arguments (a boolean flag may stand alone; a list is comma-separated).
nd_core::Result<CliArgs> parse_desk_cli(const std::vector<std::string>& argv);

int run_desk_cli(const std::vector<std::string>& argv);
// `shuttle stop` / `shuttle resume`.
int run_safety(bool stop);
// `shuttle plugins` (plugins_cli.cpp): the plugin directory as JSON {dir, loaded, refused, note?,
// on}; exit status 0, 1 when a file was refused or config.toml did not load, 2 for arguments.
int run_plugins_cli(const std::vector<std::string>& args);

} // namespace nd_desk

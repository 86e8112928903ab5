// `shuttle plugins` (docs/plugins.md, "What loaded"): reads the plugin directory the way the daemon
// and `shuttle mcp` do when they start, and prints what loaded and what was refused as JSON. It
// needs no daemon; a daemon already running read the directory when it started, so after an edit
// this shows what its next start will load.

#include "desk/cli/desk_cli.h"
#include "desk/config.h"
#include "desk/plugins/plugin_set.h"

#include <iostream>

namespace nd_desk {

int run_plugins_cli(const std::vector<std::string>& args)
{
    if (!args.empty()) {
        std::cerr << "shuttle plugins: takes no arguments (the directory comes from config.toml, docs/plugins.md)\n";
        return 2;
    }
    auto config = load_config(config_path());
    if (!config) {
        std::cerr << "shuttle plugins: " << config.error().message << "\n";
        return 1;
    }
    nlohmann::json out = load_plugins(plugins_dir(*config)).to_json();
    // [tools] script_run = false turns every plugin off with it, loaded or not.
    out["on"] = config->script_run;
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return out["refused"].empty() ? 0 : 1;
}

} // namespace nd_desk

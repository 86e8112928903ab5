#pragma once

// config.toml (docs/config.md): the daemon's socket group, the app allowlist, confirm mode and
// background input. Loaded when the daemon starts; while it fails to load, every call but
// safety_stop and safety_resume answers with the load error (docs/desk.md).
//
// Where: SHUTTLE_CONFIG when set, else $XDG_CONFIG_HOME/loomhand/shuttle/config.toml, else
// ~/.config/loomhand/shuttle/config.toml. A missing file is an empty config (no allowlist).

#include "core/result.h"
#include "desk/models/models_config.h"

#include <optional>
#include <string>
#include <vector>

namespace nd_desk {

struct DeskConfig {
    std::string path; // where it was read from (empty: defaults, no file)

    // [daemon]
    std::optional<std::string> socket_group; // opens the socket to this group (0660)

    // [apps] allow: app names (the executable on Linux), compared without case. Empty: every app.
    std::vector<std::string> allow;

    // [input] confirm (docs/confirm.md): ask the person before nothing, before each call that
    // changes the desktop ("acts"), or before every call ("all"); confirm_timeout_s bounds each ask.
    enum class ConfirmMode { off, acts, all };
    ConfirmMode confirm = ConfirmMode::off;
    std::int64_t confirm_timeout_s = 30;
    // [input] mode (docs/config.md, docs/desk-background.md): foreground input (XTEST, the window
    // raised), background input (to a named window without raising it, by its element's own
    // interfaces), or auto (background, and foreground after a refusal). `background = true` is
    // the same as mode = "background".
    enum class InputMode { foreground, background, automatic };
    InputMode input_mode = InputMode::foreground;

    // [tools] plugins: the plugin directory (docs/plugins.md), default tools.d beside config.toml.
    std::optional<std::string> plugins_dir;
    // [tools] script_run: false turns script_run (and the plugins) off.
    bool script_run = true;

    // [models]: the endpoint, key variable, timeout and models of the model tools. Runs, plugins
    // and services never see the key variable (nor OPENROUTER_API_KEY).
    ModelsConfig models;

    bool allows(std::string_view app) const;
    // The variables that hold a model key (OPENROUTER_API_KEY and [models] api_key_env): no child
    // of the daemon (a run, a plugin, a service) sees them.
    std::vector<std::string> model_key_variables() const;
};

// The path config.toml is read from (the rule above).
std::string config_path();
// The directory config.toml is in (its path's, else config_path()'s): flows/ and tools.d live there.
std::string config_dir(const DeskConfig&);

// Parses TOML text; errors are invalid_arguments naming the key or the line and column.
nd_core::Result<DeskConfig> parse_config(std::string_view text, std::string path = {});
// Reads and parses the file at `path`; a missing file gives the defaults.
nd_core::Result<DeskConfig> load_config(const std::string& path);

} // namespace nd_desk

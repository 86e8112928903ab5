#pragma once

// Starting an app for desk_launch (docs/desk-verbs-read.md): the executable looked up on PATH and
// run without a shell, in a process group of its own, with no terminal (stdio on /dev/null), in a
// systemd user scope of its own when `systemd-run --user --scope` works here (so a stop of the
// daemon's scripts or services, which ends their process groups and cgroup, spares it), else in the
// daemon's own cgroup. The launch never waits for the app; a thread reaps it when it exits.

#include "core/result.h"

#include <string>
#include <vector>

namespace nd_desk {

class Desk;

// The absolute path of an executable `name` on `path_list` (a PATH value), or "" when none.
std::string find_on_path(const std::string& name, const std::string& path_list);

// Whether `systemd-run --user --scope` works, asked once (a run of `true` in a scope) and
// remembered for the life of the process.
bool systemd_scope_works();

struct Launched {
    int pid = -1;
    bool scoped = false;
};

// Starts `executable` (an absolute path) as described above, with the daemon's environment less
// `hidden` (the model keys) and the desk's own SHUTTLE_* variables, plus `set` ("NAME=value", each
// in place of an inherited one), and no descriptor but its /dev/null stdin, stdout and stderr.
// Errors: action_failed naming why.
nd_core::Result<Launched> launch_app(const std::string& executable, const std::vector<std::string>& hidden = {},
    const std::vector<std::string>& set = {});

// Starts the app `app` (an executable's name on the daemon's PATH, no directory) within the app
// allowlist: desk_launch and computer_act's launch_app, with the backend's launch environment
// (Backend::launch_env_hidden and launch_env_set: on Linux, accessibility on for every toolkit).
// Errors: invalid_arguments naming the argument, app_out_of_scope, action_failed.
nd_core::Result<Launched> launch_named(const Desk&, const std::string& app);

} // namespace nd_desk

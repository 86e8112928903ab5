#include "desk/desk.h"
#include "desk/desk_read_launch.h"
#include "desk/verbs/read_verb_list.h"

#include <cstdlib>

namespace nd_desk::verbs {

VerbDef launch()
{
    return {
        .decl = {
            .name = "desk_launch",
            .description = "Starts an app by its executable name on PATH (no arguments, no shell), in a process group of its "
                           "own and, where systemd allows, a user scope of its own (scoped: false when it stays in the "
                           "daemon's cgroup). Answers its pid at once, without waiting for its window: wait for that with "
                           "desk_wait.",
            .args = {{"app", ArgType::string, "the executable's name, e.g. gedit", true}},
        },
        .handler = [](Desk& desk, const CallScope&, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto app = *arg_string(args, "app");
            if (app.empty() || app.find('/') != std::string::npos)
                return nd_core::make_error(nd_core::ErrorCode::invalid_arguments,
                    "app: must be an executable's name on PATH, without a directory, e.g. gedit");
            if (!desk.config().allow.empty() && !desk.config().allows(app))
                return nd_core::make_error(nd_core::ErrorCode::app_out_of_scope,
                    "the app \"" + app + "\" is not in the app allowlist ([apps] allow in config.toml): launch one it lists");
            const char* path = std::getenv("PATH");
            const auto executable = find_on_path(app, path ? path : "");
            if (executable.empty())
                return nd_core::make_error(nd_core::ErrorCode::invalid_arguments,
                    "app: no executable \"" + app + "\" is on the daemon's PATH: check the name (desk_windows shows the "
                    "apps' executable names)");
            auto launched = TRY(launch_app(executable));
            return VerbReply{{{"pid", launched.pid}, {"scoped", launched.scoped}, {"app", app}}, std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs

#include "desk/desk.h"
#include "desk/desk_read_launch.h"
#include "desk/verbs/read_verb_list.h"

namespace nd_desk::verbs {

VerbDef launch()
{
    return {
        .decl = {
            .name = "desk_launch",
            .description = "Starts an app by its executable name on PATH (no arguments, no shell), in a process group of its "
                           "own with every toolkit's accessibility on (so its windows read, GTK 2's too) and, where systemd "
                           "allows, a user scope of its own (scoped: false when it stays in the daemon's cgroup). Answers "
                           "its pid at once, without waiting for its window: wait for that with desk_wait.",
            .args = {{"app", ArgType::string, "the executable's name, e.g. gedit", true}},
        },
        .handler = [](Desk& desk, const CallScope&, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto app = *arg_string(args, "app");
            auto launched = TRY(launch_named(desk, app));
            return VerbReply{{{"pid", launched.pid}, {"scoped", launched.scoped}, {"app", app}}, std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs

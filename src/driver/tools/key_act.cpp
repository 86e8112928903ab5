#include "driver/tools/key_act.h"

#include "core/engine/guarded_input.h"
#include "driver/act_flow.h"
#include "driver/common.h"

namespace nd_driver::tools {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<nd_core::WindowInfo> key_window(ToolEnv& env, const Args& args)
{
    auto target = target_from(args);
    if (!target.empty()) {
        auto window = TRY(env.engine.resolve_window(*env.session, target));
        TRY_VOID(require_focus(env, window));
        return window;
    }
    auto all = TRY(env.engine.backend().windows()->list_windows());
    for (const auto& w : all)
        if (w.active) {
            if (!env.session->scope.allows(w))
                return make_error(ErrorCode::app_out_of_scope, "the active window belongs to an app this session was not allowed");
            return w;
        }
    return make_error(ErrorCode::window_target_not_found, "no window is active");
}

} // namespace

nd_core::Result<ToolOutput> send_keys(
    ToolEnv& env, const Args& args, std::string_view tool, const std::vector<std::string>& keys)
{
    TRY_VOID(require_takeover(env, tool));
    std::vector<std::string> keysyms;
    for (const auto& k : keys) {
        auto keysym = nd_core::normalize_key_name(k);
        if (keysym.empty())
            return make_error(ErrorCode::invalid_arguments, "a key name is not a key (use names like ctrl, Return, a, F5)");
        keysyms.push_back(std::move(keysym));
    }
    auto window = TRY(key_window(env, args));
    return run_window_act(env, args, tool, window,
        [&](ToolEnv& e, const nd_core::SnapshotPtr&, nd_core::ActResult& r) -> nd_core::Result<void> {
            nd_core::GuardedInput input(e.engine, *e.session);
            r.path = "synthetic";
            return input.press_keys(keysyms);
        });
}

} // namespace nd_driver::tools

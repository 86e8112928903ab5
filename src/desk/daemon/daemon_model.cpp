// The daemon's model calls (daemon.h): model_decide, model_ask and model_ground.

#include "desk/daemon/daemon.h"

namespace nd_desk {

namespace w = wire;

w::Response Daemon::run_model_call(const w::Request& request, const ModelToolDef& tool, std::atomic<bool>* gone, int fd)
{
    CallScope scope{request.agent_id, SafetyStopToken(m_desk->safety_stop(), gone)};
    if (fd >= 0)
        m_watcher->watch(fd, gone);
    const auto started = std::chrono::steady_clock::now();
    auto result = call_model_tool(*m_models, tool, scope, request.args);
    if (fd >= 0)
        m_watcher->unwatch(fd);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();

    // What a call cost and how it ended; never its prompt, its answer or the key.
    std::string line = tool.decl.name + " " + std::to_string(ms) + " ms: ";
    if (result) {
        const auto& usage = (*result)["usage"];
        line += "answered by " + usage.value("model", std::string()) + ", " + usage["input_tokens"].dump() + " tokens in, " +
                usage["output_tokens"].dump() + " out, " + usage["cached_tokens"].dump() + " cached";
    } else {
        line += std::string("failed (") + std::string(nd_core::error_name(result.error().code)) + ")";
    }
    m_options.log(line);

    if (!result) {
        std::string text = result.error().message;
        if (m_desk->safety_stop().stopped() && text.find("stopped") != std::string::npos)
            text = "stopped by the user (safety_stop) during " + tool.decl.name + ": nothing more was asked of the model";
        return w::error_text(text);
    }
    return w::ok_text(result->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace nd_desk

#include "core/engine/engine.h"

#include <algorithm>

namespace nd_core {

namespace {

bool contains_ci(std::string_view hay, std::string_view needle)
{
    if (needle.empty())
        return false;
    auto h = to_lower_ascii(hay);
    auto n = to_lower_ascii(needle);
    return h.find(n) != std::string::npos;
}

Error ambiguous(ErrorCode code, std::string message, const std::vector<WindowInfo>& windows)
{
    Error e(code, std::move(message));
    for (const auto& w : windows) {
        if (e.candidates.size() == MAX_CANDIDATES) {
            e.candidates_truncated = true;
            break;
        }
        e.candidates.push_back({w.window_id, w.pid, w.app});
    }
    return e;
}

} // namespace

Result<std::vector<WindowInfo>> Engine::windows_in_scope(Session& s)
{
    auto* source = m_backend.windows();
    if (!source)
        return make_error(ErrorCode::backend_unavailable, "the backend lists no windows");
    auto all = TRY(source->list_windows());
    std::vector<WindowInfo> out;
    for (auto& w : all)
        if (s.scope.allows(w))
            out.push_back(std::move(w));
    return out;
}

Result<WindowInfo> Engine::resolve_window(Session& s, const WindowTarget& t)
{
    auto* source = m_backend.windows();
    if (!source)
        return make_error(ErrorCode::backend_unavailable, "the backend lists no windows");
    auto all = TRY(source->list_windows());
    std::vector<WindowInfo> scoped;
    for (const auto& w : all)
        if (s.scope.allows(w))
            scoped.push_back(w);

    if (t.window_id) {
        auto it = std::find_if(all.begin(), all.end(), [&](const WindowInfo& w) { return w.window_id == *t.window_id; });
        if (it == all.end())
            return make_error(ErrorCode::window_target_not_found, "no window has id " + std::to_string(*t.window_id));
        if (t.pid && it->pid != *t.pid)
            return make_error(ErrorCode::window_target_not_found,
                "window " + std::to_string(*t.window_id) + " does not belong to pid " + std::to_string(*t.pid));
        if (!s.scope.allows(*it))
            return make_error(ErrorCode::app_out_of_scope,
                "window " + std::to_string(*t.window_id) + " belongs to an app this session was not allowed");
        return *it;
    }
    if (t.pid) {
        // Topmost first: the first window of the pid is its topmost.
        for (const auto& w : scoped)
            if (w.pid == *t.pid)
                return w;
        for (const auto& w : all)
            if (w.pid == *t.pid)
                return make_error(ErrorCode::app_out_of_scope,
                    "pid " + std::to_string(*t.pid) + " belongs to an app this session was not allowed");
        return make_error(ErrorCode::window_target_not_found, "no window of pid " + std::to_string(*t.pid));
    }
    if (t.app) {
        std::vector<WindowInfo> matches;
        for (const auto& w : scoped)
            if (contains_ci(w.app, *t.app) || contains_ci(w.executable, *t.app) || contains_ci(w.process, *t.app) ||
                contains_ci(w.title, *t.app))
                matches.push_back(w);
        if (matches.size() == 1)
            return matches.front();
        if (matches.empty())
            return make_error(ErrorCode::window_target_not_found, "no approved window matches app");
        return ambiguous(ErrorCode::ambiguous_target,
            std::to_string(matches.size()) + " approved windows match app", matches);
    }
    return ambiguous(ErrorCode::ambiguous_window_target,
        "no window target given (" + std::to_string(scoped.size()) + " approved windows)", scoped);
}

} // namespace nd_core

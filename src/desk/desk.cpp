#include "desk/desk.h"

#include "mcp/tool_decl.h"

#include <charconv>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;
using nd_core::WindowInfo;

std::int64_t Desk::now_ms() const
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - m_epoch).count();
}

nd_core::Result<std::vector<WindowInfo>> Desk::all_windows()
{
    auto lock = lock_backend();
    auto* source = m_backend.windows();
    if (!source)
        return make_error(ErrorCode::backend_unavailable, "this desk lists no windows");
    return source->list_windows();
}

nd_core::Result<std::vector<WindowInfo>> Desk::unmanaged_surfaces()
{
    auto lock = lock_backend();
    auto* source = m_backend.windows();
    if (!source)
        return std::vector<WindowInfo>{};
    return source->list_unmanaged();
}

bool Desk::allows(const WindowInfo& w) const
{
    // The allowlist names apps as desk_windows shows them (the executable on Linux); the app's own
    // name (WM_CLASS) and the name its process was started under (launch's "thunderbird", whose
    // executable is thunderbird-bin) are accepted too, so a list written any of these ways works.
    return m_config.allows(w.executable.empty() ? w.app : w.executable) || m_config.allows(w.app) ||
           m_config.allows(w.process);
}

nd_core::Result<std::vector<WindowInfo>> Desk::allowed_windows()
{
    auto all = TRY(all_windows());
    std::vector<WindowInfo> out;
    for (auto& w : all)
        if (allows(w))
            out.push_back(std::move(w));
    return out;
}

nd_core::Result<void> Desk::check_allowed(const WindowInfo& w) const
{
    if (allows(w))
        return {};
    const std::string& name = w.executable.empty() ? w.app : w.executable;
    return make_error(ErrorCode::app_out_of_scope,
        "the app " + (name.empty() ? std::string("of that window") : "\"" + name + "\"") +
            " is not in the app allowlist ([apps] allow in config.toml)");
}

nd_core::Result<WindowInfo> Desk::pick_window(const nlohmann::json& args, bool front_if_none)
{
    const auto title = args.is_object() && args.contains("window") && args["window"].is_string()
                           ? std::optional<std::string>(args["window"].get<std::string>())
                           : std::nullopt;
    std::optional<std::string> id;
    if (args.is_object() && args.contains("id") && args["id"].is_string())
        id = args["id"].get<std::string>();
    std::optional<std::int64_t> pid;
    if (args.is_object() && args.contains("pid"))
        pid = nd_mcp::whole_int64(args["pid"]);

    auto all = TRY(all_windows());
    if (id) {
        std::int64_t wanted = 0;
        auto [end, ec] = std::from_chars(id->data(), id->data() + id->size(), wanted);
        if (ec != std::errc() || end != id->data() + id->size())
            return make_error(ErrorCode::invalid_arguments, "id: must be a window id from desk_windows");
        for (const auto& w : all)
            if (w.window_id == wanted) {
                TRY_VOID(check_allowed(w));
                return w;
            }
        return make_error(ErrorCode::window_target_not_found, "no window has id " + *id + ": list them with desk_windows");
    }
    std::vector<const WindowInfo*> candidates;
    for (const auto& w : all)
        if (!pid || w.pid == *pid)
            candidates.push_back(&w);
    if (title) {
        std::vector<const WindowInfo*> equal, containing;
        for (const auto* w : candidates) {
            if (w->title == *title)
                equal.push_back(w);
            else if (!title->empty() && w->title.find(*title) != std::string::npos)
                containing.push_back(w);
        }
        const auto& pick = !equal.empty() ? equal : containing;
        if (pick.empty())
            return make_error(ErrorCode::window_target_not_found,
                "no window" + std::string(pid ? " of pid " + std::to_string(*pid) : "") + " is titled \"" + *title +
                    "\": list them with desk_windows");
        if (pick.size() > 1)
            return make_error(ErrorCode::ambiguous_window_target,
                std::to_string(pick.size()) + " windows match the title \"" + *title +
                    "\" alike: pass a longer title that only one matches, its id, or its pid");
        TRY_VOID(check_allowed(*pick.front()));
        return *pick.front();
    }
    if (pid) {
        if (candidates.empty())
            return make_error(ErrorCode::window_target_not_found, "process " + std::to_string(*pid) + " has no window");
        TRY_VOID(check_allowed(*candidates.front()));
        return *candidates.front(); // topmost first
    }
    if (!front_if_none)
        return make_error(ErrorCode::invalid_arguments, "window: name the window by its title, its id or its pid");
    const WindowInfo* front = nullptr;
    for (const auto& w : all)
        if (allows(w) && (!front || (w.active && !front->active)))
            front = &w;
    if (!front)
        return make_error(ErrorCode::window_target_not_found, "no window of an allowed app is open");
    return *front;
}

std::unique_lock<std::recursive_mutex> Desk::lock_capture()
{
    auto* screen = m_backend.screen();
    return std::unique_lock(screen && screen->captures_apart() ? m_capture_mutex : m_backend_mutex);
}

nd_core::Result<nd_core::SnapshotPtr> Desk::read(const WindowInfo& window)
{
    auto lock = lock_backend();
    return nd_core::read_into(m_backend, m_snapshots, window, READ_DEADLINE, now_ms());
}

nd_core::Result<nd_core::ElementRef> Desk::resolve(std::string_view id)
{
    auto lock = lock_backend();
    return nd_core::resolve_in(m_backend, m_snapshots, id, [this](const WindowInfo& w) { return allows(w); },
        READ_DEADLINE, now_ms());
}

std::string error_text(const nd_core::Error& e) { return e.message; }

} // namespace nd_desk

#include "desk/desk_read_json.h"

namespace nd_desk {

using nd_core::WindowInfo;

std::string window_id_text(const WindowInfo& w) { return std::to_string(w.window_id); }

const std::string& app_name(const WindowInfo& w) { return w.executable.empty() ? w.app : w.executable; }

nlohmann::json window_brief(const WindowInfo& w)
{
    nlohmann::json out{{"id", window_id_text(w)}, {"title", w.title}, {"pid", w.pid}};
    if (!app_name(w).empty())
        out["app"] = app_name(w);
    return out;
}

std::optional<std::string> modal_reason(const WindowInfo& window, const std::vector<WindowInfo>& all,
    std::optional<nd_core::ScreenSize> screen)
{
    if (!window.modal)
        return std::nullopt;
    if (window.hidden)
        return "hidden";
    const auto& f = window.frame;
    if (screen && (f.x + f.w <= 0 || f.y + f.h <= 0 || f.x >= screen->width || f.y >= screen->height || f.w <= 0 || f.h <= 0))
        return "off the screen";
    // A person looks for a dialog where its middle is: a window above it there hides it.
    const std::int32_t cx = f.x + f.w / 2, cy = f.y + f.h / 2;
    for (const auto& above : all) {
        if (above.window_id == window.window_id)
            break;
        if (!above.hidden && above.frame.contains(cx, cy))
            return "behind \"" + above.title + "\"";
    }
    return std::nullopt;
}

bool counts_as_own(const WindowInfo& top, const WindowInfo& target, const std::vector<WindowInfo>& all)
{
    if (top.window_id == target.window_id)
        return true;
    if (top.pid != target.pid)
        return false;
    std::size_t of_pid = 0, titled = 0;
    for (const auto& w : all)
        if (w.pid == top.pid) {
            ++of_pid;
            if (w.title == target.title)
                ++titled;
        }
    return of_pid == 1 || (top.title == target.title && titled == 1);
}

nlohmann::json windows_json(const std::vector<WindowInfo>& windows, const std::vector<WindowInfo>& all,
    std::optional<nd_core::ScreenSize> screen)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& w : windows) {
        nlohmann::json entry{{"id", window_id_text(w)}, {"title", w.title}, {"role", w.dialog ? "dialog" : "window"},
            {"pid", w.pid}, {"active", w.active}};
        if (!app_name(w).empty())
            entry["app"] = app_name(w);
        if (auto reason = modal_reason(w, all, screen)) {
            entry["modal"] = *reason;
            for (const auto& owner : all)
                if (w.transient_for != 0 && owner.window_id == w.transient_for)
                    entry["blocks"] = owner.title;
        }
        if (w.shell)
            entry["shell"] = true;
        list.push_back(std::move(entry));
    }
    return list;
}

nlohmann::json node_json(const nd_core::Snapshot& snapshot, const std::vector<nd_core::Element>& elements, std::int32_t row,
    const NodeOptions& options, const std::vector<std::string>* key_bindings)
{
    const auto& e = elements[static_cast<std::size_t>(row)];
    nlohmann::json out{{"ref", row}, {"id", nd_core::format_token(snapshot.id, row)}};
    if (e.parent >= 0)
        out["parent"] = e.parent;
    out["depth"] = e.depth;
    out["role"] = e.role;
    out["name"] = e.name;
    nlohmann::json states = nlohmann::json::array();
    for (auto s : nd_core::state_names(e.states))
        states.push_back(std::string(s));
    out["states"] = std::move(states);
    // The backend never reads a secure field's value; this guards a backend that would.
    if (!e.value.empty() && !e.secure())
        out["value"] = e.value;
    if (options.bounds && e.has_frame)
        out["bounds"] = {{"x", e.frame.x}, {"y", e.frame.y}, {"w", e.frame.w}, {"h", e.frame.h}};
    if (options.keys && key_bindings && static_cast<std::size_t>(row) < key_bindings->size()
        && !(*key_bindings)[static_cast<std::size_t>(row)].empty())
        out["keys"] = (*key_bindings)[static_cast<std::size_t>(row)];
    return out;
}

std::string outline_text(const nd_core::Snapshot& snapshot, std::int32_t first, std::int32_t count, std::size_t max_chars, bool& cut)
{
    std::string out;
    cut = false;
    const std::int32_t base = snapshot.elements[static_cast<std::size_t>(first)].depth;
    for (std::int32_t row = first; row < first + count && row < snapshot.size(); ++row) {
        const auto& e = snapshot.elements[static_cast<std::size_t>(row)];
        std::string line(static_cast<std::size_t>(2 * std::max(0, e.depth - base)), ' ');
        line += "[" + nd_core::format_token(snapshot.id, row) + "] " + e.role;
        if (!e.name.empty())
            line += " \"" + e.name + "\"";
        if (!e.value.empty() && !e.secure())
            line += " = " + e.value;
        std::string states;
        for (auto s : nd_core::state_names(e.states))
            if (s != "enabled" && s != "showing" && s != "focusable" && s != "selectable")
                states += (states.empty() ? "" : ", ") + std::string(s);
        if (!states.empty())
            line += " (" + states + ")";
        line += '\n';
        if (out.size() + line.size() > max_chars) {
            cut = true;
            break;
        }
        out += line;
    }
    return out;
}

} // namespace nd_desk

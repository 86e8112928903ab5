#include "desk/vision/vision_state.h"

#include "core/encode/utf8.h"
#include "core/model/policy.h"
#include "desk/desk.h"
#include "desk/desk_geometry.h"
#include "desk/desk_read_json.h"
#include "desk/vision/vision_shot.h"

#include <algorithm>
#include <array>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;
using nd_core::WindowInfo;

namespace {

constexpr std::array<std::string_view, 27> CONTROL_ROLES = {"push_button", "toggle_button", "check_box", "radio_button",
    "combo_box", "text", "entry", "password_text", "spin_button", "slider", "menu_item", "check_menu_item",
    "radio_menu_item", "menu", "page_tab", "link", "list_item", "tree_item", "table_cell", "icon", "scroll_bar",
    "toggle_switch", "switch", "button", "search_box", "push_button_menu", "editbar"};

// Roles that hold others: focusable ones (a list, a document) are left out even with a name.
constexpr std::array<std::string_view, 22> CONTAINER_ROLES = {"frame", "window", "dialog", "filler", "panel", "section",
    "document_web", "document_frame", "document_text", "scroll_pane", "viewport", "layered_pane", "root_pane",
    "internal_frame", "redundant_object", "unknown", "list", "list_box", "tree", "tree_table", "table", "page_tab_list"};

template <std::size_t N>
bool one_of(std::string_view role, const std::array<std::string_view, N>& roles)
{
    return std::find(roles.begin(), roles.end(), role) != roles.end();
}

// The frontmost window an agent would mean: not hidden, not the desktop shell's.
const WindowInfo* frontmost_app_window(const std::vector<WindowInfo>& windows)
{
    for (const auto& w : windows)
        if (!w.hidden && !w.shell && w.frame.has_area())
            return &w;
    return nullptr;
}

nd_core::Result<std::optional<WindowInfo>> pick_target(const std::vector<WindowInfo>& windows, const StateRequest& req)
{
    if (req.window_id) {
        for (const auto& w : windows)
            if (w.window_id == *req.window_id && (!req.pid || w.pid == *req.pid))
                return std::optional<WindowInfo>(w);
        return make_error(ErrorCode::window_target_not_found,
            "window_id: no window " + std::to_string(*req.window_id) + (req.pid ? " of pid " + std::to_string(*req.pid) : "") +
                " is on the screen; the windows list of computer_state names them");
    }
    if (req.pid) {
        for (const auto& w : windows)
            if (w.pid == *req.pid && !w.hidden)
                return std::optional<WindowInfo>(w);
        return make_error(ErrorCode::window_target_not_found,
            "pid: process " + std::to_string(*req.pid) + " shows no window; the windows list of computer_state names them");
    }
    if (const auto* w = frontmost_app_window(windows))
        return std::optional<WindowInfo>(*w);
    return std::optional<WindowInfo>{};
}

// The states a person sees on a control, space-separated: disabled, checked, selected, expanded, focused.
std::string short_states(const nd_core::Element& e)
{
    std::string out;
    auto add = [&](bool on, const char* name) {
        if (on)
            out += (out.empty() ? "" : " ") + std::string(name);
    };
    add(!e.is(nd_core::STATE_ENABLED), "disabled");
    add(e.is(nd_core::STATE_CHECKED), "checked");
    add(e.is(nd_core::STATE_SELECTED), "selected");
    add(e.is(nd_core::STATE_EXPANDED), "expanded");
    add(e.is(nd_core::STATE_FOCUSED), "focused");
    return out;
}

} // namespace

nd_core::Result<void> vision_allowed(const Desk& desk, std::string_view verb)
{
    if (!desk.config().allow.empty())
        return make_error(ErrorCode::app_out_of_scope,
            std::string(verb) + " is refused while config.toml has an app allowlist ([apps] allow): it sees and clicks the "
            "whole screen; use the desk verbs, which keep to the allowed apps");
    return {};
}

nd_core::Result<std::string> vision_session_name(Desk& desk, const CallScope& scope, const nlohmann::json& args)
{
    return desk.vision_sessions().name_for(arg_string(args, "session"), scope.agent_id);
}

bool indexable(const nd_core::Element& e)
{
    if (one_of(e.role, CONTROL_ROLES))
        return true;
    if (one_of(e.role, CONTAINER_ROLES))
        return false;
    return (e.is(nd_core::STATE_FOCUSABLE) || e.is(nd_core::STATE_EDITABLE)) && !e.name.empty();
}

nlohmann::json vision_windows_json(const std::vector<WindowInfo>& windows, double scale)
{
    auto out = nlohmann::json::array();
    for (const auto& w : windows) {
        nlohmann::json entry{{"pid", w.pid}, {"window_id", w.window_id}, {"app", app_name(w)}, {"title", w.title},
            {"geometry", {to_shot(w.frame.x, scale), to_shot(w.frame.y, scale), to_shot(w.frame.w, scale), to_shot(w.frame.h, scale)}}};
        if (w.active)
            entry["active"] = true;
        if (w.hidden)
            entry["hidden"] = true;
        if (w.shell)
            entry["shell"] = true;
        out.push_back(std::move(entry));
    }
    return out;
}

std::vector<std::string> modal_lines(const std::vector<WindowInfo>& all, std::optional<nd_core::ScreenSize> screen)
{
    std::vector<std::string> out;
    for (const auto& w : all) {
        auto reason = modal_reason(w, all, screen);
        if (!reason)
            continue;
        std::string line = "modal dialog \"" + w.title + "\" (pid " + std::to_string(w.pid) + ") is " + *reason;
        for (const auto& owner : all)
            if (w.transient_for != 0 && owner.window_id == w.transient_for)
                line += ", blocking \"" + owner.title + "\"";
        out.push_back(std::move(line));
    }
    return out;
}

nd_core::Result<VerbReply> computer_state(Desk& desk, const std::string& session_name, const StateRequest& req)
{
    const auto windows = TRY(desk.all_windows());
    const auto screen = TRY(vision_screen_size(desk));
    const auto target = TRY(pick_target(windows, req));

    VisionSession session{session_name, {}, std::nullopt};
    // The window is read while the capture is scaled (vision_shot.h).
    nd_core::SnapshotPtr snap;
    std::vector<nd_core::Element> framed;
    // A window that cannot be read (an app without accessibility, one that hangs) still gets its
    // screenshot, without elements; the blackout then searches it as any other window, and
    // blacks it out whole when that fails too.
    std::optional<std::string> unread;
    const auto picture = TRY(screen_picture(desk, req.max_edge, [&]() -> nd_core::Result<std::vector<nd_core::SnapshotPtr>> {
        if (!target)
            return std::vector<nd_core::SnapshotPtr>{};
        auto read = desk.read(*target);
        if (!read) {
            unread = read.error().message;
            return std::vector<nd_core::SnapshotPtr>{};
        }
        snap = *read;
        // Frames only for the rows that may be listed: a read defers them, and most rows are not.
        std::vector<std::int32_t> rows;
        for (std::int32_t row = 1; row < snap->size(); ++row) {
            const auto& e = snap->elements[static_cast<std::size_t>(row)];
            if (e.is(nd_core::STATE_SHOWING) && indexable(e))
                rows.push_back(row);
        }
        framed = TRY(framed_elements(desk, *snap, rows));
        return std::vector<nd_core::SnapshotPtr>{snap};
    }, &windows));
    const double scale = picture.shot.scale();
    session.shot = picture.shot;

    nlohmann::json out{{"session", session_name}, {"screen", {screen.width, screen.height}}};
    out["windows"] = vision_windows_json(windows, scale);
    if (auto lines = modal_lines(windows, screen); !lines.empty())
        out["modal"] = lines;
    std::size_t more = 0;
    if (target)
        out["elements_of"] = {{"pid", target->pid}, {"window_id", target->window_id}, {"title", target->title}};
    if (target && unread) {
        out["elements"] = nlohmann::json::array();
        out["elements_error"] = "the window could not be read, so it has no element indexes: " + *unread +
                                "; act on it by x, y in screenshot pixels";
    } else if (target) {
        const auto query = req.query ? std::optional<std::string>(nd_core::to_lower_ascii(*req.query)) : std::nullopt;
        auto list = nlohmann::json::array();
        for (std::size_t row = 1; row < framed.size(); ++row) {
            const auto& e = framed[row];
            if (!e.is(nd_core::STATE_SHOWING) || !e.has_frame || !e.frame.has_area() || !indexable(e))
                continue;
            const auto c = centre_of(e.frame);
            if (c.x < 0 || c.y < 0 || c.x >= screen.width || c.y >= screen.height || !target->frame.contains(c.x, c.y))
                continue;
            if (query && nd_core::to_lower_ascii(e.name).find(*query) == std::string::npos && nd_core::to_lower_ascii(e.role).find(*query) == std::string::npos)
                continue;
            if (session.elements.size() >= MAX_VISION_ELEMENTS) {
                ++more;
                continue;
            }
            const auto index = static_cast<std::int64_t>(session.elements.size());
            session.elements.push_back({snap->window, e.key, e.role, e.name, e.frame});
            nlohmann::json item{index, e.role, nd_core::utf8_cut(e.name, 80), to_shot(c.x, scale), to_shot(c.y, scale)};
            if (auto states = short_states(e); !states.empty())
                item.push_back(std::move(states));
            list.push_back(std::move(item));
        }
        out["element_fields"] = {"index", "role", "name", "x", "y", "states (when any)"};
        out["elements"] = std::move(list);
        if (more > 0)
            out["elements_more"] = more;
    }
    out["screenshot"] = picture_json(picture);
    desk.vision_sessions().put(std::move(session));
    return picture_reply(std::move(out), picture);
}

} // namespace nd_desk

#pragma once

// computer_state's answer (docs/vision.md): the windows frontmost first, a line per modal dialog
// the screen does not show, the indexed elements of one window with centres in screenshot pixels,
// and the screenshot. Also what computer_act shares with it: the gate every vision verb passes,
// the session a call uses, and the window list in screenshot pixels.

#include "core/backend/screen.h"
#include "core/model/snapshot.h"
#include "desk/verb.h"
#include "desk/vision/vision_sessions.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace nd_desk {

class Desk;

inline constexpr std::size_t MAX_VISION_ELEMENTS = 300;

// app_out_of_scope while config.toml has an app allowlist: the vision verbs see and click the
// whole screen, so no allowlist can hold them.
nd_core::Result<void> vision_allowed(const Desk&, std::string_view verb);

// The session name a call uses (its `session` argument, else the caller's default).
nd_core::Result<std::string> vision_session_name(Desk&, const CallScope&, const nlohmann::json& args);

// Whether a read row is worth an index: a control a person clicks or types into (buttons, boxes,
// fields, menus, tabs, links, list and tree items), or a named focusable element of another role.
bool indexable(const nd_core::Element&);

// The windows, frontmost first: pid, window_id, app, title, geometry [x, y, w, h] in screenshot
// pixels (`scale` screen pixels each), and active, hidden or shell when so.
nlohmann::json vision_windows_json(const std::vector<nd_core::WindowInfo>&, double scale);

// "modal dialog "T" (pid N) is hidden|off the screen|behind "U"[, blocking "V"]" per modal dialog
// the screen does not show.
std::vector<std::string> modal_lines(const std::vector<nd_core::WindowInfo>&, std::optional<nd_core::ScreenSize>);

struct StateRequest {
    std::optional<std::int64_t> pid;
    std::optional<std::int64_t> window_id;
    std::optional<std::string> query;
    std::int32_t max_edge = 1024;
};

// The whole computer_state call: reads, captures, stores the session's elements and scale.
nd_core::Result<VerbReply> computer_state(Desk&, const std::string& session, const StateRequest&);

} // namespace nd_desk

#pragma once

// What the read verbs answer, as JSON (docs/desk-verbs-read.md): a window entry of desk_windows,
// a node of a snapshot, and the outline text of a tree. Pure functions of values, so the desk tests
// check them without a desktop.

#include "core/backend/screen.h"
#include "core/model/snapshot.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace nd_desk {

// The windows verb's list, topmost first (the order of `windows`, which is the allowlist-filtered
// list; `all` is every window, for the modal dialogs' "behind" and "blocks"). `screen` is the
// screen's size when known, for "off the screen".
nlohmann::json windows_json(const std::vector<nd_core::WindowInfo>& windows, const std::vector<nd_core::WindowInfo>& all,
    std::optional<nd_core::ScreenSize> screen);

// Why a modal dialog is not shown, or nullopt when the screen shows it (or it is no modal dialog):
// "hidden", "off the screen", or "behind \"TITLE\"" naming the topmost window above it that covers
// its centre. `all` is topmost first and holds `window`.
std::optional<std::string> modal_reason(const nd_core::WindowInfo& window, const std::vector<nd_core::WindowInfo>& all,
    std::optional<nd_core::ScreenSize> screen);

// Whether `top`, the window on top at a point, counts as the target's own for desk_at's covered:
// it is the target, or the target's process has only that window, or it is that process's one
// window with the target's title (the same window named another way). `all` is every window.
bool counts_as_own(const nd_core::WindowInfo& top, const nd_core::WindowInfo& target, const std::vector<nd_core::WindowInfo>& all);

// The app as the desk names it: the executable where the backend knows it, else the app name the
// window gives (WM_CLASS on X11).
const std::string& app_name(const nd_core::WindowInfo&);

// The short form of a window in other verbs' answers: id, title, pid, app.
nlohmann::json window_brief(const nd_core::WindowInfo&);

// The desk id of a window: its X window id in decimal.
std::string window_id_text(const nd_core::WindowInfo&);

struct NodeOptions {
    bool bounds = false; // bounds {x, y, w, h}, when the element has a frame
    bool keys = false;   // keys, the raw key binding, when `key_bindings` has one
};

// One snapshot row: ref, id, parent (absent for the root), depth, role, name, states, value (never
// for a secure field), and bounds and keys as asked. `elements` may be the snapshot's own or a
// copy with frames filled.
nlohmann::json node_json(const nd_core::Snapshot&, const std::vector<nd_core::Element>& elements, std::int32_t row,
    const NodeOptions&, const std::vector<std::string>* key_bindings = nullptr);

// An indented outline of rows [first, first + count) (a subtree in preorder), a line each:
// "[id] role "name" = value (states)", two spaces per level below `base_depth`. Cut at a whole line
// so that it stays within max_chars; `cut` says whether lines were left out.
std::string outline_text(const nd_core::Snapshot&, std::int32_t first, std::int32_t count, std::size_t max_chars, bool& cut);

} // namespace nd_desk

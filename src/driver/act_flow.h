#pragma once

// The pipeline every act tool shares: resolve the target (a token against a fresh read, or a
// window), perform, settle, diff, judge, observe (§7.1), render. A tool supplies only `perform`.

#include "core/engine/act_result.h"
#include "driver/tool.h"

namespace nd_driver {

using ElementPerform = std::function<nd_core::Result<void>(ToolEnv&, const nd_core::ElementRef&, nd_core::ActResult&)>;
using WindowPerform = std::function<nd_core::Result<void>(ToolEnv&, const nd_core::SnapshotPtr&, nd_core::ActResult&)>;

nd_core::Result<ToolOutput> run_element_act(ToolEnv&, const Args&, std::string_view tool, const ElementPerform&);
nd_core::Result<ToolOutput> run_window_act(
    ToolEnv&, const Args&, std::string_view tool, const nd_core::WindowInfo&, const WindowPerform&);

// Refuses synthetic input outside a takeover, before anything is sent (§4.1).
nd_core::Result<void> require_takeover(const ToolEnv&, std::string_view what);

// The centre of an element, checked to lie in its window and not under another window (occlusion).
nd_core::Result<nd_core::Point> click_point(ToolEnv&, const nd_core::ElementRef&);
// Refuses keys unless the target window is the active one (the focus re-check).
nd_core::Result<void> require_focus(ToolEnv&, const nd_core::WindowInfo&);

} // namespace nd_driver

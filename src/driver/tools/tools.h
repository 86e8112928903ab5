#pragma once

// One factory per contract tool, each in its own file; registry.cpp lists them once.

#include "driver/tool.h"

namespace nd_driver::tools {

ToolDef list_windows();
ToolDef get_window_state();
ToolDef start_session();
ToolDef end_session();
ToolDef get_session_state();
ToolDef click();
ToolDef double_click();
ToolDef right_click();
ToolDef type_text();
ToolDef set_value();
ToolDef press_key();
ToolDef hotkey();
ToolDef scroll();
ToolDef drag();
ToolDef bring_to_front();
ToolDef move_cursor();
ToolDef health_report();
ToolDef clipboard_read();
ToolDef clipboard_write();
ToolDef list_notifications();
ToolDef dismiss_notification();
ToolDef invoke_notification_action();
ToolDef list_app_actions();
ToolDef app_action();

} // namespace nd_driver::tools

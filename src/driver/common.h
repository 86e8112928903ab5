#pragma once

// Argument declarations and helpers that many tools share: window targets, element tokens,
// observe, delivery_mode, and the error envelope.

#include "driver/tool.h"

namespace nd_core {
class GuardedInput;
}

namespace nd_driver {

namespace arg {
ArgSpec pid();
ArgSpec window_id();
ArgSpec app();
std::vector<ArgSpec> window_target();
ArgSpec element_token(std::string_view description = "An element's token from a read.");
ArgSpec observe();
ArgSpec delivery_mode();
} // namespace arg

nd_core::WindowTarget target_from(const Args&);

// {ok: false, error: {...}} and `<code>: <message> [retry: <disposition>] <suggestion>`.
ToolOutput error_output(const nd_core::Error&);

// A window as list_windows and get_window_state report it.
nlohmann::json window_json(const nd_core::WindowInfo&);

// Passes a glide's or a typed text's progress on to the client when it asked for progress.
void forward_progress(nd_core::GuardedInput&, const CallContext&);

// Appends `items` to `v` (for building arg lists from shared pieces).
std::vector<ArgSpec> concat(std::vector<ArgSpec> v, std::vector<ArgSpec> items);

} // namespace nd_driver

#pragma once

// computer_act's actions as values (docs/vision.md): one action object, or each of a list, checked
// whole before the first one runs, so a mistake in the third step sends nothing. Pure: no desk.

#include "core/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nd_desk {

inline constexpr std::size_t MAX_ACT_STEPS = 50;
inline constexpr double MAX_WAIT_SECONDS = 30.0;
inline constexpr std::int64_t MAX_SCROLL_AMOUNT = 50;

struct ActStep {
    std::string action; // click, left_click, double_click, right_click, triple_click, type, key, hotkey, scroll, drag, wait, launch_app
    std::optional<std::int64_t> element;
    std::optional<double> x, y, to_x, to_y; // screenshot pixels
    std::optional<std::string> text, key, direction, app, button;
    std::vector<std::string> keys;
    std::int64_t amount = 3;
    double seconds = 1.0;
    bool foreground = false;

    bool is_click() const;
    std::int32_t click_count() const; // 1, 2 or 3
    bool right_button() const;
};

// The action names, in the order the declaration lists them.
const std::vector<std::string>& act_action_names();

// One action object; `where` names it in errors ("" for the call's own arguments, "actions[2]" in
// a list). Keys other than an action's fields (and the call's session, max_edge, scale, actions)
// are refused; each action's required fields are checked.
nd_core::Result<ActStep> parse_act_step(const nlohmann::json& object, const std::string& where);

// The steps of a call: its `actions` list (1 to 50 objects) or its own action.
nd_core::Result<std::vector<ActStep>> parse_act_steps(const nlohmann::json& args);

} // namespace nd_desk

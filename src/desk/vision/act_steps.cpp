#include "desk/vision/act_steps.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

// The fields an action object may hold besides action; the call's own arguments add these.
const std::set<std::string, std::less<>> STEP_FIELDS = {"element", "x", "y", "to_x", "to_y", "text", "key", "keys",
    "direction", "amount", "app", "button", "seconds", "foreground"};
const std::set<std::string, std::less<>> CALL_FIELDS = {"session", "max_edge", "scale", "actions"};

nd_core::Error bad(const std::string& where, const std::string& field, const std::string& what)
{
    return make_error(ErrorCode::invalid_arguments, (where.empty() ? field : where + "." + field) + ": " + what);
}

} // namespace

bool ActStep::is_click() const
{
    return action == "click" || action == "left_click" || action == "double_click" || action == "right_click"
        || action == "triple_click";
}

std::int32_t ActStep::click_count() const
{
    return action == "double_click" ? 2 : action == "triple_click" ? 3 : 1;
}

bool ActStep::right_button() const
{
    return action == "right_click" || (action == "click" && button == "right");
}

const std::vector<std::string>& act_action_names()
{
    static const std::vector<std::string> names = {"click", "left_click", "double_click", "right_click", "triple_click",
        "type", "key", "hotkey", "scroll", "drag", "wait", "launch_app"};
    return names;
}

nd_core::Result<ActStep> parse_act_step(const nlohmann::json& o, const std::string& where)
{
    if (!o.is_object())
        return make_error(ErrorCode::invalid_arguments, where + ": must be an action object, {\"action\": \"click\", ...}");
    ActStep step;
    for (const auto& [key, value] : o.items()) {
        if (key == "action" || STEP_FIELDS.contains(key) || (where.empty() && CALL_FIELDS.contains(key)))
            continue;
        return bad(where, key.substr(0, 64), "no such field of an action; the fields are action, element, x, y, to_x, "
                                             "to_y, text, key, keys, direction, amount, app, button, seconds, foreground");
    }
    auto action = o.find("action");
    if (action == o.end() || !action->is_string())
        return bad(where, "action", "required, one of " + [] {
            std::string all;
            for (const auto& n : act_action_names())
                all += (all.empty() ? "" : ", ") + n;
            return all;
        }());
    step.action = action->get<std::string>();
    const auto& names = act_action_names();
    if (std::find(names.begin(), names.end(), step.action) == names.end())
        return bad(where, "action", "\"" + step.action.substr(0, 64) + "\" is no action; use click, left_click, double_click, "
                                    "right_click, triple_click, type, key, hotkey, scroll, drag, wait or launch_app");

    auto number = [&](const char* name, std::optional<double>& out) -> nd_core::Result<void> {
        auto it = o.find(name);
        if (it == o.end() || it->is_null())
            return {};
        if (!it->is_number() || !std::isfinite(it->get<double>()) || std::abs(it->get<double>()) > 1e6)
            return bad(where, name, "must be a number of screenshot pixels");
        out = it->get<double>();
        return {};
    };
    auto string = [&](const char* name, std::optional<std::string>& out, std::size_t cap) -> nd_core::Result<void> {
        auto it = o.find(name);
        if (it == o.end() || it->is_null())
            return {};
        if (!it->is_string())
            return bad(where, name, "must be a string");
        if (it->get_ref<const std::string&>().size() > cap)
            return bad(where, name, "longer than " + std::to_string(cap) + " bytes");
        out = it->get<std::string>();
        return {};
    };
    TRY_VOID(number("x", step.x));
    TRY_VOID(number("y", step.y));
    TRY_VOID(number("to_x", step.to_x));
    TRY_VOID(number("to_y", step.to_y));
    TRY_VOID(string("text", step.text, 16384));
    TRY_VOID(string("key", step.key, 256));
    TRY_VOID(string("direction", step.direction, 16));
    TRY_VOID(string("app", step.app, 256));
    TRY_VOID(string("button", step.button, 16));
    if (auto it = o.find("element"); it != o.end() && !it->is_null()) {
        if (!it->is_number_integer() && !(it->is_number_float() && std::floor(it->get<double>()) == it->get<double>()))
            return bad(where, "element", "must be a whole number, an [index] of computer_state");
        step.element = static_cast<std::int64_t>(std::clamp(it->get<double>(), -1.0, 1e6));
    }
    if (auto it = o.find("keys"); it != o.end() && !it->is_null()) {
        if (!it->is_array() || it->empty() || it->size() > 8)
            return bad(where, "keys", "must be a list of 1 to 8 key names, e.g. [\"ctrl\", \"s\"]");
        for (const auto& k : *it) {
            if (!k.is_string() || k.get_ref<const std::string&>().empty() || k.get_ref<const std::string&>().size() > 64)
                return bad(where, "keys", "must be a list of key names (strings), e.g. [\"ctrl\", \"s\"]");
            step.keys.push_back(k.get<std::string>());
        }
    }
    if (auto it = o.find("amount"); it != o.end() && !it->is_null()) {
        if (!it->is_number() || it->get<double>() < 1 || it->get<double>() > MAX_SCROLL_AMOUNT)
            return bad(where, "amount", "must be 1 to " + std::to_string(MAX_SCROLL_AMOUNT) + " notches");
        step.amount = static_cast<std::int64_t>(it->get<double>());
    }
    if (auto it = o.find("seconds"); it != o.end() && !it->is_null()) {
        if (!it->is_number() || it->get<double>() < 0 || it->get<double>() > MAX_WAIT_SECONDS)
            return bad(where, "seconds", "must be 0 to 30");
        step.seconds = it->get<double>();
    }
    if (auto it = o.find("foreground"); it != o.end() && !it->is_null()) {
        if (!it->is_boolean())
            return bad(where, "foreground", "must be true or false");
        step.foreground = it->get<bool>();
    }

    if (step.x.has_value() != step.y.has_value())
        return bad(where, step.x ? "y" : "x", "required with the other: a point takes x and y");
    if (step.to_x.has_value() != step.to_y.has_value())
        return bad(where, step.to_x ? "to_y" : "to_x", "required with the other: a drag's end takes to_x and to_y");
    const bool at_point = step.x.has_value() || step.element.has_value();
    if (step.element && step.x)
        return bad(where, "element", "give element or x and y, not both");
    if (step.button && *step.button != "left" && *step.button != "right")
        return bad(where, "button", *step.button == "middle" ? "middle is refused, since a middle click pastes; use left or right"
                                                              : "must be left or right");
    if (step.is_click() && !at_point)
        return bad(where, "element", step.action + " needs element, or x and y");
    if (step.action == "type" && !step.text)
        return bad(where, "text", "required for type");
    if (step.action == "key" && !step.key)
        return bad(where, "key", "required for key, e.g. \"Return\" or \"ctrl+s\"");
    if (step.action == "hotkey" && step.keys.empty() && !step.key)
        return bad(where, "keys", "required for hotkey, e.g. [\"ctrl\", \"s\"]");
    if (step.action == "scroll") {
        const auto d = step.direction.value_or("down");
        if (d != "up" && d != "down" && d != "left" && d != "right")
            return bad(where, "direction", "must be up, down, left or right");
        step.direction = d;
    }
    if (step.action == "drag" && (!at_point || !step.to_x))
        return bad(where, step.to_x ? "x" : "to_x", "drag needs a start (element, or x and y) and an end (to_x and to_y)");
    if (step.action == "launch_app" && (!step.app || step.app->empty()))
        return bad(where, "app", "required for launch_app: an executable's name, e.g. gedit");
    return step;
}

nd_core::Result<std::vector<ActStep>> parse_act_steps(const nlohmann::json& args)
{
    std::vector<ActStep> steps;
    auto list = args.is_object() ? args.find("actions") : args.end();
    if (args.is_object() && list != args.end() && !list->is_null()) {
        if (args.contains("action"))
            return make_error(ErrorCode::invalid_arguments, "actions: give action or actions, not both");
        if (!list->is_array() || list->empty() || list->size() > MAX_ACT_STEPS)
            return make_error(ErrorCode::invalid_arguments,
                "actions: must be a list of 1 to " + std::to_string(MAX_ACT_STEPS) + " action objects");
        for (std::size_t i = 0; i < list->size(); ++i)
            steps.push_back(TRY(parse_act_step((*list)[i], "actions[" + std::to_string(i) + "]")));
        return steps;
    }
    steps.push_back(TRY(parse_act_step(args.is_object() ? args : nlohmann::json::object(), "")));
    return steps;
}

} // namespace nd_desk

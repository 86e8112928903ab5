#include "desk/desk_targets.h"

#include "core/encode/utf8.h"
#include "desk/desk.h"
#include "desk/desk_geometry.h"
#include "desk/desk_input.h"

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

bool names_window(const nlohmann::json& args)
{
    return arg_string(args, "window").has_value() || arg_int(args, "pid").has_value();
}

nd_core::Result<std::optional<nd_core::WindowInfo>> named_window(Desk& desk, const nlohmann::json& args)
{
    if (!names_window(args))
        return std::optional<nd_core::WindowInfo>{};
    return std::optional<nd_core::WindowInfo>{TRY(desk.pick_window(args))};
}

nd_core::Result<nd_core::WindowInfo> key_target(Desk& desk, DeskInput& input, const nlohmann::json& args)
{
    if (names_window(args)) {
        auto w = TRY(desk.pick_window(args));
        if (!w.active) {
            // Foreground input reaches the focused window only: bring the named one to the front.
            TRY_VOID(input.raise(w));
            w.active = true;
        }
        return w;
    }
    auto all = TRY(desk.all_windows());
    for (const auto& w : all)
        if (w.active) {
            TRY_VOID(desk.check_allowed(w));
            return w;
        }
    return make_error(ErrorCode::window_target_not_found,
        "no window is active to receive the keys: name one with window or pid, or focus it with desk_focus");
}

nd_core::Result<void> refuse_secure_focus(Desk& desk, const nd_core::WindowInfo& window)
{
    auto snap = desk.read(window);
    if (!snap)
        return make_error(ErrorCode::secure_field_refused,
            "not sent: the focused window could not be read (" + snap.error().message +
                "), so it is unknown whether its focused field is a password field");
    for (const auto& e : (*snap)->elements) {
        if (!e.is(nd_core::STATE_FOCUSED))
            continue;
        if (e.secure())
            return make_error(ErrorCode::secure_field_refused,
                "not sent: the focused field is a password field; leave it to the person");
        auto lock = desk.lock_backend();
        if (auto* actuator = desk.backend().actuator()) {
            auto secure_now = actuator->is_secure_now((*snap)->window, e);
            if (secure_now && *secure_now)
                return make_error(ErrorCode::secure_field_refused,
                    "not sent: the focused field is a password field; leave it to the person");
        }
    }
    return {};
}

nd_core::Result<void> check_text_to_type(std::string_view text)
{
    if (!nd_core::valid_utf8(text))
        return make_error(ErrorCode::invalid_arguments, "text: not valid UTF-8");
    if (text.size() > MAX_TYPED_BYTES)
        return make_error(ErrorCode::invalid_arguments,
            "text: at most " + std::to_string(MAX_TYPED_BYTES) + " bytes at a time; type the rest in another call");
    return {};
}

nd_core::Result<void> type_text(Desk& desk, DeskInput& input, const nd_core::WindowInfo& target, std::string_view text,
    std::int64_t& typed)
{
    // After a Tab or a newline the focus may have moved (to a password field, say): the toolkit moves
    // it on its own loop, so the check waits this long before reading it again.
    constexpr std::chrono::milliseconds FOCUS_SETTLE{80};
    auto stopped = [&](nd_core::Error e) {
        e.typed_characters = typed;
        e.message += " (" + std::to_string(typed) + " characters typed)";
        return e;
    };
    bool recheck = false;
    for (std::size_t i = 0; i < text.size();) {
        char32_t cp = 0;
        const auto len = nd_core::utf8_sequence_length(text, i, &cp);
        if (len == 0)
            return stopped(make_error(ErrorCode::invalid_arguments, "text: not valid UTF-8"));
        if (recheck) {
            if (!input.pause(FOCUS_SETTLE))
                return stopped(input.check().error());
            if (auto secure = refuse_secure_focus(desk, target); !secure)
                return stopped(secure.error());
            recheck = false;
        }
        if (auto sent = input.type_char(cp); !sent)
            return stopped(sent.error());
        ++typed;
        recheck = cp == U'\t' || cp == U'\n' || cp == U'\r';
        i += len;
    }
    return {};
}

bool keys_make_text(const std::vector<std::string>& keysyms)
{
    auto is_shift = [](const std::string& k) { return k == "Shift_L" || k == "Shift_R"; };
    auto is_ctrl = [](const std::string& k) { return k == "Control_L" || k == "Control_R"; };
    std::vector<std::string> rest;
    bool shift = false, ctrl = false, other_modifier = false;
    for (const auto& k : keysyms) {
        if (is_shift(k))
            shift = true;
        else if (is_ctrl(k))
            ctrl = true;
        else if (k.starts_with("Alt_") || k.starts_with("Super_") || k.starts_with("Meta_"))
            other_modifier = true;
        else
            rest.push_back(k);
    }
    if (rest.size() != 1 || other_modifier)
        return false;
    const auto& key = rest.front();
    if (ctrl)
        return !shift && (key == "v" || key == "V");
    if (shift && key == "Insert")
        return true;
    // One character (a, 7, plus) or a named printable keysym (space, KP_1, ...).
    const bool printable_name = key == "space" || key == "plus" || key.starts_with("KP_");
    return key.size() == 1 || printable_name;
}

nd_core::Result<nd_core::Point> point_arg(const nlohmann::json& args, std::string_view x_name, std::string_view y_name,
    const std::optional<nd_core::WindowInfo>& window)
{
    const auto x = arg_int(args, x_name);
    const auto y = arg_int(args, y_name);
    if (!x || !y)
        return make_error(ErrorCode::invalid_arguments,
            std::string(x ? y_name : x_name) + ": required with " + std::string(x ? x_name : y_name) +
                "; pass both coordinates of the point");
    if (window)
        return window_pixel_to_screen(*window, *x, *y, std::string(x_name) + "," + std::string(y_name));
    if (*x < -32768 || *y < -32768 || *x > 32767 || *y > 32767)
        return make_error(ErrorCode::invalid_arguments,
            std::string(x_name) + "," + std::string(y_name) + ": off any screen; pass desk coordinates (desk_screen)");
    return nd_core::Point{static_cast<std::int32_t>(*x), static_cast<std::int32_t>(*y)};
}

} // namespace nd_desk

#include "desk/desk_input.h"

#include "core/engine/guarded_input.h"
#include "core/engine/own_surface_guard.h"
#include "desk/desk.h"

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;
using nd_core::MouseButton;
using nd_core::Point;

nd_core::Result<std::unique_ptr<DeskInput>> DeskInput::begin(Desk& desk, const CallScope& scope)
{
    if (!desk.backend().input())
        return make_error(ErrorCode::unsupported,
            "this desk sends no synthetic input (the X server lacks XTEST): use desk_press or desk_act with an "
            "element action instead");
    std::unique_lock input_lock(desk.input_mutex());
    if (scope.stop.stopped())
        return make_error(ErrorCode::stopped_by_kill_switch, "stopped by the user before any input was sent");
    std::unique_ptr<nd_core::InputLease> lease;
    {
        auto lock = desk.lock_backend();
        auto taken = desk.backend().lease_input();
        if (!taken)
            return make_error(taken.error().code,
                taken.error().message + ": no desk input while a nish-driver takeover runs; wait until it ends");
        lease = std::move(taken).value();
    }
    return std::unique_ptr<DeskInput>(new DeskInput(desk, scope, std::move(input_lock), std::move(lease)));
}

DeskInput::DeskInput(Desk& desk, const CallScope& scope, std::unique_lock<std::mutex> input_lock,
    std::unique_ptr<nd_core::InputLease> lease)
    : m_desk(desk)
    , m_scope(scope)
    , m_input_lock(std::move(input_lock))
    , m_lease(std::move(lease))
    , m_input(*desk.backend().input())
{
}

DeskInput::~DeskInput() { release_all(); }

void DeskInput::release_all()
{
    // Releases go out even after a stop or an error: nothing may stay held.
    auto lock = m_desk.lock_backend();
    while (!m_held_buttons.empty()) {
        (void)m_input.button(m_held_buttons.back(), false);
        m_held_buttons.pop_back();
    }
    while (!m_held_keys.empty()) {
        (void)m_input.key(m_held_keys.back(), false);
        m_held_keys.pop_back();
    }
}

nd_core::Result<void> DeskInput::or_release(nd_core::Result<void> sent)
{
    // A failed send lets go of everything at once, not only when the act ends (the backend lock is
    // recursive, so this may run while the caller holds it).
    if (!sent)
        release_all();
    return sent;
}

nd_core::Result<void> DeskInput::refuse_at(Point p, std::string_view what)
{
    auto lock = m_desk.lock_backend();
    return or_release(nd_core::refuse_own_surface_at(m_desk.backend(), p, what));
}

nd_core::Result<void> DeskInput::refuse_focus()
{
    auto lock = m_desk.lock_backend();
    return or_release(nd_core::refuse_own_focus(m_desk.backend()));
}

nd_core::Result<void> DeskInput::check()
{
    if (!m_scope.stop.stopped())
        return {};
    release_all();
    return make_error(ErrorCode::stopped_by_kill_switch, "stopped by the user (safety_stop); every key and button was released");
}

bool DeskInput::pause(std::chrono::milliseconds d) { return m_scope.stop.sleep_for(d); }

nd_core::Result<void> DeskInput::move(Point p)
{
    TRY_VOID(check());
    auto lock = m_desk.lock_backend();
    return m_input.move_pointer(p);
}

nd_core::Result<void> DeskInput::raise(const nd_core::WindowInfo& w)
{
    TRY_VOID(check());
    auto lock = m_desk.lock_backend();
    return m_input.raise_window(w);
}

nd_core::Result<void> DeskInput::click(Point at, MouseButton button, std::int32_t count)
{
    if (button == MouseButton::middle)
        return make_error(ErrorCode::invalid_arguments, "button: middle is refused (it pastes the primary selection); use left or right");
    TRY_VOID(refuse_at(at, "the point"));
    TRY_VOID(move(at));
    for (std::int32_t i = 0; i < count; ++i) {
        // Apart as a hand's clicks are (core/engine/guarded_input.h, MULTI_CLICK_GAP).
        if (i > 0 && !pause(nd_core::MULTI_CLICK_GAP))
            return check();
        TRY_VOID(check());
        auto lock = m_desk.lock_backend();
        m_held_buttons.push_back(button);
        TRY_VOID(or_release(m_input.button(button, true)));
        TRY_VOID(or_release(m_input.button(button, false)));
        m_held_buttons.pop_back();
    }
    return {};
}

nd_core::Result<void> DeskInput::press_keys(const std::vector<std::string>& keysyms)
{
    for (const auto& k : keysyms) {
        TRY_VOID(check());
        TRY_VOID(refuse_focus());
        auto lock = m_desk.lock_backend();
        m_held_keys.push_back(k);
        TRY_VOID(or_release(m_input.key(k, true)));
    }
    auto lock = m_desk.lock_backend();
    nd_core::Result<void> first;
    while (!m_held_keys.empty()) {
        auto released = m_input.key(m_held_keys.back(), false);
        if (!released && first.ok())
            first = std::move(released).error();
        m_held_keys.pop_back();
    }
    return first;
}

nd_core::Result<void> DeskInput::type_char(char32_t c)
{
    TRY_VOID(check());
    TRY_VOID(refuse_focus());
    auto lock = m_desk.lock_backend();
    return m_input.type_char(c);
}

nd_core::Result<void> DeskInput::scroll(Point at, std::int32_t dx, std::int32_t dy)
{
    TRY_VOID(refuse_at(at, "the point"));
    TRY_VOID(move(at));
    TRY_VOID(check());
    auto lock = m_desk.lock_backend();
    return m_input.scroll(dx, dy);
}

nd_core::Result<void> DeskInput::drag(Point from, Point to)
{
    // Both ends before anything moves: a drag onto our surface would drop there.
    TRY_VOID(refuse_at(from, "the start"));
    TRY_VOID(refuse_at(to, "the end"));
    TRY_VOID(move(from));
    {
        TRY_VOID(check());
        auto lock = m_desk.lock_backend();
        m_held_buttons.push_back(MouseButton::left);
        TRY_VOID(or_release(m_input.button(MouseButton::left, true)));
    }
    for (std::int32_t i = 1; i <= DRAG_STEPS; ++i) {
        // Toolkits start a drag only after the pointer moved a few pixels with the button down, and
        // follow it by motion events: a jump straight to the end is not a drag to most of them.
        if (!pause(DRAG_STEP))
            return check();
        Point p{from.x + (to.x - from.x) * i / DRAG_STEPS, from.y + (to.y - from.y) * i / DRAG_STEPS};
        auto moved = move(p);
        if (!moved) {
            release_all();
            return moved;
        }
    }
    if (!pause(DRAG_STEP))
        return check();
    TRY_VOID(check());
    auto lock = m_desk.lock_backend();
    TRY_VOID(or_release(m_input.button(MouseButton::left, false)));
    m_held_buttons.pop_back();
    return {};
}

nd_core::Result<std::vector<std::string>> parse_key_combination(std::string_view keys)
{
    if (keys == "+")
        return std::vector<std::string>{"plus"};
    // "ctrl++" holds the plus key itself.
    const bool plus_key = keys.size() >= 2 && keys.substr(keys.size() - 2) == "++";
    if (plus_key)
        keys.remove_suffix(2);
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const auto plus = keys.find('+', start);
        const auto part = keys.substr(start, plus == std::string_view::npos ? std::string_view::npos : plus - start);
        const auto keysym = nd_core::normalize_key_name(part);
        if (keysym.empty())
            return make_error(ErrorCode::invalid_arguments,
                "keys: \"" + std::string(part.substr(0, 32)) +
                    "\" is not a key; join key names with '+', e.g. \"ctrl+s\", \"ctrl+shift+t\", \"alt+F4\", \"Return\"");
        out.push_back(keysym);
        if (plus == std::string_view::npos)
            break;
        start = plus + 1;
    }
    if (plus_key)
        out.push_back("plus");
    if (out.size() > 8)
        return make_error(ErrorCode::invalid_arguments, "keys: at most 8 keys in one combination");
    return out;
}

} // namespace nd_desk

#include "core/engine/guarded_input.h"

#include "core/engine/own_surface_guard.h"
#include "core/encode/utf8.h"

#include <cstdlib>
#include <thread>

namespace nd_core {

namespace {

std::string_view paused_reason_name(PersonInput p)
{
    switch (p) {
    case PersonInput::pointer_moved: return "pointer_moved";
    case PersonInput::key_pressed: return "key_pressed";
    case PersonInput::button_pressed: return "button_pressed";
    }
    return "pointer_moved";
}

} // namespace

GuardedInput::GuardedInput(Engine& engine, Session& session)
    : m_engine(engine)
    , m_session(session)
{
}

GuardedInput::~GuardedInput() { release_all(); }

SyntheticInput& GuardedInput::input() { return *m_engine.backend().input(); }

Result<void> GuardedInput::stop(std::string_view reason)
{
    release_all();
    m_engine.pause(m_session, reason);
    Error e(ErrorCode::user_took_over, "the person's input stopped the call");
    e.effect = "stopped";
    e.paused_reason = std::string(reason);
    if (m_typed >= 0)
        e.typed_characters = m_typed;
    return e;
}

Result<void> GuardedInput::refused(Error e)
{
    release_all();
    e.effect = m_sent_any ? "stopped" : "refused";
    if (m_typed >= 0)
        e.typed_characters = m_typed;
    return e;
}

Result<void> GuardedInput::refuse_at(Point p, std::string_view what)
{
    auto ok = refuse_own_surface_at(m_engine.backend(), p, what);
    return ok ? ok : refused(std::move(ok).error());
}

Result<void> GuardedInput::refuse_focus()
{
    auto ok = refuse_own_focus(m_engine.backend());
    return ok ? ok : refused(std::move(ok).error());
}

Result<void> GuardedInput::check()
{
    // The kill switch or a revocation from the control pipe, while this call holds the engine.
    if (auto stopped = m_engine.interrupted(m_session.id)) {
        release_all();
        stopped->effect = m_sent_any ? "stopped" : "refused";
        if (m_typed >= 0)
            stopped->typed_characters = m_typed;
        return *stopped;
    }
    if (m_session.takeover.paused) {
        Error e(ErrorCode::user_took_over, "the takeover is paused");
        e.effect = m_sent_any ? "stopped" : "refused";
        e.paused_reason = m_session.takeover.paused_reason;
        if (m_typed >= 0)
            e.typed_characters = m_typed;
        release_all();
        return e;
    }
    auto* overlay = m_engine.backend().overlay();
    if (m_session.takeover.on && (!overlay || !overlay->indicator_alive())) {
        release_all();
        m_engine.end_takeover(m_session, "the takeover indicator was closed by another program");
    }
    if (!m_session.takeover.on || !m_engine.backend().input())
        return make_error(ErrorCode::requires_takeover, "synthetic input needs a takeover session");
    if (auto* watcher = m_engine.backend().watcher())
        if (auto person = watcher->poll())
            return stop(paused_reason_name(*person));
    if (m_session.pointer_anchor) {
        auto pos = input().pointer_position();
        if (pos.ok()) {
            auto dx = std::abs(pos->x - m_session.pointer_anchor->x);
            auto dy = std::abs(pos->y - m_session.pointer_anchor->y);
            if (dx > HANDBACK_POINTER_SLOP_PX || dy > HANDBACK_POINTER_SLOP_PX)
                return stop("pointer_moved");
        }
    }
    return Ok{};
}

Result<void> GuardedInput::move_to(Point target, std::chrono::milliseconds duration)
{
    auto start = m_session.pointer_anchor;
    if (!start) {
        auto pos = input().pointer_position();
        start = pos.ok() ? *pos : target;
    }
    const auto steps = std::max<std::int64_t>(1, duration.count() / GLIDE_STEP.count());
    for (std::int64_t i = 1; i <= steps; ++i) {
        TRY_VOID(check());
        Point p{static_cast<std::int32_t>(start->x + (target.x - start->x) * i / steps),
            static_cast<std::int32_t>(start->y + (target.y - start->y) * i / steps)};
        // Log the target before sending it: input not in the log is the person's.
        m_session.pointer_anchor = p;
        TRY_VOID(input().move_pointer(p));
        m_sent_any = true;
        if (m_progress && steps > 1)
            m_progress(i, steps, "gliding the pointer");
        if (i < steps)
            std::this_thread::sleep_for(GLIDE_STEP);
    }
    return Ok{};
}

Result<void> GuardedInput::click(Point at, MouseButton button, std::int32_t count)
{
    if (button == MouseButton::middle)
        return make_error(ErrorCode::invalid_arguments, "middle-click is refused: it pastes the primary selection");
    TRY_VOID(refuse_at(at, "the click"));
    TRY_VOID(move_to(at));
    for (std::int32_t i = 0; i < count; ++i) {
        // Clicks of a double or triple click come apart as a hand's do: toolkits that get them
        // back to back now and then count them as separate clicks (GTK3 one time in ten or so).
        if (i > 0)
            std::this_thread::sleep_for(MULTI_CLICK_GAP);
        TRY_VOID(check());
        m_held_buttons.push_back(button);
        TRY_VOID(input().button(button, true));
        m_sent_any = true;
        m_held_buttons.pop_back();
        TRY_VOID(input().button(button, false));
    }
    return Ok{};
}

Result<void> GuardedInput::press_keys(const std::vector<std::string>& keysyms)
{
    for (const auto& k : keysyms) {
        TRY_VOID(check());
        TRY_VOID(refuse_focus());
        m_held_keys.push_back(k);
        TRY_VOID(input().key(k, true));
        m_sent_any = true;
    }
    while (!m_held_keys.empty()) {
        auto k = m_held_keys.back();
        m_held_keys.pop_back();
        TRY_VOID(input().key(k, false));
    }
    return Ok{};
}

Result<std::int64_t> GuardedInput::type_text(std::string_view text)
{
    // Checked whole before the first key: a retry after a half-typed refusal would type twice.
    if (!valid_utf8(text))
        return make_error(ErrorCode::invalid_arguments, "text is not valid UTF-8");
    std::int64_t total = 0;
    if (m_progress) {
        for (std::size_t i = 0; i < text.size(); i += utf8_sequence_length(text, i, nullptr))
            ++total;
    }
    m_typed = 0;
    for (std::size_t i = 0; i < text.size();) {
        char32_t cp = 0;
        auto len = utf8_sequence_length(text, i, &cp);
        TRY_VOID(check());
        // Each character: a dialog of ours that takes the focus mid-text gets none of it.
        TRY_VOID(refuse_focus());
        TRY_VOID(input().type_char(cp));
        m_sent_any = true;
        ++m_typed;
        i += len;
        if (m_progress)
            m_progress(m_typed, total, "typing");
    }
    auto typed = m_typed;
    m_typed = -1;
    return typed;
}

Result<void> GuardedInput::scroll(Point at, std::int32_t dx, std::int32_t dy)
{
    TRY_VOID(refuse_at(at, "the scroll point"));
    TRY_VOID(move_to(at));
    TRY_VOID(check());
    TRY_VOID(input().scroll(dx, dy));
    m_sent_any = true;
    return Ok{};
}

Result<void> GuardedInput::drag(Point from, Point to)
{
    // Both ends before anything moves: a drag onto our surface would drop there.
    TRY_VOID(refuse_at(from, "the drag's start"));
    TRY_VOID(refuse_at(to, "the drag's end"));
    TRY_VOID(move_to(from));
    TRY_VOID(check());
    m_held_buttons.push_back(MouseButton::left);
    TRY_VOID(input().button(MouseButton::left, true));
    m_sent_any = true;
    TRY_VOID(move_to(to, std::chrono::milliseconds{200}));
    TRY_VOID(check());
    m_held_buttons.pop_back();
    TRY_VOID(input().button(MouseButton::left, false));
    return Ok{};
}

Result<void> GuardedInput::raise(const WindowInfo& window)
{
    TRY_VOID(check());
    TRY_VOID(input().raise_window(window));
    m_sent_any = true;
    return Ok{};
}

void GuardedInput::release_all()
{
    auto* in = m_engine.backend().input();
    if (!in)
        return;
    // Releases go out even after a stop: nothing may stay held.
    while (!m_held_buttons.empty()) {
        (void)in->button(m_held_buttons.back(), false);
        m_held_buttons.pop_back();
    }
    while (!m_held_keys.empty()) {
        (void)in->key(m_held_keys.back(), false);
        m_held_keys.pop_back();
    }
}

std::string normalize_key_name(std::string_view name)
{
    static constexpr std::pair<std::string_view, std::string_view> ALIASES[] = {
        {"ctrl", "Control_L"}, {"control", "Control_L"}, {"shift", "Shift_L"}, {"alt", "Alt_L"},
        {"super", "Super_L"}, {"meta", "Super_L"}, {"cmd", "Super_L"}, {"win", "Super_L"},
        {"enter", "Return"}, {"return", "Return"}, {"esc", "Escape"}, {"escape", "Escape"},
        {"tab", "Tab"}, {"space", "space"}, {"backspace", "BackSpace"}, {"delete", "Delete"},
        {"del", "Delete"}, {"up", "Up"}, {"down", "Down"}, {"left", "Left"}, {"right", "Right"},
        {"home", "Home"}, {"end", "End"}, {"pageup", "Page_Up"}, {"pagedown", "Page_Down"},
        {"insert", "Insert"}, {"menu", "Menu"},
    };
    if (name.empty() || name.size() > 32)
        return {};
    auto lower = to_lower_ascii(name);
    for (const auto& [alias, keysym] : ALIASES)
        if (lower == alias)
            return std::string(keysym);
    if (name.size() == 1 && static_cast<unsigned char>(name[0]) > 0x20 && static_cast<unsigned char>(name[0]) < 0x7F)
        return std::string(name);
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return {};
    return std::string(name);
}

} // namespace nd_core

// The keyboard half of X11Input: keys by keysym name and typed characters, with a borrowed spare
// keycode for characters no key produces (x11_input.h).

#include "backend/linux/x11/x11_input.h"

#include <xcb/xtest.h>

#include <algorithm>
#include <thread>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;
using nd_core::Result;

namespace {

// The mapping is read again when older than this: the person may switch layouts during a takeover,
// and one read costs a single round trip.
constexpr std::chrono::milliseconds KEYMAP_MAX_AGE{250};

std::string hex(std::uint32_t v)
{
    static constexpr char DIGITS[] = "0123456789abcdef";
    std::string out;
    do {
        out.insert(out.begin(), DIGITS[v % 16]);
        v /= 16;
    } while (v);
    return "0x" + out;
}

} // namespace

Result<const X11Keymap*> X11Input::keymap(Deadline deadline)
{
    if (!m_keymap || Clock::now() - m_keymap_read > KEYMAP_MAX_AGE) {
        m_keymap = TRY(X11Keymap::load(m_display, deadline));
        m_keymap_read = Clock::now();
    }
    return &*m_keymap;
}

Result<void> X11Input::key(std::string_view name, bool press)
{
    auto keysym = keysym_from_name(name);
    if (!keysym)
        return make_error(ErrorCode::invalid_arguments, "not a key name this driver knows");
    std::lock_guard lock(m_mutex);
    auto deadline = deadline_after(X11_BATCH_TIMEOUT);
    const X11Keymap* map = TRY(keymap(deadline));
    auto stroke = map->find(*keysym);
    if (!stroke)
        return make_error(ErrorCode::unsupported, "no key of this keyboard produces keysym " + hex(*keysym));

    if (!press) {
        auto held = m_held_keys.find(stroke->keycode);
        const xcb_keycode_t shift = held != m_held_keys.end() ? held->second.shift : 0;
        m_held_keys.erase(stroke->keycode);
        if (shift)
            return confirm({fake(XCB_KEY_RELEASE, stroke->keycode), fake(XCB_KEY_RELEASE, shift)}, deadline);
        return confirm({fake(XCB_KEY_RELEASE, stroke->keycode)}, deadline);
    }
    HeldKey held;
    if (stroke->shift) {
        auto shift = map->find(KEYSYM_SHIFT_L);
        if (!shift)
            return make_error(ErrorCode::unsupported, "keysym " + hex(*keysym) + " needs Shift, and this keyboard has no Shift_L");
        held.shift = shift->keycode;
        // Remembered before it is sent, so that release_all lets go even after a failed send.
        m_held_keys[stroke->keycode] = held;
        return confirm({fake(XCB_KEY_PRESS, shift->keycode), fake(XCB_KEY_PRESS, stroke->keycode)}, deadline);
    }
    m_held_keys[stroke->keycode] = held;
    return confirm({fake(XCB_KEY_PRESS, stroke->keycode)}, deadline);
}

Result<void> X11Input::tap(KeyStroke stroke, Deadline deadline)
{
    if (!stroke.shift)
        return confirm({fake(XCB_KEY_PRESS, stroke.keycode), fake(XCB_KEY_RELEASE, stroke.keycode)}, deadline);
    auto shift = TRY(keymap(deadline))->find(KEYSYM_SHIFT_L);
    if (!shift)
        return make_error(ErrorCode::unsupported, "this character needs Shift, and this keyboard has no Shift_L");
    return confirm({fake(XCB_KEY_PRESS, shift->keycode), fake(XCB_KEY_PRESS, stroke.keycode),
                       fake(XCB_KEY_RELEASE, stroke.keycode), fake(XCB_KEY_RELEASE, shift->keycode)},
        deadline);
}

Result<void> X11Input::type_char(char32_t c)
{
    const Keysym keysym = keysym_for_char(c);
    if (keysym == KEYSYM_NONE)
        return make_error(ErrorCode::invalid_arguments, "a control character or an invalid code point cannot be typed");
    std::lock_guard lock(m_mutex);
    auto deadline = deadline_after(X11_BATCH_TIMEOUT);
    const X11Keymap* map = TRY(keymap(deadline));
    auto stroke = map->find(keysym);
    if (!stroke && legacy_keysym_for_char(c) != KEYSYM_NONE)
        stroke = map->find(legacy_keysym_for_char(c));
    if (stroke)
        return tap(*stroke, deadline);
    return type_borrowed(keysym, deadline);
}

Result<void> X11Input::type_borrowed(Keysym keysym, Deadline deadline)
{
    const X11Keymap* map = TRY(keymap(deadline));
    auto spare = map->spare_keycode();
    if (!spare)
        return make_error(ErrorCode::unsupported, "no key produces this character and the keyboard has no spare key to map it to");
    // Both columns carry the keysym, so the character comes out whatever Shift's state.
    std::vector<xcb_keysym_t> row(map->keysyms_per_keycode(), 0);
    row[0] = keysym;
    if (row.size() > 1)
        row[1] = keysym;
    m_borrowed = *spare;
    m_keymap.reset();
    TRY_VOID(confirm({xcb_change_keyboard_mapping_checked(m_display.connection(), 1, *spare,
                         static_cast<std::uint8_t>(row.size()), row.data())},
        deadline));
    auto typed = tap(KeyStroke{*spare, false}, deadline);
    std::this_thread::sleep_for(m_remap_settle);
    auto restored = give_back(deadline_after(X11_BATCH_TIMEOUT));
    TRY_VOID(typed);
    return restored;
}

Result<void> X11Input::give_back(Deadline deadline)
{
    if (!m_borrowed)
        return {};
    // A spare keycode had no keysym at all before it was borrowed: it gets an empty row back.
    const std::uint8_t per = m_keymap ? m_keymap->keysyms_per_keycode() : std::uint8_t{2};
    std::vector<xcb_keysym_t> empty(std::max<std::uint8_t>(per, 1), 0);
    auto cookie = xcb_change_keyboard_mapping_checked(m_display.connection(), 1, *m_borrowed,
        static_cast<std::uint8_t>(empty.size()), empty.data());
    m_keymap.reset();
    auto confirmed = confirm({cookie}, deadline);
    if (confirmed.ok())
        m_borrowed.reset();
    return confirmed;
}

} // namespace nd_linux

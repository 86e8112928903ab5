#include "backend/linux/x11/x11_overlay_windows.h"

#include "backend/linux/x11/x11_own_marker.h"
#include "backend/linux/x11/x11_reply.h"
#include "backend/linux/x11/x11_xi_buttons.h"

#include <xcb/shape.h>
#include <xcb/xcbext.h>

#include <algorithm>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

// The texts are ISO 8859-1, the encoding of the core fonts used ("·" is 0xB7 there).
constexpr std::string_view ACTIVE_TEXT = "nish-driver: AI takeover active";
constexpr std::string_view PAUSED_TEXT = "You took over \xB7 Continue when ready";
constexpr std::string_view BUTTON_TEXT = "Continue";
constexpr std::uint16_t LABEL_PAD_X = 12, LABEL_PAD_Y = 6, BUTTON_PAD_X = 16, BUTTON_PAD_Y = 6, BUTTON_GAP = 4;
// A larger face when the server has it, else the one every X server has built in.
constexpr std::string_view FONTS[] = {"9x15bold", "fixed"};
constexpr char WM_CLASS_VALUE[] = "nish-indicator\0nish-driver"; // instance, class (ICCCM)

struct Rgb {
    std::uint16_t r, g, b;
};

} // namespace

nd_core::Result<void> OverlayWindows::prepare(Deadline deadline)
{
    if (m_prepared)
        return {};
    if (!m_display.extensions().shape)
        return make_error(ErrorCode::backend_unavailable,
                          "the X server has no SHAPE extension, so the takeover indicator cannot be click-through");
    xcb_connection_t* c = m_display.connection();
    for (auto name : FONTS) {
        xcb_font_t font = xcb_generate_id(c);
        auto opened = xcb_open_font_checked(c, font, static_cast<std::uint16_t>(name.size()), name.data());
        if (TRY(m_display.check(opened, deadline)) == 0) {
            m_font = font;
            break;
        }
    }
    if (!m_font)
        return make_error(ErrorCode::backend_unavailable, "the X server has no font for the takeover indicator's label");
    TRY_VOID(m_display.intern_atoms({OWN_SURFACE_PROPERTY}));
    m_own_atom = m_display.atom(OWN_SURFACE_PROPERTY);

    const xcb_colormap_t map = m_display.screen().default_colormap;
    const Rgb wanted[] = {{0xDC00, 0x1400, 0x1400}, {0x9000, 0x5000, 0x5000}, {0xB000, 0x0000, 0x0000},
        {0x5A00, 0x3C00, 0x3C00}, {0xFFFF, 0xFFFF, 0xFFFF}, {0xF2F2, 0xF2F2, 0xF2F2}, {0x1000, 0x1000, 0x1000}};
    std::uint32_t* slots[] = {&m_colours.frame, &m_colours.frame_dim, &m_colours.label, &m_colours.label_dim,
        &m_colours.text, &m_colours.button, &m_colours.button_text};
    ReplyBatch batch(m_display, deadline);
    std::vector<xcb_alloc_color_cookie_t> cookies;
    for (const auto& rgb : wanted)
        cookies.push_back(batch.add(xcb_alloc_color(c, map, rgb.r, rgb.g, rgb.b)));
    auto font_cookie = batch.add(xcb_query_font(c, m_font));
    for (std::size_t i = 0; i < cookies.size(); ++i) {
        auto reply = TRY(batch.take<xcb_alloc_color_reply_t>(cookies[i]));
        // A colormap that is full still gives a readable indicator in black and white.
        *slots[i] = reply ? reply->pixel : (wanted[i].r > 0x8000 ? m_display.screen().white_pixel
                                                                  : m_display.screen().black_pixel);
    }
    auto font = TRY(batch.take<xcb_query_font_reply_t>(font_cookie));
    if (font) {
        m_char_width = static_cast<std::uint16_t>(std::max<int>(1, font->max_bounds.character_width));
        m_ascent = static_cast<std::uint16_t>(std::max<int>(1, font->font_ascent));
        m_descent = static_cast<std::uint16_t>(std::max<int>(0, font->font_descent));
    }
    m_gc = xcb_generate_id(c);
    const std::uint32_t gc_values[] = {m_colours.text, m_colours.label, m_font, 0};
    xcb_create_gc(c, m_gc, m_display.root(), XCB_GC_FOREGROUND | XCB_GC_BACKGROUND | XCB_GC_FONT | XCB_GC_GRAPHICS_EXPOSURES,
                  gc_values);
    m_prepared = true;
    return {};
}

// The fonts used are fixed-width, so a text's width is its length times one cell.
std::uint16_t OverlayWindows::text_width(std::string_view latin1) const
{
    return static_cast<std::uint16_t>(latin1.size() * m_char_width);
}

xcb_window_t OverlayWindows::make_window(std::int16_t x, std::int16_t y, std::uint16_t w, std::uint16_t h,
    std::uint32_t back, bool takes_input, std::string_view name, std::vector<xcb_void_cookie_t>& cookies)
{
    xcb_connection_t* c = m_display.connection();
    xcb_window_t window = xcb_generate_id(c);
    // The button's clicks come through XInput 2 (select_xi_buttons below), never as core events.
    const std::uint32_t events = XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_VISIBILITY_CHANGE | XCB_EVENT_MASK_EXPOSURE;
    const std::uint32_t values[] = {back, m_colours.button_text, 1, events};
    cookies.push_back(xcb_create_window_checked(c, XCB_COPY_FROM_PARENT, window, m_display.root(), x, y, w, h,
        takes_input ? 1 : 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, m_display.screen().root_visual,
        XCB_CW_BACK_PIXEL | XCB_CW_BORDER_PIXEL | XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK, values));
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
                        static_cast<std::uint32_t>(name.size()), name.data());
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 8,
                        sizeof WM_CLASS_VALUE, WM_CLASS_VALUE);
    if (m_own_atom != XCB_ATOM_NONE)
        mark_own_surface(c, window, m_own_atom, takes_input ? SURFACE_CONTINUE : SURFACE_INDICATOR);
    if (takes_input)
        select_xi_buttons(m_display, window);
    else // an empty input region: the pointer sees through the window
        cookies.push_back(xcb_shape_rectangles_checked(c, XCB_SHAPE_SO_SET, XCB_SHAPE_SK_INPUT,
                                                       XCB_CLIP_ORDERING_UNSORTED, window, 0, 0, 0, nullptr));
    cookies.push_back(xcb_map_window_checked(c, window));
    return window;
}

void OverlayWindows::place_label()
{
    const auto text = m_paused ? PAUSED_TEXT : ACTIVE_TEXT;
    const std::uint16_t w = static_cast<std::uint16_t>(text_width(text) + 2 * LABEL_PAD_X);
    const std::int32_t x = std::max(0, (m_display.screen().width_in_pixels - w) / 2);
    const std::uint32_t values[] = {static_cast<std::uint32_t>(x), FRAME_WIDTH, w, m_label_h};
    xcb_configure_window(m_display.connection(), m_label,
        XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y | XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, values);
}

void OverlayWindows::make_button(std::vector<xcb_void_cookie_t>& cookies)
{
    m_button_w = static_cast<std::uint16_t>(text_width(BUTTON_TEXT) + 2 * BUTTON_PAD_X);
    m_button_h = static_cast<std::uint16_t>(m_ascent + m_descent + 2 * BUTTON_PAD_Y);
    const auto x = static_cast<std::int16_t>(std::max(0, (m_display.screen().width_in_pixels - m_button_w) / 2));
    const auto y = static_cast<std::int16_t>(FRAME_WIDTH + m_label_h + BUTTON_GAP);
    m_button = make_window(x, y, m_button_w, m_button_h, m_colours.button, true, "nish-driver indicator: continue",
                           cookies);
}

nd_core::Result<void> OverlayWindows::create(bool paused, Deadline deadline)
{
    TRY_VOID(prepare(deadline));
    destroy();
    m_paused = paused;
    const auto& screen = m_display.screen();
    const std::uint16_t sw = screen.width_in_pixels, sh = screen.height_in_pixels, f = FRAME_WIDTH;
    const auto inner = static_cast<std::uint16_t>(std::max(1, sh - 2 * f));
    const std::uint32_t frame = paused ? m_colours.frame_dim : m_colours.frame;
    std::vector<xcb_void_cookie_t> cookies;
    m_frame[0] = make_window(0, 0, sw, f, frame, false, "nish-driver indicator: frame top", cookies);
    m_frame[1] = make_window(0, static_cast<std::int16_t>(sh - f), sw, f, frame, false,
                             "nish-driver indicator: frame bottom", cookies);
    m_frame[2] = make_window(0, static_cast<std::int16_t>(f), f, inner, frame, false,
                             "nish-driver indicator: frame left", cookies);
    m_frame[3] = make_window(static_cast<std::int16_t>(sw - f), static_cast<std::int16_t>(f), f, inner, frame, false,
                             "nish-driver indicator: frame right", cookies);
    m_label_h = static_cast<std::uint16_t>(m_ascent + m_descent + 2 * LABEL_PAD_Y);
    m_label = make_window(0, static_cast<std::int16_t>(f), 1, m_label_h, paused ? m_colours.label_dim : m_colours.label,
                          false, "nish-driver indicator: label", cookies);
    place_label();
    if (paused)
        make_button(cookies);

    // One round trip proves the server handled every request above; their errors are then waiting.
    auto fail = [&](nd_core::Error error) -> nd_core::Error {
        destroy();
        xcb_flush(m_display.connection());
        return error;
    };
    auto last = m_display.check(cookies.back(), deadline);
    if (!last)
        return fail(last.error());
    bool refused = last.value() != 0;
    for (std::size_t i = 0; i + 1 < cookies.size(); ++i) {
        void* reply = nullptr;
        xcb_generic_error_t* error = nullptr;
        if (xcb_poll_for_reply(m_display.connection(), cookies[i].sequence, &reply, &error) && error)
            refused = true;
        std::free(reply);
        std::free(error);
    }
    if (refused)
        return fail(make_error(ErrorCode::backend_unavailable, "the X server refused the takeover indicator's windows"));

    ReplyBatch batch(m_display, deadline);
    std::vector<xcb_get_window_attributes_cookie_t> asked;
    for (auto window : windows())
        asked.push_back(batch.add(xcb_get_window_attributes(m_display.connection(), window)));
    for (auto cookie : asked) {
        auto attributes = batch.take<xcb_get_window_attributes_reply_t>(cookie);
        if (!attributes)
            return fail(attributes.error());
        if (!attributes.value() || attributes.value()->map_state != XCB_MAP_STATE_VIEWABLE)
            return fail(make_error(ErrorCode::backend_unavailable, "the takeover indicator's windows did not appear"));
    }
    return {};
}

void OverlayWindows::destroy()
{
    xcb_connection_t* c = m_display.connection();
    for (auto window : windows())
        xcb_destroy_window(c, window);
    m_frame = {};
    m_label = m_button = XCB_WINDOW_NONE;
}

void OverlayWindows::set_paused(bool paused)
{
    if (!shown() || paused == m_paused) {
        m_paused = paused;
        return;
    }
    m_paused = paused;
    xcb_connection_t* c = m_display.connection();
    const std::uint32_t frame[] = {paused ? m_colours.frame_dim : m_colours.frame};
    for (auto window : m_frame) {
        xcb_change_window_attributes(c, window, XCB_CW_BACK_PIXEL, frame);
        xcb_clear_area(c, 0, window, 0, 0, 0, 0);
    }
    const std::uint32_t label[] = {paused ? m_colours.label_dim : m_colours.label};
    xcb_change_window_attributes(c, m_label, XCB_CW_BACK_PIXEL, label);
    place_label();
    xcb_clear_area(c, 1, m_label, 0, 0, 0, 0); // the Expose that follows redraws the new text
    if (paused) {
        std::vector<xcb_void_cookie_t> ignored; // a refused button shows up as its absence
        make_button(ignored);
        for (auto cookie : ignored)
            xcb_discard_reply(c, cookie.sequence);
    } else if (m_button != XCB_WINDOW_NONE) {
        // Forgotten before it is destroyed, so its DestroyNotify does not count as a lost indicator.
        const xcb_window_t button = m_button;
        m_button = XCB_WINDOW_NONE;
        xcb_destroy_window(c, button);
    }
    raise();
}

void OverlayWindows::raise()
{
    const std::uint32_t above[] = {XCB_STACK_MODE_ABOVE};
    for (auto window : windows())
        xcb_configure_window(m_display.connection(), window, XCB_CONFIG_WINDOW_STACK_MODE, above);
}

void OverlayWindows::draw_text(xcb_window_t window, std::string_view latin1, std::uint32_t fg, std::uint32_t bg)
{
    xcb_connection_t* c = m_display.connection();
    const std::uint32_t colours[] = {fg, bg};
    xcb_change_gc(c, m_gc, XCB_GC_FOREGROUND | XCB_GC_BACKGROUND, colours);
    const bool button = window == m_button;
    const auto x = static_cast<std::int16_t>(button ? BUTTON_PAD_X : LABEL_PAD_X);
    const auto y = static_cast<std::int16_t>((button ? BUTTON_PAD_Y : LABEL_PAD_Y) + m_ascent);
    xcb_image_text_8(c, static_cast<std::uint8_t>(std::min<std::size_t>(latin1.size(), 255)), window, m_gc, x, y,
                     latin1.data());
}

void OverlayWindows::redraw(xcb_window_t window)
{
    if (window == XCB_WINDOW_NONE)
        return;
    if (window == m_label)
        draw_text(m_label, m_paused ? PAUSED_TEXT : ACTIVE_TEXT, m_colours.text,
                  m_paused ? m_colours.label_dim : m_colours.label);
    else if (window == m_button)
        draw_text(m_button, BUTTON_TEXT, m_colours.button_text, m_colours.button);
}

bool OverlayWindows::owns(xcb_window_t window) const
{
    if (window == XCB_WINDOW_NONE)
        return false;
    return window == m_label || window == m_button || std::find(m_frame.begin(), m_frame.end(), window) != m_frame.end();
}

std::vector<xcb_window_t> OverlayWindows::windows() const
{
    std::vector<xcb_window_t> out;
    for (auto window : m_frame)
        if (window != XCB_WINDOW_NONE)
            out.push_back(window);
    if (m_label != XCB_WINDOW_NONE)
        out.push_back(m_label);
    if (m_button != XCB_WINDOW_NONE)
        out.push_back(m_button);
    return out;
}

} // namespace nd_linux

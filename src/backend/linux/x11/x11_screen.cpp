#include "backend/linux/x11/x11_screen.h"

#include "backend/linux/x11/x11_properties.h"
#include "backend/linux/x11/x11_reply.h"

namespace nd_linux {

namespace {

constexpr std::chrono::milliseconds FINGERPRINT_TIMEOUT{500};

struct Fnv {
    std::uint64_t h = 1469598103934665603ull;
    void mix(const void* data, std::size_t size)
    {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < size; ++i) {
            h ^= p[i];
            h *= 1099511628211ull;
        }
    }
    template<typename T>
    void mix(const T& v)
    {
        mix(&v, sizeof v);
    }
};

} // namespace

nd_core::Result<nd_core::ScreenSize> X11Screen::size()
{
    const auto& s = m_display.screen();
    return nd_core::ScreenSize{s.width_in_pixels, s.height_in_pixels};
}

nd_core::Result<nd_core::Image> X11Screen::capture(std::int32_t x, std::int32_t y, std::int32_t w, std::int32_t h)
{
    return m_capture.capture_screen(x, y, w, h);
}

nd_core::Result<std::uint64_t> X11Screen::window_fingerprint()
{
    auto* c = m_display.connection();
    const xcb_atom_t stacking = m_display.atom("_NET_CLIENT_LIST_STACKING");
    const xcb_atom_t active = m_display.atom("_NET_ACTIVE_WINDOW");
    const xcb_atom_t name = m_display.atom("_NET_WM_NAME");
    const xcb_atom_t utf8 = m_display.atom("UTF8_STRING");
    ReplyBatch first(m_display, deadline_after(FINGERPRINT_TIMEOUT));
    auto list_cookie = first.add(xcb_get_property(c, 0, m_display.root(), stacking, XCB_ATOM_WINDOW, 0, MAX_WINDOW_LIST_UNITS));
    auto active_cookie = first.add(xcb_get_property(c, 0, m_display.root(), active, XCB_ATOM_WINDOW, 0, 1));
    auto list = TRY(first.take<xcb_get_property_reply_t>(list_cookie));
    auto focused = TRY(first.take<xcb_get_property_reply_t>(active_cookie));
    Fnv f;
    const auto windows = list ? property_u32(list.value.get()) : std::vector<std::uint32_t>{};
    for (auto w : windows)
        f.mix(w);
    if (focused)
        for (auto w : property_u32(focused.value.get()))
            f.mix(w);

    ReplyBatch second(m_display, deadline_after(FINGERPRINT_TIMEOUT));
    std::vector<xcb_get_geometry_cookie_t> geometry;
    std::vector<xcb_get_property_cookie_t> names;
    std::vector<xcb_translate_coordinates_cookie_t> origins;
    for (auto w : windows) {
        geometry.push_back(second.add(xcb_get_geometry(c, w)));
        origins.push_back(second.add(xcb_translate_coordinates(c, w, m_display.root(), 0, 0)));
        names.push_back(second.add(xcb_get_property(c, 0, w, name, utf8, 0, MAX_TEXT_PROPERTY_UNITS)));
    }
    for (std::size_t i = 0; i < windows.size(); ++i) {
        // A window that closed between the two rounds answers with an error: that is a change too.
        auto g = TRY(second.take<xcb_get_geometry_reply_t>(geometry[i]));
        auto o = TRY(second.take<xcb_translate_coordinates_reply_t>(origins[i]));
        auto n = TRY(second.take<xcb_get_property_reply_t>(names[i]));
        if (g) {
            f.mix(g->width);
            f.mix(g->height);
        } else {
            f.mix(std::uint8_t{0xEE});
        }
        if (o) {
            f.mix(o->dst_x);
            f.mix(o->dst_y);
        }
        if (n) {
            const auto len = xcb_get_property_value_length(n.value.get());
            f.mix(xcb_get_property_value(n.value.get()), static_cast<std::size_t>(len > 0 ? len : 0));
        }
    }
    return f.h;
}

} // namespace nd_linux

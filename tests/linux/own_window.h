#pragma once

// A window marked as one of nish's own surfaces (x11_own_marker.h), made by a test on a connection of
// its own, for the tests of X11OwnSurfaces and of the desk's refusal. Override-redirect (as the
// takeover indicator's windows), optionally with an empty input shape (click-through, as the
// indicator's frame and label), or managed (as the consent dialog, which the window manager
// reparents into a frame). Destroyed with the object.

#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_own_marker.h"
#include "core/model/element.h"
#include "linux/app_process.h"

#include <xcb/shape.h>

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace nd_test {

class OwnWindow {
public:
    enum class Kind : std::uint8_t { override_redirect, click_through, managed };

    // `mark` empty: an unmarked window (someone else's).
    OwnWindow(nd_linux::X11Display& x, std::string_view mark, nd_core::Frame at, Kind kind)
        : m_x(x)
        , m_window(xcb_generate_id(x.connection()))
    {
        auto* c = x.connection();
        const std::uint32_t values[] = {x.screen().white_pixel, kind == Kind::managed ? 0u : 1u};
        xcb_create_window(c, XCB_COPY_FROM_PARENT, m_window, x.root(), static_cast<std::int16_t>(at.x),
            static_cast<std::int16_t>(at.y), static_cast<std::uint16_t>(at.w), static_cast<std::uint16_t>(at.h), 0,
            XCB_WINDOW_CLASS_INPUT_OUTPUT, x.screen().root_visual, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT, values);
        if (!mark.empty())
            nd_linux::mark_own_surface(c, m_window, x.atom(nd_linux::OWN_SURFACE_PROPERTY), mark);
        if (kind == Kind::click_through)
            xcb_shape_rectangles(c, XCB_SHAPE_SO_SET, XCB_SHAPE_SK_INPUT, XCB_CLIP_ORDERING_UNSORTED, m_window, 0, 0, 0, nullptr);
        const std::string title = "nish own-surface test";
        xcb_change_property(c, XCB_PROP_MODE_REPLACE, m_window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
            static_cast<std::uint32_t>(title.size()), title.data());
        xcb_map_window(c, m_window);
        xcb_flush(c);
    }
    ~OwnWindow()
    {
        xcb_destroy_window(m_x.connection(), m_window);
        xcb_flush(m_x.connection());
    }
    OwnWindow(const OwnWindow&) = delete;
    OwnWindow& operator=(const OwnWindow&) = delete;

    xcb_window_t id() const { return m_window; }

    void unmap()
    {
        xcb_unmap_window(m_x.connection(), m_window);
        xcb_flush(m_x.connection());
    }

    // Where the window is on the root now (its client area), once viewable; nullopt before.
    std::optional<nd_core::Frame> shown() const
    {
        auto* c = m_x.connection();
        const auto deadline = nd_linux::deadline_after(std::chrono::seconds(1));
        auto attributes = m_x.wait<xcb_get_window_attributes_reply_t>(xcb_get_window_attributes(c, m_window), deadline);
        auto geometry = m_x.wait<xcb_get_geometry_reply_t>(xcb_get_geometry(c, m_window), deadline);
        auto origin = m_x.wait<xcb_translate_coordinates_reply_t>(
            xcb_translate_coordinates(c, m_window, m_x.root(), 0, 0), deadline);
        if (!attributes.ok() || !*attributes || (*attributes)->map_state != XCB_MAP_STATE_VIEWABLE || !geometry.ok()
            || !*geometry || !origin.ok() || !*origin)
            return std::nullopt;
        return nd_core::Frame{(*origin)->dst_x, (*origin)->dst_y, (*geometry)->width, (*geometry)->height};
    }

    // The window's parent: the window manager's frame once it reparented a managed window.
    xcb_window_t parent() const
    {
        auto tree = m_x.wait<xcb_query_tree_reply_t>(xcb_query_tree(m_x.connection(), m_window),
            nd_linux::deadline_after(std::chrono::seconds(1)));
        return tree.ok() && *tree ? (*tree)->parent : xcb_window_t{XCB_WINDOW_NONE};
    }

    // Waits until shown (and, for a managed window, reparented by the window manager).
    nd_core::Frame wait_shown(bool reparented = false) const
    {
        std::optional<nd_core::Frame> frame;
        const bool ok = wait_until(
            [&] {
                frame = shown();
                return frame && (!reparented || parent() != m_x.root());
            },
            std::chrono::seconds(5));
        EXPECT_TRUE(ok) << "the test window did not show" << (reparented ? " in a window manager's frame" : "");
        return frame.value_or(nd_core::Frame{});
    }

private:
    nd_linux::X11Display& m_x;
    xcb_window_t m_window;
};

} // namespace nd_test

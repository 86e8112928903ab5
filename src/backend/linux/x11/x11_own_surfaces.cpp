#include "backend/linux/x11/x11_own_surfaces.h"

#include "backend/linux/x11/x11_own_marker.h"
#include "backend/linux/x11/x11_reply.h"

#include <vector>

namespace nd_linux {

namespace {

using Surface = std::optional<nd_core::OwnSurface>;
using PropertyReply = xcb_get_property_reply_t;

// Our kinds are short; one more unit tells a longer (forged or garbled) value apart.
constexpr std::uint32_t MARK_UNITS = 9;
constexpr std::size_t MAX_KIND_BYTES = 32;

xcb_get_property_cookie_t ask_mark(xcb_connection_t* c, xcb_window_t w, xcb_atom_t mark)
{
    return xcb_get_property(c, 0, w, mark, XCB_GET_PROPERTY_TYPE_ANY, 0, MARK_UNITS);
}

// A top-level's rectangle on the root, with its border (QueryTree's children of the root).
nd_core::Frame outer_frame(const xcb_get_geometry_reply_t& g)
{
    const std::int32_t border = 2 * g.border_width;
    return {g.x, g.y, g.width + border, g.height + border};
}

struct TopCookies {
    xcb_window_t window = XCB_WINDOW_NONE;
    xcb_get_window_attributes_cookie_t attributes{};
    xcb_get_geometry_cookie_t geometry{};
    xcb_get_property_cookie_t mark{};
};

} // namespace

std::optional<std::string> surface_kind(const xcb_get_property_reply_t* reply)
{
    if (!reply || reply->type == XCB_ATOM_NONE)
        return std::nullopt;
    const auto length = static_cast<std::size_t>(xcb_get_property_value_length(reply));
    const auto* bytes = static_cast<const char*>(xcb_get_property_value(reply));
    const bool bounded = reply->type == XCB_ATOM_STRING && reply->format == 8 && reply->bytes_after == 0 && length > 0
                         && length <= MAX_KIND_BYTES;
    std::string kind = bounded ? std::string(bytes, length) : std::string();
    for (char ch : kind)
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'))
            return std::string("surface");
    return kind.empty() ? std::string("surface") : kind;
}

nd_core::Result<xcb_atom_t> X11OwnSurfaces::mark_atom()
{
    if (m_display.broken())
        return m_display.dead_error();
    TRY_VOID(m_display.intern_atoms({OWN_SURFACE_PROPERTY}));
    const auto atom = m_display.atom(OWN_SURFACE_PROPERTY);
    if (atom == XCB_ATOM_NONE)
        return m_display.timeout_error("interning the own-surface mark");
    return atom;
}

nd_core::Result<std::optional<std::string>> X11OwnSurfaces::mark_inside(xcb_window_t top, xcb_atom_t mark)
{
    auto* c = m_display.connection();
    std::vector<xcb_window_t> level{top};
    for (int depth = 0; depth < MAX_MARK_DEPTH && !level.empty(); ++depth) {
        // One round trip a level: the children of every window of this level...
        std::vector<xcb_window_t> children;
        {
            ReplyBatch batch(m_display, deadline_after(X11_BATCH_TIMEOUT));
            std::vector<xcb_query_tree_cookie_t> trees;
            for (auto w : level)
                trees.push_back(batch.add(xcb_query_tree(c, w)));
            for (const auto& cookie : trees) {
                auto tree = TRY(batch.take<xcb_query_tree_reply_t>(cookie));
                if (!tree) // destroyed meanwhile
                    continue;
                const auto* ids = xcb_query_tree_children(tree.value.get());
                const auto n = static_cast<std::size_t>(xcb_query_tree_children_length(tree.value.get()));
                for (std::size_t i = 0; i < n && children.size() < MAX_LEVEL_WINDOWS; ++i)
                    children.push_back(ids[i]);
            }
        }
        if (children.empty())
            break;
        // ...and then their marks.
        ReplyBatch batch(m_display, deadline_after(X11_BATCH_TIMEOUT));
        std::vector<xcb_get_property_cookie_t> marks;
        for (auto w : children)
            marks.push_back(batch.add(ask_mark(c, w, mark)));
        for (const auto& cookie : marks) {
            auto reply = TRY(batch.take<PropertyReply>(cookie));
            if (auto kind = surface_kind(reply.value.get()))
                return kind;
        }
        level = std::move(children);
    }
    return std::optional<std::string>{};
}

nd_core::Result<Surface> X11OwnSurfaces::at(nd_core::Point p)
{
    const auto mark = TRY(mark_atom());
    auto* c = m_display.connection();
    std::vector<xcb_window_t> bottom_to_top;
    {
        ReplyBatch batch(m_display, deadline_after(X11_BATCH_TIMEOUT));
        auto tree = TRY(batch.take<xcb_query_tree_reply_t>(batch.add(xcb_query_tree(c, m_display.root()))));
        if (!tree)
            return m_display.timeout_error("reading the root's windows");
        const auto* ids = xcb_query_tree_children(tree.value.get());
        bottom_to_top.assign(ids, ids + xcb_query_tree_children_length(tree.value.get()));
    }
    ReplyBatch batch(m_display, deadline_after(X11_BATCH_TIMEOUT));
    std::vector<TopCookies> sent;
    sent.reserve(bottom_to_top.size());
    for (auto it = bottom_to_top.rbegin(); it != bottom_to_top.rend(); ++it)
        sent.push_back({*it, batch.add(xcb_get_window_attributes(c, *it)), batch.add(xcb_get_geometry(c, *it)),
            batch.add(ask_mark(c, *it, mark))});
    for (const auto& k : sent) {
        auto attributes = TRY(batch.take<xcb_get_window_attributes_reply_t>(k.attributes));
        auto geometry = TRY(batch.take<xcb_get_geometry_reply_t>(k.geometry));
        auto own = TRY(batch.take<PropertyReply>(k.mark));
        // A window destroyed since the tree was read answers BadWindow: it is gone, not in the way.
        if (!attributes || !geometry)
            continue;
        if (attributes->map_state != XCB_MAP_STATE_VIEWABLE || attributes->_class != XCB_WINDOW_CLASS_INPUT_OUTPUT)
            continue;
        const auto frame = outer_frame(*geometry);
        if (!frame.contains(p.x, p.y))
            continue;
        // The topmost shown window at p decides: below it, nothing of ours can take the click.
        if (auto kind = surface_kind(own.value.get()))
            return Surface(nd_core::OwnSurface{*kind, frame});
        auto inside = TRY(mark_inside(k.window, mark));
        if (inside)
            return Surface(nd_core::OwnSurface{*inside, frame});
        return Surface{};
    }
    return Surface{};
}

nd_core::Result<Surface> X11OwnSurfaces::focused()
{
    const auto mark = TRY(mark_atom());
    auto* c = m_display.connection();
    const auto root = m_display.root();
    xcb_window_t window = XCB_WINDOW_NONE;
    nd_core::Point pointer;
    {
        ReplyBatch batch(m_display, deadline_after(X11_BATCH_TIMEOUT));
        auto focus_cookie = batch.add(xcb_get_input_focus(c));
        auto pointer_cookie = batch.add(xcb_query_pointer(c, root));
        auto focus = TRY(batch.take<xcb_get_input_focus_reply_t>(focus_cookie));
        auto where = TRY(batch.take<xcb_query_pointer_reply_t>(pointer_cookie));
        if (!focus)
            return m_display.timeout_error("reading the input focus");
        window = focus->focus;
        if (where)
            pointer = {where->root_x, where->root_y};
    }
    if (window == XCB_WINDOW_NONE)
        return Surface{}; // keys go nowhere
    // Keys then go to the window under the pointer.
    if (window == XCB_INPUT_FOCUS_POINTER_ROOT || window == root)
        return at(pointer);
    for (int depth = 0; depth < MAX_FOCUS_DEPTH && window != root && window != XCB_WINDOW_NONE; ++depth) {
        ReplyBatch batch(m_display, deadline_after(X11_BATCH_TIMEOUT));
        auto mark_cookie = batch.add(ask_mark(c, window, mark));
        auto tree_cookie = batch.add(xcb_query_tree(c, window));
        auto geometry_cookie = batch.add(xcb_get_geometry(c, window));
        auto origin_cookie = batch.add(xcb_translate_coordinates(c, window, root, 0, 0));
        auto own = TRY(batch.take<PropertyReply>(mark_cookie));
        auto tree = TRY(batch.take<xcb_query_tree_reply_t>(tree_cookie));
        auto geometry = TRY(batch.take<xcb_get_geometry_reply_t>(geometry_cookie));
        auto origin = TRY(batch.take<xcb_translate_coordinates_reply_t>(origin_cookie));
        if (!tree) // the focus window was destroyed meanwhile: the focus falls back to its parent
            return Surface{};
        nd_core::Frame frame;
        if (geometry && origin)
            frame = {origin->dst_x, origin->dst_y, geometry->width, geometry->height};
        if (auto kind = surface_kind(own.value.get()))
            return Surface(nd_core::OwnSurface{*kind, frame});
        // A window manager may focus the frame it put around a client of ours.
        if (tree->parent == root) {
            if (auto inside = TRY(mark_inside(window, mark)))
                return Surface(nd_core::OwnSurface{*inside, frame});
        }
        window = tree->parent;
    }
    return Surface{};
}

} // namespace nd_linux

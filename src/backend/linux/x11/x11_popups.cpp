#include "backend/linux/x11/x11_popups.h"

#include "backend/linux/x11/x11_properties.h"
#include "backend/linux/x11/x11_reply.h"

namespace nd_linux {

namespace {

struct PopupCookies {
    xcb_window_t window = XCB_WINDOW_NONE;
    xcb_get_window_attributes_cookie_t attributes{};
    xcb_get_geometry_cookie_t geometry{};
    xcb_translate_coordinates_cookie_t origin{};
    xcb_get_property_cookie_t client_extents{};
};

} // namespace

nd_core::Result<std::vector<nd_core::WindowInfo>> popups_of(X11Display& display, std::int64_t window_id)
{
    if (display.broken())
        return display.dead_error();
    auto* c = display.connection();
    const auto root = display.root();
    const std::uint32_t mask = xcb_get_setup(c)->resource_id_mask;
    const auto base = static_cast<std::uint32_t>(window_id) & ~mask;
    const auto client_extents = display.atom("_GTK_FRAME_EXTENTS");

    ReplyBatch tree_batch(display, deadline_after(X11_BATCH_TIMEOUT));
    auto tree = TRY(tree_batch.take<xcb_query_tree_reply_t>(tree_batch.add(xcb_query_tree(c, root))));
    std::vector<xcb_window_t> candidates;
    if (tree) {
        const auto* children = xcb_query_tree_children(tree.value.get());
        const auto count = xcb_query_tree_children_length(tree.value.get());
        for (int i = 0; i < count; ++i)
            if ((children[i] & ~mask) == base && children[i] != static_cast<xcb_window_t>(window_id))
                candidates.push_back(children[i]);
    }
    ReplyBatch batch(display, deadline_after(X11_BATCH_TIMEOUT));
    std::vector<PopupCookies> sent;
    for (auto w : candidates) {
        PopupCookies k;
        k.window = w;
        k.attributes = batch.add(xcb_get_window_attributes(c, w));
        k.geometry = batch.add(xcb_get_geometry(c, w));
        k.origin = batch.add(xcb_translate_coordinates(c, w, root, 0, 0));
        k.client_extents = batch.add(xcb_get_property(c, 0, w, client_extents, XCB_ATOM_CARDINAL, 0, 4));
        sent.push_back(k);
    }
    std::vector<nd_core::WindowInfo> out;
    for (const auto& k : sent) {
        // Every reply is taken, so none is left waiting inside xcb.
        auto attributes = TRY(batch.take<xcb_get_window_attributes_reply_t>(k.attributes));
        auto geometry = TRY(batch.take<xcb_get_geometry_reply_t>(k.geometry));
        auto origin = TRY(batch.take<xcb_translate_coordinates_reply_t>(k.origin));
        auto extents = TRY(batch.take<xcb_get_property_reply_t>(k.client_extents));
        if (!attributes || !geometry || !origin || !attributes->override_redirect ||
            attributes->map_state != XCB_MAP_STATE_VIEWABLE)
            continue;
        nd_core::WindowInfo info;
        info.window_id = k.window;
        info.frame = {origin->dst_x, origin->dst_y, geometry->width, geometry->height};
        if (auto e = property_extents(extents.value.get()))
            info.client_decor = *e;
        out.push_back(std::move(info));
    }
    return out;
}

} // namespace nd_linux

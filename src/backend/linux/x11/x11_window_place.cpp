#include "backend/linux/x11/x11_window_place.h"

#include "backend/linux/x11/x11_properties.h"

namespace nd_linux {

PlaceCookies ask_place(ReplyBatch& batch, X11Display& display, xcb_window_t w)
{
    auto* c = display.connection();
    PlaceCookies k;
    k.attributes = batch.add(xcb_get_window_attributes(c, w));
    k.geometry = batch.add(xcb_get_geometry(c, w));
    k.origin = batch.add(xcb_translate_coordinates(c, w, display.root(), 0, 0));
    k.client_extents = batch.add(xcb_get_property(c, 0, w, display.atom("_GTK_FRAME_EXTENTS"), XCB_ATOM_CARDINAL, 0, 4));
    return k;
}

nd_core::Result<std::optional<WindowPlace>> take_place(ReplyBatch& batch, const PlaceCookies& k)
{
    auto attributes = TRY(batch.take<xcb_get_window_attributes_reply_t>(k.attributes));
    auto geometry = TRY(batch.take<xcb_get_geometry_reply_t>(k.geometry));
    auto origin = TRY(batch.take<xcb_translate_coordinates_reply_t>(k.origin));
    auto extents = TRY(batch.take<xcb_get_property_reply_t>(k.client_extents));
    if (!attributes || !geometry || !origin)
        return std::optional<WindowPlace>{};
    WindowPlace place;
    place.viewable = attributes->map_state == XCB_MAP_STATE_VIEWABLE;
    place.override_redirect = attributes->override_redirect != 0;
    place.input_output = attributes->_class == XCB_WINDOW_CLASS_INPUT_OUTPUT;
    place.frame = {origin->dst_x, origin->dst_y, geometry->width, geometry->height};
    place.client_decor = property_extents(extents.value.get());
    return std::optional<WindowPlace>{place};
}

nd_core::Result<RootChild> climb_to_top_level(X11Display& display, xcb_window_t window, xcb_window_t parent,
                                             Deadline deadline)
{
    if (parent == XCB_WINDOW_NONE) // only the root has no parent
        return RootChild{RootChild::End::is_root};
    RootChild out{RootChild::End::found, window};
    for (int level = 0; parent != display.root(); ++level) {
        if (level == MAX_TOP_LEVEL_CLIMB)
            return RootChild{RootChild::End::too_deep};
        out.window = parent;
        ReplyBatch batch(display, deadline);
        auto tree = TRY(batch.take<xcb_query_tree_reply_t>(batch.add(xcb_query_tree(display.connection(), parent))));
        if (!tree)
            return RootChild{RootChild::End::gone, XCB_WINDOW_NONE, tree.error_code};
        parent = tree->parent;
    }
    return out;
}

nd_core::Result<std::vector<xcb_window_t>> root_children(X11Display& display)
{
    ReplyBatch batch(display, deadline_after(X11_BATCH_TIMEOUT));
    auto tree = TRY(batch.take<xcb_query_tree_reply_t>(batch.add(xcb_query_tree(display.connection(), display.root()))));
    std::vector<xcb_window_t> out;
    if (tree) {
        const auto* children = xcb_query_tree_children(tree.value.get());
        out.assign(children, children + xcb_query_tree_children_length(tree.value.get()));
    }
    return out;
}

} // namespace nd_linux

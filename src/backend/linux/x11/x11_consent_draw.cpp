#include "backend/linux/x11/x11_consent_draw.h"

#include <cairo-xcb.h>
#include <cairo.h>
#include <pango/pangocairo.h>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

xcb_visualtype_t* find_visual(const xcb_screen_t& screen)
{
    for (auto depth = xcb_screen_allowed_depths_iterator(&screen); depth.rem; xcb_depth_next(&depth))
        for (auto visual = xcb_depth_visuals_iterator(depth.data); visual.rem; xcb_visualtype_next(&visual))
            if (visual.data->visual_id == screen.root_visual)
                return visual.data;
    return nullptr;
}

void set_rgb(cairo_t* cr, unsigned rgb)
{
    cairo_set_source_rgb(cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0);
}

void rectangle(cairo_t* cr, const ConsentRect& r)
{
    cairo_rectangle(cr, r.x + 0.5, r.y + 0.5, r.width - 1, r.height - 1);
}

// One line of text in `box`, vertically centred, cut with "…" when it does not fit. `centred` also
// centres it horizontally (button labels).
void text(cairo_t* cr, const ConsentRect& box, const std::string& line, bool bold, bool centred, unsigned rgb)
{
    PangoLayout* layout = pango_cairo_create_layout(cr);
    PangoFontDescription* font = pango_font_description_from_string(bold ? "Sans Bold 11" : "Sans 11");
    pango_layout_set_font_description(layout, font);
    pango_font_description_free(font);
    pango_layout_set_single_paragraph_mode(layout, TRUE);
    pango_layout_set_width(layout, box.width * PANGO_SCALE);
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
    if (centred)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER);
    pango_layout_set_text(layout, line.c_str(), static_cast<int>(line.size()));
    int width = 0, height = 0;
    pango_layout_get_pixel_size(layout, &width, &height);
    set_rgb(cr, rgb);
    cairo_move_to(cr, box.x, box.y + (box.height - height) / 2.0);
    pango_cairo_show_layout(cr, layout);
    g_object_unref(layout);
}

void tick_row(cairo_t* cr, const ConsentRect& row, const ConsentRect& box, std::string_view label, bool ticked)
{
    set_rgb(cr, 0xffffff);
    rectangle(cr, box);
    cairo_fill_preserve(cr);
    set_rgb(cr, 0x303030);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
    if (ticked) {
        cairo_set_line_width(cr, 2.5);
        cairo_move_to(cr, box.x + 4, box.y + box.height / 2.0);
        cairo_line_to(cr, box.x + box.width * 0.42, box.y + box.height - 4);
        cairo_line_to(cr, box.x + box.width - 3, box.y + 3);
        cairo_stroke(cr);
    }
    const int label_x = box.x + box.width + 10;
    text(cr, {label_x, row.y, row.x + row.width - label_x, row.height}, std::string(label), true, false, 0x8a1010);
}

void button(cairo_t* cr, const ConsentRect& r, const char* label, bool pressed)
{
    set_rgb(cr, pressed ? 0xb8b8b8 : 0xe4e4e4);
    rectangle(cr, r);
    cairo_fill_preserve(cr);
    set_rgb(cr, 0x505050);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    text(cr, r, label, true, true, 0x101010);
}

} // namespace

nd_core::Result<std::unique_ptr<ConsentPainter>> ConsentPainter::create(xcb_connection_t* connection,
    const xcb_screen_t& screen, xcb_window_t window, int width, int height)
{
    auto* visual = find_visual(screen);
    if (!visual)
        return make_error(ErrorCode::backend_unavailable, "the X screen's root visual was not found, so the consent dialog cannot be drawn");
    cairo_surface_t* surface = cairo_xcb_surface_create(connection, window, visual, width, height);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        return make_error(ErrorCode::backend_unavailable, "cairo cannot draw on the consent dialog's window");
    }
    return std::unique_ptr<ConsentPainter>(new ConsentPainter(surface));
}

ConsentPainter::~ConsentPainter()
{
    // Finishing first makes cairo release its server-side resources while the window still exists.
    // cairo keeps one device per xcb connection in a global list, keyed by the connection's
    // address; the device is finished too, or the next ask's connection (often at the same address)
    // would meet the stale one.
    cairo_device_t* device = cairo_device_reference(cairo_surface_get_device(m_surface));
    cairo_surface_finish(m_surface);
    cairo_surface_destroy(m_surface);
    if (device) {
        cairo_device_finish(device);
        cairo_device_destroy(device);
    }
}

void ConsentPainter::paint(const ConsentLayout& layout, const ConsentView& view)
{
    cairo_t* cr = cairo_create(m_surface);
    set_rgb(cr, 0xf6f6f4);
    cairo_paint(cr);
    for (const auto& line : layout.texts)
        text(cr, line.rect, line.text, line.bold, false, 0x101010);
    if (layout.takeover && layout.takeover_box)
        tick_row(cr, *layout.takeover, *layout.takeover_box, CONSENT_TAKEOVER_LINE, view.takeover_ticked);
    if (layout.clipboard && layout.clipboard_box)
        tick_row(cr, *layout.clipboard, *layout.clipboard_box, CONSENT_CLIPBOARD_LINE, view.clipboard_ticked);
    if (view.refused)
        text(cr, layout.notice, std::string(CONSENT_REFUSED_NOTICE), false, false, 0x8a1010);
    button(cr, layout.deny, "Deny", view.pressed == ConsentControl::deny);
    button(cr, layout.allow, "Allow", view.pressed == ConsentControl::allow);
    cairo_destroy(cr);
    cairo_surface_flush(m_surface);
}

} // namespace nd_linux

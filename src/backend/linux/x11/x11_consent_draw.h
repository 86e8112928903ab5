#pragma once

// Paints the consent dialog with cairo on its xcb window and pango for the text (set as plain
// text, never markup, since app names are untrusted). Painting only reads the layout and the
// dialog's state; hit-testing lives in ConsentLayout so it never depends on what was drawn.

#include "backend/linux/x11/x11_consent_layout.h"
#include "core/result.h"

#include <xcb/xcb.h>

#include <memory>

typedef struct _cairo_surface cairo_surface_t;

namespace nd_linux {

struct ConsentView {
    bool takeover_ticked = false;
    bool clipboard_ticked = false;
    ConsentControl pressed = ConsentControl::none; // drawn sunken while the button is held
    bool refused = false; // the last click was not taken as the person's: the notice shows
};

class ConsentPainter {
public:
    // A cairo surface on `window` (of the screen's root visual). Errors: backend_unavailable when
    // the visual is not found or cairo cannot make the surface.
    static nd_core::Result<std::unique_ptr<ConsentPainter>> create(xcb_connection_t*, const xcb_screen_t&,
        xcb_window_t window, int width, int height);
    ~ConsentPainter();
    ConsentPainter(const ConsentPainter&) = delete;
    ConsentPainter& operator=(const ConsentPainter&) = delete;

    // Draws everything and flushes cairo's requests to the connection.
    void paint(const ConsentLayout&, const ConsentView&);

private:
    explicit ConsentPainter(cairo_surface_t* surface) : m_surface(surface) {}
    cairo_surface_t* m_surface = nullptr;
};

} // namespace nd_linux

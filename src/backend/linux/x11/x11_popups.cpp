#include "backend/linux/x11/x11_popups.h"

#include "backend/linux/x11/x11_window_place.h"

namespace nd_linux {

nd_core::Result<std::vector<nd_core::WindowInfo>> popups_of(X11Display& display, std::int64_t window_id)
{
    if (display.broken())
        return display.dead_error();
    const std::uint32_t mask = xcb_get_setup(display.connection())->resource_id_mask;
    const auto base = static_cast<std::uint32_t>(window_id) & ~mask;
    std::vector<xcb_window_t> candidates;
    for (auto w : TRY(root_children(display)))
        if ((w & ~mask) == base && w != static_cast<xcb_window_t>(window_id))
            candidates.push_back(w);

    ReplyBatch batch(display, deadline_after(X11_BATCH_TIMEOUT));
    std::vector<std::pair<xcb_window_t, PlaceCookies>> sent;
    for (auto w : candidates)
        sent.emplace_back(w, ask_place(batch, display, w));
    std::vector<nd_core::WindowInfo> out;
    for (const auto& [window, cookies] : sent) {
        auto place = TRY(take_place(batch, cookies));
        if (!place || !place->override_redirect || !place->viewable)
            continue;
        nd_core::WindowInfo info;
        info.window_id = window;
        info.frame = place->frame;
        if (place->client_decor)
            info.client_decor = *place->client_decor;
        out.push_back(std::move(info));
    }
    return out;
}

} // namespace nd_linux

#include "desk/vision/vision_title.h"

namespace nd_desk {

TitleAt title_at(const std::vector<nd_core::WindowInfo>& windows, const std::vector<nd_core::Frame>& panels,
    nd_core::Point p, nd_core::ScreenSize screen)
{
    if (p.x < 0 || p.y < 0 || p.x >= screen.width || p.y >= screen.height)
        return {false, "off_screen", nullptr};
    for (const auto& panel : panels)
        if (panel.contains(p.x, p.y))
            return {false, "panel", nullptr};
    for (const auto& w : windows) {
        if (w.hidden)
            continue;
        const auto& f = w.frame;
        const auto& d = w.decor;
        const nd_core::Frame outer{f.x - d.left, f.y - d.top, f.w + d.left + d.right, f.h + d.top + d.bottom};
        if (!outer.contains(p.x, p.y))
            continue;
        if (f.contains(p.x, p.y))
            return {false, "window", &w};
        if (p.y < f.y)
            return {true, "title_bar", &w};
        return {false, "frame", &w};
    }
    return {false, "desktop", nullptr};
}

} // namespace nd_desk

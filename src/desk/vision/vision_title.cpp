#include "desk/vision/vision_title.h"

namespace nd_desk {

TitleAt title_at(const std::vector<nd_core::WindowInfo>& windows, const std::vector<nd_core::WindowInfo>& panels,
    nd_core::Point p, nd_core::ScreenSize screen)
{
    if (p.x < 0 || p.y < 0 || p.x >= screen.width || p.y >= screen.height)
        return {false, "off_screen", nullptr};
    for (const auto& panel : panels)
        if (panel.frame.contains(p.x, p.y))
            return {false, "panel", nullptr, &panel};
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

const nd_core::WindowInfo* titled_window(const std::vector<nd_core::Element>& panel_elements, std::int32_t row,
    const std::vector<nd_core::WindowInfo>& windows)
{
    for (int up = 0; up < 3 && row >= 0 && row < static_cast<std::int32_t>(panel_elements.size()); ++up) {
        const auto& name = panel_elements[static_cast<std::size_t>(row)].name;
        // A one-letter name ("x", an icon's) says too little to call it a title.
        if (name.size() >= 2)
            for (const auto& w : windows)
                if (!w.title.empty() && (name == w.title || (name.find(w.title) != std::string::npos && w.title.size() >= 4)))
                    return &w;
        row = panel_elements[static_cast<std::size_t>(row)].parent;
    }
    return nullptr;
}

} // namespace nd_desk

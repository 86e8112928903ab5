#include "backend/linux/atspi/atspi_toolkit.h"

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_locator.h"
#include "backend/linux/atspi/atspi_message.h"
#include "backend/linux/atspi/atspi_names.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace nd_linux {

nd_core::Result<std::string> toolkit_name(AtspiBus& bus, const std::string& app_bus, Deadline deadline)
{
    std::string name;
    auto reply = bus.call({app_bus, ROOT_PATH, IFACE_PROPERTIES, "Get"}, get_property(IFACE_APPLICATION, "ToolkitName"),
                          deadline);
    if (!reply && (reply.error().code == nd_core::ErrorCode::app_not_responding ||
                   reply.error().code == nd_core::ErrorCode::timed_out))
        return reply.error();
    if (!reply || read_string_variant(reply->get(), name) < 0)
        name.clear();
    return name;
}

nd_core::Result<std::string> toolkit_of_pid(AtspiBus& bus, std::int64_t pid)
{
    const Deadline deadline = deadline_in(std::chrono::milliseconds(1000));
    auto apps = apps_of_pid(bus, pid, deadline);
    if (!apps || apps->empty())
        return std::string{};
    return toolkit_name(bus, apps->front().bus, deadline);
}

namespace {

struct Origin {
    std::int32_t x = 0;
    std::int32_t y = 0;
};

Origin content_origin(const nd_core::WindowInfo& surface, std::int32_t content_w, std::int32_t content_h)
{
    auto border = surface.client_decor;
    if (border == nd_core::WindowInfo::Extents{}) {
        border.left = std::max(0, (surface.frame.w - content_w) / 2);
        border.top = std::max(0, (surface.frame.h - content_h) / 2);
    }
    return {surface.frame.x + border.left, surface.frame.y + border.top};
}

bool within(const nd_core::Frame& inner, const nd_core::Frame& outer)
{
    return std::int64_t{inner.x} >= outer.x && std::int64_t{inner.y} >= outer.y &&
           std::int64_t{inner.x} + inner.w <= std::int64_t{outer.x} + outer.w &&
           std::int64_t{inner.y} + inner.h <= std::int64_t{outer.y} + outer.h;
}

} // namespace

void place_on_screen(std::vector<nd_core::Element>& elements, const nd_core::WindowInfo& window,
                     const std::vector<nd_core::WindowInfo>& popups, const std::vector<std::int32_t>* rows)
{
    if (elements.empty())
        return;
    const auto n = static_cast<std::int32_t>(elements.size());
    const auto& content = elements.front().frame;
    std::vector<Origin> origin(elements.size(), content_origin(window, content.w, content.h));
    // The popup each row lies on (its index), or -1 for the window's surface.
    std::vector<std::int32_t> on_popup(elements.size(), -1);
    std::vector<char> taken(popups.size(), 0);
    // GTK 4.8 answers a popover's rows at the popover's place in it plus the place of the widget
    // it hangs from in the window (the popover's own frame is that widget's place): each row moves
    // by what moves the popover's top onto its popup. A popup's subtree inside another's (a
    // popover opened from a popover) takes its own.
    for (std::int32_t i = 1; i < n; ++i) {
        const auto& e = elements[static_cast<std::size_t>(i)];
        if (!e.has_frame)
            continue;
        for (std::size_t p = 0; p < popups.size(); ++p) {
            const auto& d = popups[p].client_decor;
            if (taken[p] || e.frame.w != popups[p].frame.w - d.left - d.right ||
                e.frame.h != popups[p].frame.h - d.top - d.bottom)
                continue;
            taken[p] = 1;
            const auto top = content_origin(popups[p], e.frame.w, e.frame.h);
            const Origin by{top.x - e.frame.x, top.y - e.frame.y};
            for (auto k = i, end = subtree_end(elements, i); k < end; ++k) {
                origin[static_cast<std::size_t>(k)] = by;
                on_popup[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(p);
            }
            break;
        }
    }
    auto move = [&](std::int32_t k) {
        auto& e = elements[static_cast<std::size_t>(k)];
        if (!e.has_frame)
            return;
        const auto p = on_popup[static_cast<std::size_t>(k)];
        // A row read after its popover's top was placed has lost what it moves by; a row that
        // does not land on its popup is not where GTK says: better no frame than a click elsewhere.
        if (p >= 0 && rows) {
            e.has_frame = false;
            e.frame = {};
            return;
        }
        e.frame.x += origin[static_cast<std::size_t>(k)].x;
        e.frame.y += origin[static_cast<std::size_t>(k)].y;
        if (p >= 0 && !within(e.frame, popups[static_cast<std::size_t>(p)].frame)) {
            e.has_frame = false;
            e.frame = {};
        }
    };
    if (!rows) {
        for (std::int32_t k = 0; k < n; ++k)
            move(k);
        return;
    }
    for (auto k : *rows)
        if (k >= 0 && k < n)
            move(k);
}

void hide_unplaced_subtrees(std::vector<nd_core::Element>& elements)
{
    if (elements.empty() || !elements.front().has_frame)
        return;
    // What lies inside a place with no area is not drawn, whatever place it keeps: preorder, so a
    // parent is settled before its children.
    std::vector<char> folded(elements.size(), 0);
    for (std::size_t i = 1; i < elements.size(); ++i) {
        auto& e = elements[i];
        const auto parent = e.parent > 0 && static_cast<std::size_t>(e.parent) < i ? static_cast<std::size_t>(e.parent) : 0;
        folded[i] = parent > 0 && (folded[parent] || elements[parent].empty_frame);
        if (folded[i]) {
            e.has_frame = false;
            e.frame = {};
            e.states &= ~nd_core::STATE_SHOWING;
        }
    }
    // Preorder: every child comes after its parent, so one pass from the end carries a place up.
    std::vector<char> placed(elements.size(), 0);
    for (auto i = elements.size(); i-- > 1;) {
        const auto& e = elements[i];
        placed[i] = placed[i] || e.has_frame;
        if (placed[i] && e.parent >= 0 && static_cast<std::size_t>(e.parent) < i)
            placed[static_cast<std::size_t>(e.parent)] = 1;
    }
    for (std::size_t i = 1; i < elements.size(); ++i)
        if (!placed[i])
            elements[i].states |= nd_core::STATE_HIDDEN;
}

nd_core::Result<void> hide_unpicked_pages(AtspiBus& bus, std::vector<nd_core::Element>& elements, Deadline deadline)
{
    using Place = std::tuple<std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t>;
    std::map<Place, std::vector<std::int32_t>> siblings;
    for (std::size_t i = 1; i < elements.size(); ++i) {
        const auto& e = elements[i];
        if (!e.has_frame || e.parent < 0)
            continue;
        // A page may sit in a wrapper without a place of its own (GTK 4's GtkStackPage, between a
        // stack and each page's widget): the wrapper is the page then, a child of the stack.
        auto page = static_cast<std::int32_t>(i);
        auto parent = e.parent;
        for (int level = 0; level < MAX_PAGE_WRAPPERS; ++level) {
            const auto& p = elements[static_cast<std::size_t>(parent)];
            if (p.has_frame || p.child_count != 1 || p.parent < 0)
                break;
            page = parent;
            parent = p.parent;
        }
        siblings[{parent, e.frame.x, e.frame.y, e.frame.w, e.frame.h}].push_back(page);
    }
    struct Group {
        std::int32_t parent = -1;
        const std::vector<std::int32_t>* pages = nullptr;
        ObjectRef hit;
    };
    std::vector<Group> groups;
    groups.reserve(MAX_PAGE_GROUPS); // the replies hold their group by reference
    AtspiBatch batch(bus, deadline);
    for (const auto& [place, pages] : siblings) {
        const auto parent = std::get<0>(place);
        const auto ref = parse_key(elements[static_cast<std::size_t>(parent)].key);
        if (pages.size() < 2 || !ref || groups.size() >= MAX_PAGE_GROUPS)
            continue;
        groups.push_back({parent, &pages, {}});
        const auto x = std::get<1>(place) + std::get<3>(place) / 2;
        const auto y = std::get<2>(place) + std::get<4>(place) / 2;
        batch.add({ref->bus, ref->path, IFACE_COMPONENT, "GetAccessibleAtPoint"},
                  [x, y](sd_bus_message* m) { return sd_bus_message_append(m, "iiu", x, y, COORD_WINDOW); },
                  [&group = groups.back()](const Reply& r) {
                      if (r.ok())
                          (void)read_ref(r.message, group.hit);
                  });
    }
    if (groups.empty())
        return {};
    TRY_VOID(batch.run());
    std::unordered_map<std::string, std::int32_t> by_key;
    for (std::size_t i = 0; i < elements.size(); ++i)
        by_key.emplace(elements[i].key, static_cast<std::int32_t>(i));
    for (const auto& g : groups) {
        if (g.hit.null())
            continue;
        const auto found = by_key.find(g.hit.key());
        if (found == by_key.end())
            continue;
        // The page the hit lies in: the hit's ancestor whose parent is the group's.
        auto shown = found->second;
        while (shown >= 0 && elements[static_cast<std::size_t>(shown)].parent != g.parent)
            shown = elements[static_cast<std::size_t>(shown)].parent;
        if (shown < 0 || std::find(g.pages->begin(), g.pages->end(), shown) == g.pages->end())
            continue;
        for (auto page : *g.pages) {
            if (page == shown)
                continue;
            for (auto k = page, end = subtree_end(elements, page); k < end; ++k) {
                auto& e = elements[static_cast<std::size_t>(k)];
                e.has_frame = false;
                e.frame = {};
                e.states &= ~nd_core::STATE_SHOWING;
            }
        }
    }
    return {};
}

} // namespace nd_linux

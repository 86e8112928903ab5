// Warm reads' frames (atspi_warm.h): the frames a read returns, read afresh on every warm read,
// and what a row that moved without an event (a scroll) means for the read.

#include "backend/linux/atspi/atspi_warm.h"

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_names.h"
#include "backend/linux/atspi/atspi_roles.h"

#include <algorithm>

namespace nd_linux {

void WarmTrees::add_frame_asks(Entry& e, FrameAsks& asks, AtspiBatch& batch, std::size_t sample,
                               const std::vector<nd_core::Frame>& parts)
{
    auto& el = e.tree.elements;
    const auto& options = e.cold.options;
    for (std::size_t i = 0; i < el.size(); ++i) {
        auto& x = el[i];
        const bool showing = x.is(nd_core::STATE_SHOWING);
        // Objects that are not showing report no real place, but a secure field is asked whatever
        // it says (the walk's rule too). Deferred frames: those a view reads (the showing rows'),
        // the root's and secure fields'.
        const bool ask = (options.hidden_extents || showing || x.secure()) &&
                         (!options.deferred_frames || i == 0 || x.secure() || showing) && is_object_key(x.key);
        if (ask)
            asks.asks.push_back({static_cast<std::int32_t>(i)});
        else if (is_object_key(x.key)) // a child without an object of its own keeps what the walk read
            asks.unplaced.push_back(static_cast<std::int32_t>(i));
    }
    if (sample > 0 && asks.asks.size() > sample) {
        // The first (the root, where the window is) and others spread evenly over the rows; then
        // the rows whose kept frame meets a part drawn over or not watched.
        std::vector<FrameAsks::Ask> some;
        std::vector<char> taken(asks.asks.size(), 0);
        const auto n = asks.asks.size();
        for (std::size_t k = 0; k < sample; ++k) {
            const auto at = k * (n - 1) / (sample - 1);
            some.push_back(asks.asks[at]);
            taken[at] = 1;
        }
        asks.sampled = some.size();
        for (std::size_t k = 0; k < n && !parts.empty(); ++k) {
            const auto& x = el[static_cast<std::size_t>(asks.asks[k].row)];
            if (!taken[k] && x.has_frame &&
                std::any_of(parts.begin(), parts.end(), [&](const nd_core::Frame& p) { return x.frame.meets(p); }))
                some.push_back(asks.asks[k]);
        }
        asks.asks = std::move(some);
    } else if (sample > 0) {
        asks.sampled = asks.asks.size();
    }
    if (sample > 0)
        asks.unplaced.clear();
    m_stats.framed = asks.asks.size();
    for (auto& ask : asks.asks) {
        const auto ref = parse_key(el[static_cast<std::size_t>(ask.row)].key);
        batch.add({ref->bus, ref->path, IFACE_COMPONENT, "GetExtents"},
                  [](sd_bus_message* m) { return sd_bus_message_append(m, "u", COORD_SCREEN); },
                  [&ask](const Reply& r) {
                      const auto place = read_place(r, ask.frame);
                      ask.ok = place.has_area;
                      ask.empty = place.empty;
                  });
    }
}

void WarmTrees::take_frames(Entry& e, const FrameAsks& frames, std::vector<std::int32_t>* moved, bool* changed)
{
    auto& el = e.tree.elements;
    for (auto row : frames.unplaced) {
        auto& x = el[static_cast<std::size_t>(row)];
        if (changed && (x.has_frame || x.empty_frame))
            *changed = true;
        x.has_frame = false;
        x.empty_frame = false;
        x.frame = {};
    }
    const auto& asks = frames.asks;
    // A row moved when its place relative to the window's changed: the page scrolled, or its
    // layout moved. No event says so (Chromium sends none for a scroll), and whether a row shows
    // follows its place.
    const nd_core::Frame old_root = el.front().has_frame ? el.front().frame : nd_core::Frame{};
    const nd_core::Frame new_root = !asks.empty() && asks.front().row == 0 && asks.front().ok ? asks.front().frame
                                                                                                   : nd_core::Frame{};
    // In 64 bits: GTK3 places a tree view's cells scrolled out of view at INT_MIN.
    auto offset = [](std::int32_t a, std::int32_t b) { return std::int64_t{a} - std::int64_t{b}; };
    for (const auto& ask : asks) {
        auto& x = el[static_cast<std::size_t>(ask.row)];
        if (moved && ask.row != 0 && x.has_frame &&
            (!ask.ok || offset(ask.frame.x, new_root.x) != offset(x.frame.x, old_root.x) ||
             offset(ask.frame.y, new_root.y) != offset(x.frame.y, old_root.y) || ask.frame.w != x.frame.w ||
             ask.frame.h != x.frame.h))
            moved->push_back(ask.row);
        if (changed && (x.has_frame != ask.ok || x.empty_frame != ask.empty || (ask.ok && !(x.frame == ask.frame))))
            *changed = true;
        x.has_frame = ask.ok;
        x.empty_frame = ask.empty;
        x.frame = ask.ok ? ask.frame : nd_core::Frame{};
    }
}

bool WarmTrees::refresh_frames(Entry& e, Deadline deadline, std::vector<std::int32_t>* moved, bool* changed)
{
    FrameAsks asks;
    const auto asked_at = Clock::now();
    AtspiBatch batch(m_bus, deadline);
    add_frame_asks(e, asks, batch);
    if (!batch.run())
        return false;
    take_frames(e, asks, moved, changed);
    e.frames_at = asked_at;
    return true;
}

bool WarmTrees::sample_holds(const Entry& e, const FrameAsks& sample)
{
    const auto& el = e.tree.elements;
    return std::all_of(sample.asks.begin(), sample.asks.begin() + static_cast<std::ptrdiff_t>(sample.sampled),
                       [&](const FrameAsks::Ask& ask) {
                           const auto& x = el[static_cast<std::size_t>(ask.row)];
                           return ask.ok == x.has_frame && ask.empty == x.empty_frame &&
                                  (!ask.ok || ask.frame == x.frame);
                       });
}

std::optional<std::vector<nd_core::Frame>> WarmTrees::unsettled_parts(const Entry& e, std::int64_t window_id,
                                                                      Deadline deadline)
{
    if (!m_paint || e.frames_at == Clock::time_point{})
        return std::nullopt;
    auto news = m_paint->news(window_id, e.frames_at - PAINT_SETTLE, deadline);
    if (!news || news->anything)
        return std::nullopt;
    return std::move(news->parts);
}

bool WarmTrees::reread_moved(Entry& e, const std::vector<std::int32_t>& moved, Deadline deadline)
{
    std::vector<std::int32_t> rows;
    if (moved.size() > MAX_MOVED) {
        if (!follow_scroll(e, moved.size(), deadline, rows))
            return false;
        return place_rows(e, rows, deadline);
    }
    auto& el = e.tree.elements;
    // What moved may have brought rows into view that did not show (a short scroll of a small
    // pane moves a few rows): the rows beside and below the moved ones that did not show are read
    // again too (GTK3 tells whether a widget shows by its place in its viewport, and says nothing).
    std::vector<char> take(el.size(), 0);
    for (auto row : moved)
        take[static_cast<std::size_t>(row)] = 1;
    for (auto row : moved) {
        const auto parent = el[static_cast<std::size_t>(row)].parent;
        const auto from = parent >= 0 ? parent + 1 : row;
        const auto end = parent >= 0 ? subtree_end(el, parent) : subtree_end(el, row);
        for (auto at = from; at < end; ++at)
            if (!el[static_cast<std::size_t>(at)].is(nd_core::STATE_SHOWING))
                take[static_cast<std::size_t>(at)] = 1;
    }
    for (std::size_t i = 0; i < take.size(); ++i)
        if (take[i])
            rows.push_back(static_cast<std::int32_t>(i));
    if (rows.size() > MAX_REREAD)
        return fail(std::to_string(rows.size()) + " elements may have come into view without an event");
    // A row read again whose showing flipped brings its descendants' facts along: they are placed
    // or unplaced with it.
    std::vector<std::int32_t> inside;
    if (!refetch(e, rows, deadline, &inside))
        return false;
    rows.insert(rows.end(), inside.begin(), inside.end());
    return place_rows(e, rows, deadline);
}

bool WarmTrees::follow_scroll(Entry& e, std::size_t moved, Deadline deadline, std::vector<std::int32_t>& rows)
{
    const auto scroll = std::to_string(moved) + " elements changed place without an event (a scroll)";
    auto& el = e.tree.elements;
    if (e.cold.visible_means_showing || e.cold.options.hidden_extents || el.size() > MAX_SCROLLED)
        return fail(scroll);
    std::vector<std::int32_t> all(el.size());
    for (std::size_t i = 0; i < el.size(); ++i) {
        if (!is_object_key(el[i].key)) // a row keyed by its place (Qt's and Java's item views): read cold
            return fail(scroll + " in a view whose rows have no object of their own");
        all[i] = static_cast<std::int32_t>(i);
    }
    std::vector<std::optional<AtspiStates>> now;
    if (!ask_states(e, all, deadline, now))
        return fail(scroll + ", and its rows' states could not be read");
    m_stats.restated = el.size();
    // Whether a row shows is all a scroll changes of it; a row whose states changed otherwise too
    // (or a document viewer's page, whose text is read once it shows) is read again whole.
    constexpr auto BY_PLACE = nd_core::STATE_SHOWING | nd_core::STATE_HIDDEN;
    std::vector<std::int32_t> again;
    for (std::size_t i = 0; i < el.size(); ++i) {
        auto& x = el[i];
        if (!now[i] || now[i]->has(ATSPI_STATE_DEFUNCT))
            return fail(scroll + ", and a row went away");
        const auto role = atspi_role_from_name(x.role).value_or(0u);
        const auto states = map_states(role, *now[i]) | (x.states & nd_core::STATE_SECURE);
        if (states == x.states)
            continue;
        rows.push_back(static_cast<std::int32_t>(i));
        if (((states ^ x.states) & ~BY_PLACE) == 0 && x.role != "page")
            x.states = states;
        else
            again.push_back(static_cast<std::int32_t>(i));
    }
    if (again.size() > MAX_REREAD)
        return fail(scroll + ", and " + std::to_string(again.size()) + " rows changed more than their place");
    std::vector<std::int32_t> inside;
    if (!again.empty() && !refetch(e, again, deadline, &inside))
        return false;
    rows.insert(rows.end(), inside.begin(), inside.end());
    return true;
}

bool WarmTrees::place_rows(Entry& e, const std::vector<std::int32_t>& rows, Deadline deadline)
{
    auto& el = e.tree.elements;
    std::vector<std::int32_t> placed;
    for (auto row : rows) {
        auto& x = el[static_cast<std::size_t>(row)];
        if (!e.cold.options.hidden_extents && !x.is(nd_core::STATE_SHOWING) && !x.secure()) {
            x.has_frame = false;
            x.empty_frame = false;
            x.frame = {};
        } else if (!x.has_frame && x.is(nd_core::STATE_SHOWING)) {
            placed.push_back(row);
        }
    }
    if (placed.empty())
        return true;
    AtspiBatch batch(m_bus, deadline);
    for (auto row : placed) {
        auto& x = el[static_cast<std::size_t>(row)];
        if (const auto ref = parse_key(x.key))
            add_extents(batch, *ref, x); // x has no frame: it stays without one when none comes
    }
    return batch.run() || fail("the places of rows that came into view could not be read");
}

} // namespace nd_linux

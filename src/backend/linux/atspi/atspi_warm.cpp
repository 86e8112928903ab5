#include "backend/linux/atspi/atspi_warm.h"

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_names.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace nd_linux {

namespace {

void merge(AppChanges& into, const AppChanges& from)
{
    into.structural.insert(from.structural.begin(), from.structural.end());
    into.content.insert(from.content.begin(), from.content.end());
    into.gone.insert(from.gone.begin(), from.gone.end());
    into.focused.insert(from.focused.begin(), from.focused.end());
    into.root_changed = into.root_changed || from.root_changed;
    into.overflow = into.overflow || from.overflow ||
                    into.structural.size() + into.content.size() + into.gone.size() > AtspiEvents::MAX_PATHS_PER_APP;
}

bool same_limits(const nd_core::ReadLimits& a, const nd_core::ReadLimits& b)
{
    return a.max_elements == b.max_elements && a.max_depth == b.max_depth && a.frames == b.frames;
}

} // namespace

bool order_from_cache(const ColdRead& cold)
{
    return cold.item_cache && (cold.toolkit == "gtk" || cold.toolkit.empty());
}

bool any_order(const ColdRead& cold)
{
    return cold.item_cache && cold.toolkit == "gtk";
}

std::vector<std::pair<std::int32_t, std::int32_t>> outermost(const std::vector<nd_core::Element>& el,
                                                             std::vector<std::int32_t> rows)
{
    std::sort(rows.begin(), rows.end());
    std::vector<std::pair<std::int32_t, std::int32_t>> out;
    for (auto at : rows)
        if (out.empty() || at >= out.back().second)
            out.emplace_back(at, subtree_end(el, at));
    return out;
}

void splice_subtree(std::vector<nd_core::Element>& elements, std::int32_t at, std::vector<nd_core::Element> sub)
{
    const std::int32_t end = subtree_end(elements, at);
    const auto& old_root = elements[static_cast<std::size_t>(at)];
    const std::int32_t parent = old_root.parent;
    const std::int32_t depth = old_root.depth;
    const auto delta = static_cast<std::int32_t>(sub.size()) - (end - at);
    for (std::size_t k = 0; k < sub.size(); ++k) {
        auto& e = sub[k];
        e.parent = k == 0 ? parent : e.parent + at;
        e.depth += depth;
    }
    for (auto i = static_cast<std::size_t>(end); i < elements.size(); ++i)
        if (elements[i].parent >= end)
            elements[i].parent += delta;
    elements.erase(elements.begin() + at, elements.begin() + end);
    elements.insert(elements.begin() + at, std::make_move_iterator(sub.begin()), std::make_move_iterator(sub.end()));
}

WarmTrees::WarmTrees(AtspiBus& bus) : m_bus(bus)
{
    const char* env = std::getenv("NISH_WARM_READS");
    m_enabled = !(env && std::strcmp(env, "0") == 0);
    const char* trace = std::getenv("NISH_WARM_TRACE");
    m_trace = trace && std::strcmp(trace, "1") == 0;
}

WarmTrees::~WarmTrees() = default;

bool WarmTrees::ensure_events()
{
    if (m_events && m_events->alive() && m_events_generation == m_bus.generation())
        return true;
    const auto now = Clock::now();
    if (now - m_last_open_attempt < std::chrono::seconds(1))
        return false;
    m_last_open_attempt = now;
    m_events.reset();
    m_entries.clear(); // whatever happened while no one listened is unknown
    auto opened = AtspiEvents::open(m_bus.address());
    if (!opened)
        return false;
    m_events = std::move(opened).value();
    m_events_generation = m_bus.generation();
    m_events_opened = Clock::now();
    return true;
}

std::optional<nd_core::RawTree> WarmTrees::decline(std::int64_t window_id, std::string why)
{
    m_entries.erase(window_id);
    ++m_stats.declined;
    if (m_trace)
        std::fprintf(stderr, "nish warm read: window %lld read cold: %s\n", static_cast<long long>(window_id), why.c_str());
    m_stats.last_decline = std::move(why);
    return std::nullopt;
}

void WarmTrees::take_changes(const std::string& app)
{
    const auto taken = m_events->take(app);
    for (auto& [id, entry] : m_entries)
        if (entry.cold.app.bus == app)
            merge(entry.pending, taken);
}

void WarmTrees::before_cold(const std::string& app)
{
    if (!m_enabled || !ensure_events())
        return;
    // The other windows of the app keep what they have not seen yet.
    take_changes(app);
    m_cold_started = Clock::now();
}

void WarmTrees::remember(const nd_core::WindowInfo& window, const ColdRead& cold, nd_core::RawTree& tree,
                         Deadline deadline)
{
    const auto window_id = window.window_id;
    if (!m_enabled || !m_events || window_id == 0)
        return;
    // The visible part of a container that manages its descendants follows scrolling, which no
    // event announces: such windows are always read cold. Nor do Qt's item views announce the
    // cells they make anew at each read (positional keys, atspi_message.h), which a warm read
    // could not ask again by path. Their showing rows are framed all the same, as for any read.
    // Nor does Evince announce its first layout: a document whose pages none reads showing yet is
    // read cold until one does (a page that shows later moves, and brings its neighbours along).
    const bool positional = cold.options.positional_item_views;
    bool pages = false, page_shows = false;
    const bool never_warm = std::any_of(tree.elements.begin(), tree.elements.end(), [&](const auto& x) {
        if (x.role == "page") {
            pages = true;
            page_shows = page_shows || x.is(nd_core::STATE_SHOWING);
        }
        return x.managed.on || (positional && x.key.find('~') != std::string::npos);
    }) || (pages && !page_shows);
    if (never_warm)
        m_entries.erase(window_id);
    if (!never_warm && m_entries.size() >= MAX_WINDOWS && !m_entries.count(window_id)) {
        auto oldest = std::min_element(m_entries.begin(), m_entries.end(),
            [](const auto& a, const auto& b) { return a.second.last_used < b.second.last_used; });
        m_entries.erase(oldest);
    }
    Entry scratch;
    Entry& e = never_warm ? scratch : m_entries[window_id];
    e = Entry{};
    e.cold = cold;
    e.pid = window.pid;
    e.tree = std::move(tree);
    e.last_used = Clock::now();
    e.cold_at = m_cold_started;
    e.bus_generation = m_bus.generation();
    // The frames of the showing rows: what the next warm read tells a scroll by. The read returns
    // them too, so that its view does not ask for them again. A walk that deferred none has them.
    e.frames_at = e.cold_at; // a walk that deferred none asked them as it went, or had an outline's
    if (e.tree.frames_deferred && !refresh_frames(e, deadline, nullptr)) {
        tree = std::move(e.tree); // the read as it was: its views ask for the frames it lacks
        m_entries.erase(window_id);
        return;
    }
    // Nor does Gecko announce a page's first layout: it builds the page's tree first, its document
    // shows with no place on screen and its objects read not showing, and when the layout comes
    // they change with no event. Such a read is not kept: the next is cold, until the page is laid out.
    const bool unlaid = !never_warm && document_not_laid_out(e.tree.elements);
    if (never_warm || unlaid) {
        // Children without an object of their own keep their frames to the views (deferred).
        tree = std::move(e.tree);
        if (unlaid) {
            m_entries.erase(window_id);
            if (m_trace)
                std::fprintf(stderr, "nish warm read: window %lld not kept: a document is not laid out yet\n",
                             static_cast<long long>(window_id));
        }
        return;
    }
    // The window is watched from now: a read a while from now may keep these frames.
    if (m_paint)
        m_paint->news(window_id, Clock::now(), deadline);
    // Every frame a view reads is in: none is left for later.
    e.tree.frames_deferred = false;
    new_version(e);
    tree = e.tree;
}

std::optional<nd_core::RawTree> WarmTrees::read(const nd_core::WindowInfo& window, const nd_core::ReadLimits& limits,
                                                Deadline deadline)
{
    const auto window_id = window.window_id;
    m_stats.restated = 0; // of this read, whether warm or not
    m_stats.frames_kept = false;
    if (!m_enabled || window_id == 0)
        return std::nullopt;
    auto it = m_entries.find(window_id);
    if (it == m_entries.end())
        return std::nullopt;
    Entry& e = it->second;
    if (e.pid != window.pid)
        return decline(window_id, "another process's window under the same id");
    if (e.bus_generation != m_bus.generation())
        return decline(window_id, "the AT-SPI bus was replaced");
    if (Clock::now() - e.last_used > MAX_IDLE)
        return decline(window_id, "the window was not read for a minute");
    if (Clock::now() - e.cold_at > MAX_WARM_AGE)
        return decline(window_id, "due for a cold read");
    if (!same_limits(e.cold.limits, limits))
        return decline(window_id, "other read limits");
    if (!ensure_events() || m_entries.find(window_id) == m_entries.end())
        return decline(window_id, "no AT-SPI event connection");
    const std::string& app = e.cold.app.bus;
    if (!m_events->heard_from(app) && e.cold_at - m_events_opened < LISTENER_SETTLE)
        return decline(window_id, "the app may not know of the listeners yet");
    auto t = Clock::now();
    auto lap = [&t] {
        const auto now = Clock::now();
        return std::chrono::duration_cast<std::chrono::microseconds>(now - std::exchange(t, now)).count();
    };
    if (!m_events->sync(app, deadline))
        return decline(window_id, "the app did not answer a ping");
    m_stats.sync_us = lap();
    take_changes(app);
    const AppChanges changes = std::exchange(e.pending, {});
    m_stats.rewalked = 0;
    m_stats.refetched = 0;
    m_stats.differed = 0;
    std::vector<std::int32_t> focused; // rows that read focused, asked with the batch below
    if (!apply(e, changes, deadline, &focused))
        return decline(window_id, m_why);
    // Frames kept: the events changed nothing, and the window system can tell where the window
    // was drawn in since its frames were read (less a while, for the app's tree to follow its
    // drawing): only the rows there are asked, with a sample.
    const auto frames_asked_at = Clock::now();
    std::optional<std::vector<nd_core::Frame>> unsettled;
    if (m_stats.rewalked == 0 && m_stats.differed == 0)
        unsettled = unsettled_parts(e, window_id, deadline);
    const bool sampled = unsettled.has_value();
    if (m_trace && sampled)
        for (const auto& part : *unsettled)
            std::fprintf(stderr, "nish warm read: window %lld: drawn or not watched: %dx%d at %d,%d\n",
                         static_cast<long long>(window_id), part.w, part.h, part.x, part.y);
    m_stats.apply_us = lap();
    // The structure check and the frames go in one batch: the app answers them one after the
    // other without waiting on the driver between the two. The frames answer for the rows as they
    // are; should the check walk a part again, the rows changed and the frames are asked afresh.
    StructureCheck check;
    FrameAsks frames;
    std::vector<std::optional<AtspiStates>> focus_now;
    {
        AtspiBatch batch(m_bus, deadline);
        add_state_asks(e, focused, batch, focus_now);
        if (!add_structure_check(e, check, batch))
            return decline(window_id, m_why);
        add_frame_asks(e, frames, batch, sampled ? FRAME_SAMPLES : 0,
                       sampled ? *unsettled : std::vector<nd_core::Frame>{});
        if (!batch.run())
            return decline(window_id, "the structure check and the frames did not finish");
    }
    // A row the focus left with no event is read again before the check's parts are (their
    // splices move rows). Should its facts differ, the frames are asked afresh: they were asked
    // as for a read the events changed nothing of.
    focus_lost(focused, focus_now);
    const auto differed_before = m_stats.differed;
    if (!focused.empty() && !refetch(e, focused, deadline))
        return decline(window_id, m_why);
    const bool focus_changed = m_stats.differed != differed_before;
    m_stats.check_us = lap();
    const auto walked_before = m_stats.rewalked;
    if (!finish_structure_check(e, check, deadline))
        return decline(window_id, m_why);
    // Walked again (a structural change, announced or found by the check), or facts that differ.
    bool changed = m_stats.rewalked > 0 || m_stats.differed > 0;
    std::vector<std::int32_t> moved;
    // Three ways to the frames: kept where nothing was drawn (the sample holds; those of rows
    // drawn over are taken from the batch), all taken from the batch (all were asked), or asked
    // afresh (the batch's no longer answer for the rows: a part was walked again, a row the focus
    // left differed, or the sample moved).
    const bool stale_asks = m_stats.rewalked != walked_before || focus_changed;
    const bool kept = sampled && !stale_asks && sample_holds(e, frames);
    m_stats.frames_kept = kept;
    if (kept || (!sampled && !stale_asks)) {
        take_frames(e, frames, &moved, &changed);
        e.frames_at = frames_asked_at;
    } else if (!refresh_frames(e, deadline, &moved, &changed))
        return decline(window_id, "the frames could not be read");
    if (!moved.empty() && !reread_moved(e, moved, deadline))
        return decline(window_id, m_why);
    m_stats.frames_us = lap();
    e.tree.frames_deferred = false; // every frame a view reads is in (refresh_frames)
    e.last_used = Clock::now();
    ++m_stats.warm;
    if (m_trace)
        std::fprintf(stderr,
                     "nish warm read: window %lld warm: ping %lld us, events %lld us (%zu subtrees walked, %zu "
                     "objects asked), structure check and frames %lld us (%zu parents, %zu frames), after them %lld us "
                     "(%zu states asked after a scroll)%s\n",
                     static_cast<long long>(window_id), static_cast<long long>(m_stats.sync_us),
                     static_cast<long long>(m_stats.apply_us), m_stats.rewalked, m_stats.refetched,
                     static_cast<long long>(m_stats.check_us), m_stats.checked, m_stats.framed,
                     static_cast<long long>(m_stats.frames_us), m_stats.restated,
                     kept ? ", frames kept where nothing was drawn" : "");
    // A part walked again may hold a page not laid out yet (a link followed): this read is its
    // last warm one (as for a cold read, remember()).
    const bool unlaid = document_not_laid_out(e.tree.elements);
    if (changed || !moved.empty())
        new_version(e);
    else if (limits.held_version == e.version) {
        nd_core::RawTree same;
        same.version = e.version;
        same.unchanged = true;
        same.truncated = e.tree.truncated;
        if (unlaid)
            m_entries.erase(window_id);
        return same;
    }
    if (unlaid) {
        nd_core::RawTree out = std::move(e.tree);
        m_entries.erase(window_id);
        return out;
    }
    return e.tree;
}

bool document_not_laid_out(const std::vector<nd_core::Element>& elements)
{
    return std::any_of(elements.begin(), elements.end(), [](const nd_core::Element& x) {
        return (x.role == "document_web" || x.role == "document_frame") && x.is(nd_core::STATE_SHOWING) && !x.has_frame;
    });
}

void WarmTrees::learn_action_names(std::int64_t window_id, const std::vector<nd_core::Element>& elements,
                                   const std::vector<std::int32_t>& rows)
{
    auto it = m_entries.find(window_id);
    if (it == m_entries.end())
        return;
    auto& kept = it->second.tree.elements;
    bool learned = false;
    for (auto row : rows) {
        const auto at = static_cast<std::size_t>(row);
        if (row < 0 || at >= elements.size() || at >= kept.size() || kept[at].key != elements[at].key)
            continue;
        const auto& x = elements[at];
        if (!x.actions.empty() && !x.action_names_pending() &&
            (kept[at].actions != x.actions || kept[at].action_names_asked != x.action_names_asked)) {
            kept[at].actions = x.actions;
            kept[at].action_names_asked = x.action_names_asked;
            learned = true;
        }
    }
    if (learned)
        new_version(it->second);
}

} // namespace nd_linux

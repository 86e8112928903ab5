#include "backend/linux/atspi/atspi_tree_reader.h"

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_locator.h"
#include "backend/linux/atspi/atspi_message.h"
#include "backend/linux/atspi/atspi_names.h"
#include "backend/linux/atspi/atspi_toolkit.h"
#include "backend/linux/atspi/atspi_visible_part.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

long long micros(Clock::duration d)
{
    return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
}

} // namespace

AtspiTreeReader::AtspiTreeReader(AtspiBus& bus) : m_bus(bus), m_warm(bus)
{
    const char* outlines = std::getenv("NISH_ATSPI_OUTLINE");
    m_outlines = !(outlines && std::strcmp(outlines, "0") == 0);
}

nd_core::Result<nd_core::RawTree> AtspiTreeReader::read_window(const nd_core::WindowInfo& window,
                                                               const nd_core::ReadLimits& limits)
{
    if (limits.max_elements <= 0 || limits.max_depth < 0 || limits.deadline.count() <= 0)
        return make_error(ErrorCode::invalid_arguments, "read limits must be positive");
    Deadline deadline = deadline_in(limits.deadline);
    if (auto warm = m_warm.read(window, limits, deadline)) {
        m_last.elements = warm->unchanged ? m_warm.elements_of(window.window_id) : warm->elements.size();
        m_last.warm = true;
        to_screen(window, warm->elements, deadline);
        return std::move(*warm);
    }
    const auto started = Clock::now();
    auto located = TRY(locate(window, deadline));
    const auto located_at = Clock::now();
    m_warm.before_cold(located.app.bus);
    auto tree = TRY(read_located(located, limits, deadline));
    const auto walked_at = Clock::now();
    m_warm.remember(window,
                    {.app = located.app, .top = located.top.ref, .limits = limits, .item_cache = located.cache != nullptr,
                     .toolkit = m_last.toolkit, .options = m_last_options, .visible_means_showing = m_last_visible},
                    tree, deadline);
    // The warm reads keep the frames as the app answered them; what a read returns is on the screen.
    to_screen(window, tree.elements, deadline);
    if (m_warm.tracing())
        std::fprintf(stderr,
                     "nish cold read: window %lld: locate %lld us (cache of %zu items), walk %lld us (%zu elements, %zu "
                     "calls, %zu from the cache, outline of %zu, %zu frames left), frames kept for the warm reads %lld us\n",
                     static_cast<long long>(window.window_id), static_cast<long long>(micros(located_at - started)),
                     located.cache ? located.cache->size() : std::size_t{0}, static_cast<long long>(micros(walked_at - located_at)),
                     m_last.elements, m_last.calls, m_last.from_cache, m_last.outlined, m_last.frames_left, static_cast<long long>(micros(Clock::now() - walked_at)));
    return tree;
}

nd_core::Result<std::string> AtspiTreeReader::toolkit_of(const std::string& app, Deadline deadline)
{
    auto known = m_toolkits.find(app);
    if (known != m_toolkits.end())
        return known->second;
    auto name = TRY(toolkit_name(m_bus, app, deadline));
    if (m_toolkits.size() >= 1024)
        m_toolkits.clear();
    return m_toolkits[app] = std::move(name);
}

const std::string* AtspiTreeReader::known_toolkit(const std::vector<nd_core::Element>& elements) const
{
    if (elements.empty())
        return nullptr;
    const auto ref = parse_key(elements.front().key);
    if (!ref)
        return nullptr;
    const auto known = m_toolkits.find(ref->bus);
    return known == m_toolkits.end() ? nullptr : &known->second;
}

bool AtspiTreeReader::frames_in_window(const std::vector<nd_core::Element>& elements) const
{
    const auto* toolkit = known_toolkit(elements);
    return toolkit && toolkit_frames_in_window(*toolkit);
}

bool AtspiTreeReader::shows_by_place(const std::vector<nd_core::Element>& elements) const
{
    const auto* toolkit = known_toolkit(elements);
    return toolkit && toolkit_marks_only_visible(*toolkit);
}

void AtspiTreeReader::to_screen(const nd_core::WindowInfo& window, std::vector<nd_core::Element>& elements,
                                Deadline deadline, const std::vector<std::int32_t>* rows)
{
    const bool by_place = shows_by_place(elements);
    if (!frames_in_window(elements) && !by_place)
        return;
    // A hit test the app does not answer leaves the pages as they read: the read stands.
    if (by_place && !rows)
        (void)hide_unpicked_pages(m_bus, elements, deadline);
    std::vector<nd_core::WindowInfo> popups;
    if (m_popups) {
        // Without them a popover's rows would be placed on the window: better none than wrong.
        auto found = m_popups(window.window_id);
        if (found)
            popups = std::move(found).value();
    }
    place_on_screen(elements, window, popups, rows);
    if (rows)
        return;
    // A toolkit that marks only what is visible (GTK 4: a stack's hidden pages too) shows what has
    // a place on the screen; the warm reads keep the rest as visible, to ask again.
    if (!by_place)
        return;
    for (std::size_t i = 1; i < elements.size(); ++i)
        if (!elements[i].has_frame)
            elements[i].states &= ~nd_core::STATE_SHOWING;
    hide_unplaced_subtrees(elements);
}

nd_core::Result<void> AtspiTreeReader::sync_app(const nd_core::WindowInfo& window, std::chrono::milliseconds deadline)
{
    const Deadline until = deadline_in(deadline);
    const auto apps = TRY(apps_of_pid(m_bus, window.pid, until));
    AtspiBatch batch(m_bus, until);
    for (const auto& app : apps)
        batch.add({app.bus, "/", "org.freedesktop.DBus.Peer", "Ping"}, {}, [](const Reply&) {});
    return batch.run();
}

nd_core::Result<LocatedWindow> AtspiTreeReader::locate(const nd_core::WindowInfo& window, Deadline deadline)
{
    if (m_bus.generation() != m_bus_generation) {
        m_no_cache.clear();
        m_no_outline.clear();
        m_bus_generation = m_bus.generation();
    }
    auto located = TRY(locate_window(m_bus, window, m_no_cache, deadline));
    if (located.cache_refused && m_no_cache.size() < 4096)
        m_no_cache.insert(located.app.bus);
    return located;
}

nd_core::Result<nd_core::RawTree> AtspiTreeReader::read_located(const LocatedWindow& located,
                                                                const nd_core::ReadLimits& limits, Deadline deadline)
{
    WalkOptions options = m_options;
    options.property_gets = located.cache == nullptr;
    // Qt's item views and Java's lists, tables and table headers (the ATK wrapper,
    // "J2SE-access-bridge") make each item anew, under a new path, every time it is asked for.
    // Unknown, the window would be walked with the wrong keys (a Java table read whole, keyed by
    // paths Java changes at each ask): a read that cannot learn it fails as the app's silence.
    const auto toolkit = TRY(toolkit_of(located.app.bus, deadline));
    const bool java = toolkit == "J2SE-access-bridge";
    options.positional_item_views = toolkit == "Qt" || toolkit == "QT" || java;
    options.positional_label_panels = java;
    options.children_by_index = toolkit_children_by_index(toolkit);
    options.action_count_only = toolkit_names_actions_by_index(toolkit);
    options.deferred_frames = limits.frames == nd_core::FrameMode::deferred;
    // What is visible may still be on a hidden page: each visible object's place decides
    // (to_screen), so none is left for later.
    if (toolkit_marks_only_visible(toolkit)) {
        options.visible_means_showing = 1;
        options.deferred_frames = false;
    }
    TreeWalk walk(m_bus, limits, deadline, located.cache, options);
    m_last.outlined = 0;
    if (const auto kind = wants_outline(located, toolkit)) {
        auto outline = TRY(outline_of(located, limits, deadline, *kind));
        m_last.outlined = outline ? outline->size() : 0;
        walk.use_outline(std::move(outline));
    }
    walk.remember_focus_in(&m_focused_children);
    auto tree = TRY(walk.read(located.top.ref));
    if (m_focused_children.size() > 256)
        m_focused_children.clear();
    for (auto& [container, child] : walk.focused_children())
        m_focused_children[container] = std::move(child);
    m_last_options = options;
    m_last_visible = walk.visible_means_showing();
    // An outline that placed every showing object leaves no frame for later.
    tree.frames_deferred = options.deferred_frames && walk.stats().frames_left > 0;
    if (Clock::now() > deadline)
        return make_error(ErrorCode::timed_out, "the read finished after its deadline");
    m_last.elements = tree.elements.size();
    m_last.calls = walk.stats().calls;
    m_last.from_cache = walk.stats().from_cache;
    m_last.frames_left = walk.stats().frames_left;
    m_last.used_cache = located.cache != nullptr;
    m_last.used_peer = m_bus.has_peer(located.app.bus);
    m_last.warm = false;
    m_last.toolkit = toolkit;
    return tree;
}

std::optional<OutlineKind> AtspiTreeReader::wants_outline(const LocatedWindow& located,
                                                          const std::string& toolkit) const
{
    // A web engine's item cache holds the pages that were open when it was made, and none loaded
    // later (docs/linux-atspi.md, "GetItems and the walk"): a window whose cache holds the page it
    // shows is read from the cache, one whose cache lacks it (or holds only pages it no longer
    // shows) takes the outline. Read from the cache, a toolkit that counts its actions (Chromium)
    // still takes their counts in one outline rather than a GetActions call an object.
    if (!m_outlines || !toolkit_outlines_pages(toolkit) || m_no_outline.count(located.app.bus) ||
        m_outline_too_big.count(located.top.ref.key()))
        return std::nullopt;
    if (!(located.cache && located.cache->holds_below(located.top.ref, ATSPI_ROLE_DOCUMENT_WEB, ATSPI_STATE_SHOWING)))
        return OutlineKind::whole;
    if (toolkit_names_actions_by_index(toolkit))
        return OutlineKind::action_counts;
    return std::nullopt;
}

nd_core::Result<std::shared_ptr<const Outline>> AtspiTreeReader::outline_of(const LocatedWindow& located,
                                                                             const nd_core::ReadLimits& limits,
                                                                             Deadline deadline, OutlineKind kind)
{
    auto asked = read_outline(m_bus, located.top.ref, deadline, kind);
    if (!asked) {
        // An outline the app could not give within the read's deadline (a page of hundreds of
        // thousands of objects) fails this read as a walk past its deadline would; the window is
        // walked from then on, the app's late answer awaited first (AtspiBus::owe).
        if (asked.error().code == ErrorCode::timed_out || asked.error().code == ErrorCode::app_not_responding)
            if (m_outline_too_big.size() < 4096)
                m_outline_too_big.insert(located.top.ref.key());
        return asked.error();
    }
    auto answer = std::move(asked).value();
    if (answer.no_such_method && m_no_outline.size() < 4096)
        m_no_outline.insert(located.app.bus);
    const auto too_big = static_cast<std::size_t>(std::max(limits.max_elements, 1)) * OUTLINE_MAX_PER_ELEMENT;
    if (answer.outline && answer.outline->size() > too_big && m_outline_too_big.size() < 4096)
        m_outline_too_big.insert(located.top.ref.key());
    return answer.outline;
}

nd_core::Result<void> AtspiTreeReader::read_frames(const nd_core::WindowInfo& window, std::vector<nd_core::Element>& elements,
                                                   const std::vector<std::int32_t>& indices,
                                                   std::chrono::milliseconds deadline, bool action_names)
{
    AtspiBatch batch(m_bus, deadline_in(deadline));
    const auto* toolkit = known_toolkit(elements);
    const bool by_index = toolkit && toolkit_names_actions_by_index(*toolkit);
    AlikeActionNames alike;
    for (auto index : indices) {
        if (index < 0 || static_cast<std::size_t>(index) >= elements.size())
            continue;
        auto& e = elements[static_cast<std::size_t>(index)];
        auto ref = parse_key(e.key);
        if (!ref) {
            // A child of a container that manages its descendants: ask for it, then for its place.
            auto child = parse_child_key(e.key);
            if (child && !e.has_frame && e.is(nd_core::STATE_SHOWING))
                fetch_child(batch, *child, [&batch, &e](ObjectRef live) {
                    if (!live.null())
                        add_extents(batch, live, e);
                });
            continue;
        }
        if (action_names && e.action_names_pending())
            m_action_name_calls += by_index ? alike.add(batch, *ref, e) : name_actions(batch, *ref, e);
        // Objects that are not showing report no real place (the walk's rule too); a place with
        // no area is an answer too (an outline's).
        if (e.has_frame || e.empty_frame || !e.is(nd_core::STATE_SHOWING))
            continue;
        add_extents(batch, *ref, e);
    }
    const auto started = Clock::now();
    // Only an app that answers frames relative to its surfaces needs the rows framed now moved.
    const bool place = frames_in_window(elements);
    std::vector<std::int32_t> framed_now;
    if (place)
        for (auto index : indices)
            if (index >= 0 && static_cast<std::size_t>(index) < elements.size() &&
                !elements[static_cast<std::size_t>(index)].has_frame)
                framed_now.push_back(index);
    TRY_VOID(batch.run());
    alike.fill();
    std::erase_if(framed_now, [&elements](std::int32_t i) { return !elements[static_cast<std::size_t>(i)].has_frame; });
    if (!framed_now.empty())
        to_screen(window, elements, deadline_in(deadline), &framed_now);
    const auto calls = batch.sent();
    if (m_warm.tracing())
        std::fprintf(stderr, "nish frames%s: window %lld: %zu rows, %zu calls, %lld us\n",
                     action_names ? " and action names" : "", static_cast<long long>(window.window_id), indices.size(),
                     calls, static_cast<long long>(micros(Clock::now() - started)));
    if (action_names)
        m_warm.learn_action_names(window.window_id, elements, indices);
    return {};
}

} // namespace nd_linux

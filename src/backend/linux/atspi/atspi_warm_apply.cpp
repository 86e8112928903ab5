// Warm reads' changes (atspi_warm.h): what the app's events said changed, read again: the facts of
// the objects that changed, the subtrees whose children changed, and the rows a toolkit may change
// with no event (the focused ones, pages on screen without text).

#include "backend/linux/atspi/atspi_warm.h"

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_names.h"

#include <algorithm>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>

namespace nd_linux {

bool WarmTrees::apply(Entry& e, const AppChanges& changes, Deadline deadline, std::vector<std::int32_t>* focus_later)
{
    if (changes.overflow)
        return fail("more changes than are kept");
    if (changes.root_changed)
        return fail("a window of the app came or went");
    auto& el = e.tree.elements;
    // A row that reads focused is asked again on every read: a toolkit may take the focus from it
    // with no event (Qt 5's menu bar item, when Escape leaves the menu bar). They are few.
    // Asked for their states alone, they are read again only when the focus left them; when the
    // events changed nothing, the caller asks them with its batch (focus_later).
    std::vector<std::int32_t> held_focus;
    for (std::size_t i = 0; i < el.size() && held_focus.size() < MAX_HELD_FOCUS; ++i)
        if (el[i].is(nd_core::STATE_FOCUSED))
            held_focus.push_back(static_cast<std::int32_t>(i));
    const bool quiet = changes.structural.empty() && changes.content.empty() && changes.gone.empty();
    if (focus_later && quiet)
        focus_later->swap(held_focus);
    else if (!held_focus.empty() && !keep_focus_lost(e, held_focus, deadline))
        return false;
    // A document's page on screen that read without text is asked again on every read: Evince
    // extracts a page's text when first asked and answers empty until it has, with no event.
    std::vector<std::int32_t> again = held_focus;
    for (std::size_t i = 0, pages = 0; i < el.size() && pages < MAX_UNSETTLED_PAGES; ++i)
        if (el[i].role == "page" && el[i].is(nd_core::STATE_SHOWING) && el[i].value.empty() && !el[i].secure()) {
            again.push_back(static_cast<std::int32_t>(i));
            ++pages;
        }
    if (quiet)
        return again.empty() || refetch(e, again, deadline);
    std::unordered_map<std::string_view, std::int32_t> index;
    index.reserve(el.size());
    for (std::size_t i = 0; i < el.size(); ++i)
        index.emplace(el[i].key, static_cast<std::int32_t>(i));
    const std::string prefix = e.cold.app.bus + "|";
    std::function<std::int32_t(const std::string&)> find = [&](const std::string& path) {
        auto at = index.find(prefix + path);
        return at == index.end() ? -1 : at->second;
    };

    std::vector<std::int32_t> structural;
    std::vector<std::string> unknown; // changed objects the read does not hold: new ones, or another window's
    for (const auto& path : changes.structural) {
        const auto at = find(path);
        if (at >= 0)
            structural.push_back(at);
        else
            unknown.push_back(path);
    }
    // An object that went away changed its parent's children.
    for (const auto& path : changes.gone) {
        const auto at = find(path);
        if (at > 0)
            structural.push_back(el[static_cast<std::size_t>(at)].parent);
        else if (at == 0)
            return fail("the window's own object went away");
    }
    if (unknown.size() > MAX_UNKNOWN)
        return fail("too many changed objects outside the read");
    for (const auto& path : unknown) {
        std::int32_t at = -1;
        if (!ancestor_in_read(e, path, find, deadline, at))
            return false;
        if (at >= 0)
            structural.push_back(at);
    }
    if (!structural.empty() && e.tree.truncated)
        return fail("a change in a read the budget cut");
    if (!structural.empty() && order_from_cache(e.cold))
        return fail("a structural change in GTK3, whose GetChildren orders children otherwise than its item cache");
    const auto walks = outermost(el, std::move(structural));
    auto inside_walk = [&](std::int32_t row) {
        return std::any_of(walks.begin(), walks.end(), [row](const auto& w) { return row >= w.first && row < w.second; });
    };

    std::vector<std::int32_t> content;
    for (const auto& path : changes.content) {
        const auto at = find(path);
        if (at >= 0 && !inside_walk(at))
            content.push_back(at);
    }
    // A focus announced for an object may have changed its parent's focus unannounced.
    for (const auto& path : changes.focused) {
        const auto at = find(path);
        if (at > 0)
            content.push_back(el[static_cast<std::size_t>(at)].parent);
    }
    for (auto row : again)
        content.push_back(row);
    std::sort(content.begin(), content.end());
    content.erase(std::unique(content.begin(), content.end()), content.end());
    std::erase_if(content, inside_walk);
    index.clear(); // it points into keys the splices below replace
    if (!content.empty() && !refetch(e, content, deadline))
        return false;
    return rewalk_all(e, walks, deadline);
}

void WarmTrees::add_state_asks(const Entry& e, const std::vector<std::int32_t>& rows, AtspiBatch& batch,
                               std::vector<std::optional<AtspiStates>>& out)
{
    const auto& el = e.tree.elements;
    out.assign(rows.size(), std::nullopt);
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const auto ref = parse_key(el[static_cast<std::size_t>(rows[k])].key);
        if (!ref)
            continue;
        batch.add({ref->bus, ref->path, IFACE_ACCESSIBLE, "GetState"}, {}, [&out, k](const Reply& r) {
            AtspiStates states;
            if (r.ok() && read_states(r.message, states) >= 0)
                out[k] = states;
        });
    }
}

bool WarmTrees::ask_states(const Entry& e, const std::vector<std::int32_t>& rows, Deadline deadline,
                           std::vector<std::optional<AtspiStates>>& out)
{
    AtspiBatch batch(m_bus, deadline);
    add_state_asks(e, rows, batch, out);
    return static_cast<bool>(batch.run());
}

void WarmTrees::focus_lost(std::vector<std::int32_t>& rows, const std::vector<std::optional<AtspiStates>>& now)
{
    // A row that does not answer is read again, and fails there.
    std::size_t kept = 0;
    for (std::size_t k = 0; k < rows.size(); ++k)
        if (!(now[k] && now[k]->has(ATSPI_STATE_FOCUSED)))
            rows[kept++] = rows[k];
    rows.resize(kept);
}

bool WarmTrees::keep_focus_lost(const Entry& e, std::vector<std::int32_t>& rows, Deadline deadline)
{
    std::vector<std::optional<AtspiStates>> now;
    if (!ask_states(e, rows, deadline, now))
        return fail("the states of the focused elements could not be read");
    focus_lost(rows, now);
    return true;
}

bool WarmTrees::rewalk_all(Entry& e, const std::vector<std::pair<std::int32_t, std::int32_t>>& walks, Deadline deadline)
{
    // From the last to the first, so that each splice leaves the earlier rows where they were.
    for (auto w = walks.rbegin(); w != walks.rend(); ++w)
        if (!rewalk(e, w->first, deadline))
            return false;
    return true;
}

WalkOptions WarmTrees::part_options(const Entry& e, bool inside_secure)
{
    WalkOptions options = e.cold.options;
    options.visible_means_showing = e.cold.visible_means_showing ? 1 : 0;
    options.inside_secure = inside_secure;
    return options;
}

bool WarmTrees::ancestor_in_read(const Entry& e, const std::string& path,
                                 const std::function<std::int32_t(const std::string&)>& find, Deadline deadline,
                                 std::int32_t& out)
{
    const std::string& bus = e.cold.app.bus;
    std::string at = path;
    for (int level = 0; level < MAX_ANCESTRY; ++level) {
        auto reply = m_bus.call({bus, at, IFACE_PROPERTIES, "Get"},
                                get_property(IFACE_ACCESSIBLE, "Parent"),
                                deadline);
        if (!reply) {
            // Gone already: its parent's children-changed tells the rest. A hung app is no answer.
            if (reply.error().code == nd_core::ErrorCode::element_not_found)
                return true;
            return fail("the parent of a changed object could not be asked");
        }
        ObjectRef parent;
        sd_bus_message* m = reply->get();
        if (sd_bus_message_enter_container(m, 'v', "(so)") < 0 || read_ref(m, parent) < 0)
            return fail("an unreadable parent");
        if (parent.null() || parent.path == ROOT_PATH)
            return true; // another window of the app, or no window at all
        const auto row = find(parent.path);
        if (row >= 0) {
            out = row;
            return true;
        }
        at = parent.path;
    }
    return fail("a changed object too deep below anything the read holds");
}

bool WarmTrees::rewalk(Entry& e, std::int32_t at, Deadline deadline)
{
    auto& el = e.tree.elements;
    const auto& root = el[static_cast<std::size_t>(at)];
    auto ref = parse_key(root.key);
    if (!ref)
        return fail("an element without an AT-SPI object");
    const std::int32_t end = subtree_end(el, at);
    nd_core::ReadLimits limits = e.cold.limits;
    limits.max_elements -= static_cast<std::int32_t>(el.size()) - (end - at);
    limits.max_depth -= root.depth;
    const WalkOptions options = part_options(e, root.parent >= 0 && el[static_cast<std::size_t>(root.parent)].secure());
    TreeWalk walk(m_bus, limits, deadline, nullptr, options);
    auto sub = walk.read(*ref);
    if (!sub)
        return fail("a changed part could not be read again");
    if (sub->truncated)
        return fail("a changed part no longer fits the budget");
    auto& top = sub->elements.front();
    // A cold read with deferred frames reads only the window's root and secure fields.
    if (at != 0 && options.deferred_frames && !top.secure()) {
        top.frame = {};
        top.has_frame = false;
        top.empty_frame = false;
    }
    splice_subtree(el, at, std::move(sub->elements));
    ++m_stats.rewalked;
    return true;
}

bool WarmTrees::refetch(Entry& e, const std::vector<std::int32_t>& rows, Deadline deadline,
                        std::vector<std::int32_t>* added, bool with_descendants)
{
    auto& el = e.tree.elements;
    std::vector<std::int32_t> flipped; // rows whose showing changed, with descendants in the read
    // Objects inside a secure field are read as secure: never their text or value.
    for (const bool secure_part : {false, true}) {
        std::vector<std::int32_t> part;
        std::vector<ObjectRef> refs;
        for (auto row : rows) {
            const auto& x = el[static_cast<std::size_t>(row)];
            const bool inside = x.parent >= 0 && el[static_cast<std::size_t>(x.parent)].secure();
            if (inside != secure_part)
                continue;
            auto ref = parse_key(x.key);
            if (!ref)
                return fail("an element without an AT-SPI object");
            part.push_back(row);
            refs.push_back(*ref);
        }
        if (part.empty())
            continue;
        const WalkOptions options = part_options(e, secure_part);
        TreeWalk walk(m_bus, e.cold.limits, deadline, nullptr, options);
        auto fresh = walk.read_each(refs);
        if (!fresh)
            return fail("changed elements could not be read again");
        // Action names a view asked for (Chromium leaves them empty in GetActions) are asked again
        // here: the element is compared with its names, so that one read again unchanged (the row
        // that reads focused, every time) is not a change, and a changed one ("check" that became
        // "uncheck") returns its new names.
        AtspiBatch names(m_bus, deadline);
        for (std::size_t k = 0; k < part.size(); ++k) {
            auto& now = (*fresh)[k];
            if (now && el[static_cast<std::size_t>(part[k])].action_names_asked && now->action_names_pending())
                name_actions(names, refs[k], *now);
        }
        if (!names.run())
            return fail("the action names of changed elements could not be read again");
        for (std::size_t k = 0; k < part.size(); ++k) {
            if (!(*fresh)[k])
                return fail("a changed element went away");
            auto& old = el[static_cast<std::size_t>(part[k])];
            auto& now = *(*fresh)[k];
            now.parent = old.parent;
            now.depth = old.depth;
            now.child_count = old.child_count;
            now.children_cut = old.children_cut;
            if (part[k] == 0 || (options.deferred_frames && !now.secure())) {
                now.frame = old.frame; // read afresh after (refresh_frames)
                now.has_frame = old.has_frame;
                now.empty_frame = old.empty_frame;
            }
            m_stats.differed += !(old == now); // an event need not mean a change
            if (old.is(nd_core::STATE_SHOWING) != now.is(nd_core::STATE_SHOWING) &&
                subtree_end(el, part[k]) > part[k] + 1)
                flipped.push_back(part[k]);
            old = std::move(now);
            ++m_stats.refetched;
        }
    }
    if (!with_descendants || flipped.empty())
        return true;
    std::vector<bool> asked(el.size(), false);
    for (auto row : rows)
        asked[static_cast<std::size_t>(row)] = true;
    std::vector<std::int32_t> inside;
    for (auto row : flipped)
        for (auto k = row + 1, end = subtree_end(el, row); k < end; ++k)
            if (!asked[static_cast<std::size_t>(k)]) {
                asked[static_cast<std::size_t>(k)] = true;
                inside.push_back(k);
            }
    if (static_cast<std::int32_t>(inside.size()) > MAX_SHOWING_REFETCH)
        return fail("a part that showed or hid holds more objects than are read again");
    std::sort(inside.begin(), inside.end());
    if (inside.empty())
        return true;
    if (!refetch(e, inside, deadline, nullptr, false))
        return false;
    if (added)
        added->insert(added->end(), inside.begin(), inside.end());
    return true;
}

} // namespace nd_linux

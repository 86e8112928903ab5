// Warm reads' structure check (atspi_warm.h): outside documents, the window's parts compared with
// the app's own children, since some toolkits change them without an event (Chromium's own UI).

#include "backend/linux/atspi/atspi_warm.h"

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_matches.h"
#include "backend/linux/atspi/atspi_names.h"

#include <algorithm>
#include <memory>

namespace nd_linux {

namespace {

// GTK 4's walk asked `row`'s children one by one (WalkOptions::children_by_index), and GetChildren
// answered otherwise: so does the check then, each held child at its place, and the count.
void add_check_by_index(AtspiBatch& batch, const ObjectRef& ref, const std::vector<nd_core::Element>& el,
                        const std::vector<std::int32_t>& have, bool cut, std::int32_t row,
                        std::vector<std::int32_t>& changed)
{
    struct Asked {
        std::size_t left = 0;
        bool differs = false;
    };
    auto asked = std::make_shared<Asked>();
    asked->left = have.size() + 1;
    auto done = [&changed, row, asked](bool differs) {
        asked->differs = asked->differs || differs;
        if (--asked->left == 0 && asked->differs)
            changed.push_back(row);
    };
    batch.add({ref.bus, ref.path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_ACCESSIBLE, "ChildCount"),
              [done, held = have.size(), cut](const Reply& r) {
                  std::int32_t count = 0;
                  const bool read = r.ok() && sd_bus_message_read(r.message, "v", "i", &count) >= 0;
                  done(!read || static_cast<std::size_t>(count) < held || (!cut && static_cast<std::size_t>(count) != held));
              });
    for (std::size_t k = 0; k < have.size(); ++k)
        batch.add({ref.bus, ref.path, IFACE_ACCESSIBLE, "GetChildAtIndex"},
                  [k](sd_bus_message* m) { return sd_bus_message_append(m, "i", static_cast<std::int32_t>(k)); },
                  [done, &el, child = have[k]](const Reply& r) {
                      ObjectRef kid;
                      const bool read = r.ok() && read_ref(r.message, kid) >= 0;
                      done(!read || kid.key() != el[static_cast<std::size_t>(child)].key);
                  });
}

} // namespace

void WarmTrees::add_children_check(Entry& e, AtspiBatch& batch, std::int32_t row,
                                   const std::vector<std::vector<std::int32_t>>& children,
                                   std::vector<std::int32_t>& changed)
{
    const auto& el = e.tree.elements;
    const auto ref = parse_key(el[static_cast<std::size_t>(row)].key);
    const auto& have = children[static_cast<std::size_t>(row)];
    // A row the read's limits cut holds the first of its children: those are compared, and the
    // rest, which a read with these limits leaves out too, are not.
    const bool cut = el[static_cast<std::size_t>(row)].children_cut;
    if (have.empty() && cut)
        return;
    if (have.empty()) {
        batch.add({ref->bus, ref->path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_ACCESSIBLE, "ChildCount"),
                  [&changed, row](const Reply& r) {
                      std::int32_t count = 0;
                      if (!r.ok() || sd_bus_message_read(r.message, "v", "i", &count) < 0 || count != 0)
                          changed.push_back(row);
                  });
        return;
    }
    // An app whose toolkit did not say is compared in order: a difference then makes the read cold.
    // GTK 4's walk asked children one by one (WalkOptions::children_by_index), and its GetChildren
    // answers otherwise for a stack: a parent whose answer differs is asked one by one too.
    auto differs = [&batch, &el, &have, &changed, row, cut, ref = *ref, by_index = e.cold.options.children_by_index] {
        if (by_index)
            add_check_by_index(batch, ref, el, have, cut, row, changed);
        else
            changed.push_back(row);
    };
    batch.add({ref->bus, ref->path, IFACE_ACCESSIBLE, "GetChildren"}, {},
              [differs, &have, &el, cut, unordered = any_order(e.cold)](const Reply& r) {
                  std::vector<ObjectRef> kids;
                  if (!r.ok() || read_refs(r.message, kids) < 0 || kids.size() < have.size() ||
                      (!cut && kids.size() != have.size())) {
                      differs();
                      return;
                  }
                  std::vector<std::string> live, read;
                  for (std::size_t k = 0; k < kids.size(); ++k)
                      live.push_back(kids[k].key());
                  for (auto child : have)
                      read.push_back(el[static_cast<std::size_t>(child)].key);
                  if (unordered) {
                      // The children held are some of the live ones (all of them, when not cut).
                      std::sort(live.begin(), live.end());
                      std::sort(read.begin(), read.end());
                      if (!std::includes(live.begin(), live.end(), read.begin(), read.end()))
                          differs();
                      return;
                  }
                  if (!std::equal(read.begin(), read.end(), live.begin()))
                      differs();
              });
}

bool WarmTrees::add_structure_check(Entry& e, StructureCheck& check, AtspiBatch& batch)
{
    auto& el = e.tree.elements;
    const auto n = el.size();
    // Which rows lie in a document (a web page's content: its engine announces every change), and
    // which hold one below them.
    std::vector<char> trusted(n, 0), holds_document(n, 0), holds_cut(n, 0);
    auto& children = check.children;
    children.assign(n, {});
    for (std::size_t i = 0; i < n; ++i) {
        const auto parent = el[i].parent;
        const bool document = el[i].role == "document_web" || el[i].role == "document_frame";
        trusted[i] = (parent >= 0 && trusted[static_cast<std::size_t>(parent)]) || document;
        if (parent >= 0)
            children[static_cast<std::size_t>(parent)].push_back(static_cast<std::int32_t>(i));
    }
    for (std::size_t i = n; i-- > 0;) {
        const bool document = el[i].role == "document_web" || el[i].role == "document_frame";
        if ((document || holds_document[i]) && el[i].parent >= 0)
            holds_document[static_cast<std::size_t>(el[i].parent)] = 1;
        holds_cut[i] = static_cast<char>(holds_cut[i] || el[i].children_cut);
        if (holds_cut[i] && el[i].parent >= 0)
            holds_cut[static_cast<std::size_t>(el[i].parent)] = 1;
    }
    for (std::size_t i = 0; i < n; ++i)
        if (!trusted[i] && !is_object_key(el[i].key))
            return fail("an element without an AT-SPI object");

    // A part outside documents with no document below it is compared in one call: its
    // descendants in preorder (Collection.GetMatches, every object) against the read's. The
    // parents above documents, and parts whose app has no such call or whose answer differs, are
    // compared parent by parent. GTK3 orders children otherwise than its item cache: its parts are
    // compared as sets (a child moved to another parent comes with the events of both).
    auto& parts = check.parts;
    auto& changed = check.changed;
    std::size_t& asked = check.asked;
    const bool unordered = any_order(e.cold);
    const bool whole_parts = !e.parts_by_parent && (unordered || !order_from_cache(e.cold));
    for (std::size_t i = 0; i < n;) {
        const auto row = static_cast<std::int32_t>(i);
        if (trusted[i]) {
            i = static_cast<std::size_t>(subtree_end(el, row));
            continue;
        }
        // A part has descendants; its end is looked for only then (parent by parent, every row
        // would walk its whole subtree).
        // A part the limits cut somewhere is compared parent by parent too: its app's whole
        // preorder holds what the read left out.
        if (whole_parts && !holds_document[i] && !holds_cut[i] && !children[i].empty()) {
            const std::int32_t end = subtree_end(el, row);
            parts.push_back({row, end, {}, false});
            i = static_cast<std::size_t>(end);
            continue;
        }
        ++asked;
        add_children_check(e, batch, row, children, changed);
        ++i;
    }
    for (auto& part : parts) {
        const auto ref = parse_key(el[static_cast<std::size_t>(part.row)].key);
        const std::int32_t count = part.end - part.row; // one more than the read holds tells growth
        ++asked;
        batch.add({ref->bus, ref->path, IFACE_COLLECTION, "GetMatches"},
                  [count](sd_bus_message* m) { return append_get_matches_args(m, {}, count); },
                  [&part](const Reply& r) { part.answered = r.ok() && read_refs(r.message, part.live) >= 0; });
    }
    return true;
}

bool WarmTrees::finish_structure_check(Entry& e, StructureCheck& check, Deadline deadline)
{
    auto& el = e.tree.elements;
    auto& parts = check.parts;
    auto& changed = check.changed;
    auto& children = check.children;
    std::size_t& asked = check.asked;
    const bool unordered = any_order(e.cold);

    // Parts whose answer differs from the read are compared parent by parent: a change, or an
    // app whose Collection walks otherwise than GetChildren (then always parent by parent).
    AtspiBatch again(m_bus, deadline);
    std::size_t unsure = 0;
    const auto changed_before = changed.size();
    for (const auto& part : parts) {
        bool same = part.answered && part.live.size() == static_cast<std::size_t>(part.end - part.row - 1);
        if (same) {
            std::vector<std::string> live, read;
            for (std::size_t k = 0; k < part.live.size(); ++k) {
                live.push_back(part.live[k].key());
                read.push_back(el[static_cast<std::size_t>(part.row) + 1 + k].key);
            }
            if (unordered) {
                std::sort(live.begin(), live.end());
                std::sort(read.begin(), read.end());
            }
            same = live == read;
        }
        if (same)
            continue;
        ++unsure;
        for (auto row = part.row; row < part.end; ++row) {
            ++asked;
            add_children_check(e, again, row, children, changed);
        }
    }
    if (unsure > 0) {
        if (!again.run())
            return fail("the structure check did not finish");
        if (changed.size() == changed_before)
            e.parts_by_parent = true;
    }
    m_stats.checked = asked;
    if (changed.empty())
        return true;
    // Something changed that no event announced (Chromium's own toolbars and tab strip): the
    // changed parts are read again, as if announced.
    if (e.tree.truncated || order_from_cache(e.cold))
        return fail("an unannounced structural change");
    return rewalk_all(e, outermost(el, std::move(changed)), deadline);
}

} // namespace nd_linux

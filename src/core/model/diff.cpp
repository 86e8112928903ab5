#include "core/model/diff.h"

#include "core/model/views.h"

#include <unordered_map>

namespace nd_core {

namespace {

std::string join_states(std::uint32_t states)
{
    std::string out;
    for (auto name : state_names(states)) {
        if (!out.empty())
            out.push_back(',');
        out.append(name);
    }
    return out;
}

std::string_view kind_name(DiffEntry::Kind k)
{
    switch (k) {
    case DiffEntry::Kind::added: return "added";
    case DiffEntry::Kind::removed: return "removed";
    case DiffEntry::Kind::changed: return "changed";
    }
    return "changed";
}

class Collector {
public:
    Collector(Diff& d, std::size_t max) : m_diff(d), m_max(max) {}
    void add(DiffEntry e)
    {
        if (m_diff.entries.size() < m_max)
            m_diff.entries.push_back(std::move(e));
        else
            m_diff.truncated = true;
    }

private:
    Diff& m_diff;
    std::size_t m_max;
};

DiffEntry entry(DiffEntry::Kind kind, std::int32_t index, const Element& e)
{
    return DiffEntry{kind, index, e.role, cut_text(e.name, LABEL_MAX_CHARS), {}, {}, {}};
}

} // namespace

Diff diff_snapshots(const Snapshot& before, const Snapshot& after, std::size_t max_entries)
{
    Diff d;
    d.structural = before.structure_hash != after.structure_hash;
    Collector out(d, max_entries);
    std::unordered_map<std::string_view, std::int32_t> before_by_key;
    before_by_key.reserve(before.elements.size());
    for (std::int32_t i = 0; i < before.size(); ++i)
        before_by_key.emplace(before.elements[i].key, i);

    std::vector<bool> matched(before.elements.size(), false);
    for (std::int32_t i = 0; i < after.size(); ++i) {
        const auto& a = after.elements[i];
        auto it = before_by_key.find(a.key);
        if (it == before_by_key.end()) {
            ++d.added;
            out.add(entry(DiffEntry::Kind::added, i, a));
            continue;
        }
        matched[static_cast<std::size_t>(it->second)] = true;
        const auto& b = before.elements[it->second];
        auto changed = [&](std::string field, std::string from, std::string to) {
            ++d.changed;
            auto e = entry(DiffEntry::Kind::changed, i, a);
            e.field = std::move(field);
            e.from = std::move(from);
            e.to = std::move(to);
            out.add(std::move(e));
        };
        if (a.name != b.name)
            changed("name", cut_text(b.name, LABEL_MAX_CHARS), cut_text(a.name, LABEL_MAX_CHARS));
        if (a.value != b.value && !a.secure() && !b.secure())
            changed("value", cut_text(b.value, LABEL_MAX_CHARS), cut_text(a.value, LABEL_MAX_CHARS));
        if (a.states != b.states)
            changed("states", join_states(b.states), join_states(a.states));
    }
    for (std::int32_t i = 0; i < before.size(); ++i) {
        if (matched[static_cast<std::size_t>(i)])
            continue;
        ++d.removed;
        out.add(entry(DiffEntry::Kind::removed, i, before.elements[i]));
    }
    return d;
}

void write_diff_json(JsonWriter& w, const Diff& d, const Snapshot& after)
{
    w.begin_object();
    w.field("structural", d.structural);
    w.field("added", d.added);
    w.field("removed", d.removed);
    w.field("changed", d.changed);
    w.key("entries").begin_array();
    for (const auto& e : d.entries) {
        w.begin_object();
        w.field("kind", kind_name(e.kind));
        w.field("element_index", e.index);
        if (e.kind != DiffEntry::Kind::removed)
            w.field("element_token", format_token(after.id, e.index));
        w.field("role", e.role);
        w.field("name", e.name);
        if (e.kind == DiffEntry::Kind::changed) {
            w.field("field", e.field);
            w.field("from", e.from);
            w.field("to", e.to);
        }
        w.end_object();
    }
    w.end_array();
    w.field("truncated", d.truncated);
    w.end_object();
}

} // namespace nd_core

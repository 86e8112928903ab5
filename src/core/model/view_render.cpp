#include "core/model/view_render.h"

#include <algorithm>
#include <charconv>

namespace nd_core {

namespace {

void append_int(std::string& out, std::int64_t v)
{
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    (void)ec;
    out.append(buf, end);
}

// Quotes text for a text line: escapes backslash, quote and control characters so one row stays one line.
void append_quoted(std::string& out, std::string_view text)
{
    out.push_back('"');
    for (char c : text) {
        switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
                out.push_back(' ');
            else
                out.push_back(c);
        }
    }
    out.push_back('"');
}

// append_quoted of the text cut to `max_chars` characters.
void append_quoted_cut(std::string& out, std::string_view text, std::int32_t max_chars)
{
    if (text.size() <= static_cast<std::size_t>(std::max(max_chars, 0)))
        append_quoted(out, text);
    else
        append_quoted(out, cut_text(text, max_chars));
}

void write_frame(JsonWriter& w, const Element& e)
{
    w.key("frame");
    if (!e.has_frame) {
        w.null();
        return;
    }
    w.begin_object()
        .field("x", e.frame.x)
        .field("y", e.frame.y)
        .field("w", e.frame.w)
        .field("h", e.frame.h)
        .end_object();
}

// "managed": {"children": N, "rows": R, "columns": C, "visible_rows": [a, b], "visible_columns": [c, d]},
// only on containers that manage their descendants; sizes and ranges the backend did not learn are left out.
void write_managed(JsonWriter& w, const ManagedChildren& m)
{
    if (!m.on)
        return;
    w.key("managed").begin_object();
    if (m.children >= 0)
        w.field("children", m.children);
    if (m.rows > 0 || m.columns > 0)
        w.field("rows", m.rows).field("columns", m.columns);
    auto range = [&w](std::string_view key, std::int32_t first, std::int32_t last) {
        if (first > last)
            return;
        w.key(key).begin_array();
        w.number(static_cast<std::int64_t>(first));
        w.number(static_cast<std::int64_t>(last));
        w.end_array();
    };
    range("visible_rows", m.first_row, m.last_row);
    range("visible_columns", m.first_column, m.last_column);
    w.end_object();
}

// " managed: children=2147483647 table=1048576x16384 visible=rows 0-45,columns 0-14": the row's
// children are only the part on screen, and this is how big the whole is.
void append_managed(std::string& out, const ManagedChildren& m)
{
    if (!m.on)
        return;
    out.append(" managed: children=");
    if (m.children >= 0)
        append_int(out, m.children);
    else
        out.append("unknown");
    if (m.rows > 0 || m.columns > 0) {
        out.append(" table=");
        append_int(out, m.rows);
        out.push_back('x');
        append_int(out, m.columns);
    }
    out.append(" visible=");
    if (m.first_row > m.last_row) {
        out.append("none");
        return;
    }
    out.append("rows ");
    append_int(out, m.first_row);
    out.push_back('-');
    append_int(out, m.last_row);
    if (m.first_column <= m.last_column) {
        out.append(",columns ");
        append_int(out, m.first_column);
        out.push_back('-');
        append_int(out, m.last_column);
    }
}

// A text field cut to `max_chars` characters; a text that short in bytes is written as it is.
void text_field(JsonWriter& w, std::string_view key, std::string_view text, std::int32_t max_chars)
{
    if (text.size() <= static_cast<std::size_t>(std::max(max_chars, 0)))
        w.field(key, text);
    else
        w.field(key, cut_text(text, max_chars));
}

// A row's object begins with its index and token: what the snapshot's id alone changes.
// `token` is scratch space, reused row after row: a window of thousands of rows allocates once.
void write_row_head(JsonWriter& w, const Snapshot& s, const ViewRow& row, std::string& token)
{
    w.begin_object();
    w.field("element_index", row.index);
    token.assign(s.id);
    token.push_back(':');
    append_int(token, row.index);
    w.field("element_token", token);
}

// Returns where the row's tail (what follows its token) begins in the writer's output.
std::size_t write_row(JsonWriter& w, const Snapshot& s, const View& v, const ViewRow& row, std::string& token)
{
    const auto& e = s.elements[row.index];
    write_row_head(w, s, row, token);
    const auto tail = w.size();
    w.field("role", e.role);
    if (e.level > 0)
        w.field("level", e.level);
    if (v.kind == ViewKind::skeleton) {
        text_field(w, "label", skeleton_label(e), LABEL_MAX_CHARS);
        if (row.fold_count > 0)
            w.key("alike").begin_object().field("count", row.fold_count).field("last_index", row.fold_last).end_object();
        if (row.section > 0)
            w.field("section_count", row.section);
    } else {
        text_field(w, "name", e.name, NAME_MAX_CHARS);
        if (e.secure())
            w.field("value_redacted", true);
        else if (!e.value.empty())
            text_field(w, "value", e.value, VALUE_MAX_CHARS);
        w.key("states").begin_array();
        for (std::uint32_t bit = 0; bit < STATE_COUNT; ++bit)
            if (e.states & (1u << bit))
                w.string(state_name(bit));
        w.end_array();
        w.key("actions").begin_array();
        for (const auto& a : e.actions)
            w.string(a);
        w.end_array();
    }
    w.key("parent_index");
    if (row.parent_index < 0)
        w.null();
    else
        w.number(static_cast<std::int64_t>(row.parent_index));
    w.field("depth", row.depth);
    w.field("child_count", e.child_count);
    w.field("descendant_count", e.descendant_count);
    write_managed(w, e.managed);
    write_frame(w, e);
    w.end_object();
    return tail;
}

void append_state_words(std::string& out, const Element& e, bool clickable)
{
    static constexpr std::pair<State, std::string_view> SHOWN[] = {
        {STATE_CHECKED, "checked"}, {STATE_SELECTED, "selected"}, {STATE_EXPANDED, "expanded"},
        {STATE_FOCUSED, "focused"}, {STATE_EDITABLE, "editable"}, {STATE_MODAL, "modal"},
        {STATE_HIDDEN, "hidden"},
    };
    bool first = true;
    auto word = [&](std::string_view w) {
        out.append(first ? " (" : ", ");
        out.append(w);
        first = false;
    };
    for (const auto& [bit, name] : SHOWN)
        if (e.is(bit))
            word(name);
    if (!e.is(STATE_ENABLED))
        word("disabled");
    if (e.secure())
        word("secure");
    if (clickable)
        word("clickable");
    if (!first)
        out.push_back(')');
}

// " level=2" on a heading whose level the toolkit gave.
void append_level(std::string& out, const Element& e)
{
    if (e.level <= 0)
        return;
    out.append(" level=");
    append_int(out, e.level);
}

// One row's text line.
void append_line(std::string& out, const Snapshot& s, const View& v, const ViewRow& row)
{
    const auto& e = s.elements[row.index];
    out.append(static_cast<std::size_t>(std::max(row.depth - row.lift, 0)) * 2, ' ');
    out.push_back('[');
    append_int(out, row.index);
    out.append("] ");
    out.append(e.role);
    out.push_back(' ');
    if (v.kind == ViewKind::skeleton) {
        append_quoted_cut(out, skeleton_label(e), LABEL_MAX_CHARS);
        out.append(" children=");
        append_int(out, e.child_count);
        out.append(" descendants=");
        append_int(out, e.descendant_count);
        if (row.fold_count > 0) {
            // One line for a run of alike siblings: how many, and where the run ends.
            out.append(" alike=");
            append_int(out, row.fold_count);
            out.append(" to [");
            append_int(out, row.fold_last);
            out.push_back(']');
        }
        // An unnamed row: the first names it holds.
        for (std::size_t k = 0; k < row.holds.size(); ++k) {
            out.append(k == 0 ? " holds " : ", ");
            append_quoted_cut(out, row.holds[k], HOLDS_MAX_CHARS);
        }
        if (row.holds_more)
            out.append(", …");
        append_level(out, e);
        if (row.section > 0) {
            out.append(" section=");
            append_int(out, row.section);
        }
        append_managed(out, e.managed);
    } else {
        append_quoted_cut(out, e.name, NAME_MAX_CHARS);
        append_level(out, e);
        if (!e.secure() && !e.value.empty()) {
            out.append(" = ");
            append_quoted_cut(out, e.value, VALUE_MAX_CHARS);
        }
        append_state_words(out, e, row.clickable);
        if (row.hides_below) {
            // What lies below a hidden element has no line: how much there is.
            out.append(" descendants=");
            append_int(out, e.descendant_count);
        }
        append_managed(out, e.managed);
    }
    out.push_back('\n');
}

// Which rows of an earlier rendering render to the same bytes now, but for the token: the same row
// at the same place of the view, of an element equal in every fact.
class PriorRows {
public:
    PriorRows(const PriorRendering* prior, const Snapshot& now)
        : m_prior(prior && prior->snapshot && prior->rows ? prior : nullptr), m_now(now)
    {
    }

    bool same(std::size_t i, const ViewRow& row) const
    {
        if (!m_prior || i >= m_prior->rows->rows.size() || !(m_prior->rows->rows[i] == row))
            return false;
        const auto at = static_cast<std::size_t>(row.index);
        const auto& before = m_prior->snapshot->elements;
        return at < before.size() && at < m_now.elements.size() && before[at] == m_now.elements[at];
    }

    static std::string_view bytes(std::string_view all, std::pair<std::uint32_t, std::uint32_t> span)
    {
        return all.substr(span.first, span.second - span.first);
    }

    static std::string_view tail(std::string_view all, const RowSpan& span)
    {
        return all.substr(span.tail, span.end - span.tail);
    }

private:
    const PriorRendering* m_prior;
    const Snapshot& m_now;
};

} // namespace

void write_rows_json(JsonWriter& w, const Snapshot& s, const View& v, const PriorRendering* prior, RenderedRows* record)
{
    const PriorRows from(prior, s);
    std::string token;
    std::string copy;
    if (record) {
        record->rows = v.rows;
        record->json.clear();
        record->json.reserve(v.rows.size());
    }
    w.begin_array();
    for (std::size_t i = 0; i < v.rows.size(); ++i) {
        const auto& row = v.rows[i];
        // Each row after the first starts with the separator the writer puts before it.
        const auto begin = w.size() + (i > 0 ? 1 : 0);
        std::size_t tail = 0;
        if (from.same(i, row) && i < prior->rows->json.size()) {
            // The head afresh (the id may be new), the tail as it was.
            copy.clear();
            JsonWriter head(copy);
            write_row_head(head, s, row, token);
            tail = begin + copy.size();
            copy.append(PriorRows::tail(prior->json, prior->rows->json[i]));
            w.raw(copy);
        } else {
            tail = write_row(w, s, v, row, token);
        }
        if (record)
            record->json.push_back({static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(tail),
                static_cast<std::uint32_t>(w.size())});
    }
    w.end_array();
}

std::string view_text(const Snapshot& s, const View& v)
{
    std::string out;
    append_view_text(out, s, v);
    return out;
}

void append_view_text(std::string& out, const Snapshot& s, const View& v, const PriorRendering* prior,
    RenderedRows* record)
{
    const PriorRows from(prior, s);
    if (record) {
        record->rows = v.rows;
        record->text.clear();
        record->text.reserve(v.rows.size());
    }
    out.reserve(out.size() + v.rows.size() * 48);
    for (std::size_t i = 0; i < v.rows.size(); ++i) {
        const auto& row = v.rows[i];
        const auto begin = out.size();
        if (from.same(i, row) && i < prior->rows->text.size())
            out.append(PriorRows::bytes(prior->text, prior->rows->text[i]));
        else if (!row.unlisted)
            append_line(out, s, v, row);
        if (record)
            record->text.emplace_back(static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(out.size()));
    }
}

} // namespace nd_core

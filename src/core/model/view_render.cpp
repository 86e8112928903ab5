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

// `token` is scratch space, reused row after row: a window of thousands of rows allocates once.
void write_row(JsonWriter& w, const Snapshot& s, const View& v, const ViewRow& row, std::string& token)
{
    const auto& e = s.elements[row.index];
    w.begin_object();
    w.field("element_index", row.index);
    token.assign(s.id);
    token.push_back(':');
    append_int(token, row.index);
    w.field("element_token", token);
    w.field("role", e.role);
    if (v.kind == ViewKind::skeleton) {
        text_field(w, "label", e.name, LABEL_MAX_CHARS);
        if (row.fold_count > 0)
            w.key("alike").begin_object().field("count", row.fold_count).field("last_index", row.fold_last).end_object();
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
}

void append_state_words(std::string& out, const Element& e)
{
    static constexpr std::pair<State, std::string_view> SHOWN[] = {
        {STATE_CHECKED, "checked"}, {STATE_SELECTED, "selected"}, {STATE_EXPANDED, "expanded"},
        {STATE_FOCUSED, "focused"}, {STATE_EDITABLE, "editable"}, {STATE_MODAL, "modal"},
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
    if (!first)
        out.push_back(')');
}

} // namespace

void write_rows_json(JsonWriter& w, const Snapshot& s, const View& v)
{
    std::string token;
    w.begin_array();
    for (const auto& row : v.rows)
        write_row(w, s, v, row, token);
    w.end_array();
}

std::string view_text(const Snapshot& s, const View& v)
{
    std::string out;
    out.reserve(v.rows.size() * 48);
    for (const auto& row : v.rows) {
        const auto& e = s.elements[row.index];
        out.append(static_cast<std::size_t>(row.depth) * 2, ' ');
        out.push_back('[');
        append_int(out, row.index);
        out.append("] ");
        out.append(e.role);
        out.push_back(' ');
        if (v.kind == ViewKind::skeleton) {
            append_quoted_cut(out, e.name, LABEL_MAX_CHARS);
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
            append_managed(out, e.managed);
        } else {
            append_quoted_cut(out, e.name, NAME_MAX_CHARS);
            if (!e.secure() && !e.value.empty()) {
                out.append(" = ");
                append_quoted_cut(out, e.value, VALUE_MAX_CHARS);
            }
            append_state_words(out, e);
            append_managed(out, e.managed);
        }
        out.push_back('\n');
    }
    return out;
}

} // namespace nd_core

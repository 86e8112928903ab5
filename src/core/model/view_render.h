#pragma once

// Renders a view as JSON rows (streamed) and as the text the model reads. Secure values are never
// rendered: a secure row says value_redacted instead.

#include "core/encode/json_writer.h"
#include "core/model/views.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nd_core {

// Where one row's JSON object lies in what it was written into: [begin, end), and `tail`, where
// what follows its index and token begins.
struct RowSpan {
    std::uint32_t begin = 0, tail = 0, end = 0;
    bool operator==(const RowSpan&) const = default;
};

// A rendering's rows and where each one's bytes lie in it: row i's JSON object at json[i], its
// text line at text[i] (begin, end).
struct RenderedRows {
    std::vector<ViewRow> rows;
    std::vector<RowSpan> json;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> text;
};

// An earlier rendering of the same view to copy rows from: a row whose view row and element are
// the same in both is copied, not rendered again; its token is written afresh, since a snapshot
// with a new id (a structural change elsewhere in the window) gives every row a new token.
struct PriorRendering {
    const Snapshot* snapshot = nullptr;
    std::string_view json, text; // the whole of what it was written into
    const RenderedRows* rows = nullptr;
};

// Appends the rows as one JSON array value (the writer must be positioned after a key). With
// `record`, notes where each row's object lies in the writer's output.
void write_rows_json(JsonWriter&, const Snapshot&, const View&, const PriorRendering* prior = nullptr,
    RenderedRows* record = nullptr);

// One line per row (none for a full view's unlisted rows: views.h), indented two spaces per view
// depth:
//   skeleton: [N] role "label" children=K descendants=D
//   full:     [N] role "name" = "value" (checked, focused)
// A container that manages its descendants adds, in both views,
//   managed: children=2147483647 table=1048576x16384 visible=rows 0-45,columns 0-14
std::string view_text(const Snapshot&, const View&);
// The same lines appended to `out`, copying from `prior` and noting in `record` as above.
void append_view_text(std::string& out, const Snapshot&, const View&, const PriorRendering* prior = nullptr,
    RenderedRows* record = nullptr);

} // namespace nd_core

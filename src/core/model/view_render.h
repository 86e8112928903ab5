#pragma once

// Renders a view as JSON rows (streamed) and as the text the model reads. Secure values are never
// rendered: a secure row says value_redacted instead.

#include "core/encode/json_writer.h"
#include "core/model/views.h"

#include <string>

namespace nd_core {

// Appends the rows as one JSON array value (the writer must be positioned after a key).
void write_rows_json(JsonWriter&, const Snapshot&, const View&);

// One line per row, indented two spaces per view depth:
//   skeleton: [N] role "label" children=K descendants=D
//   full:     [N] role "name" = "value" (checked, focused)
// A container that manages its descendants adds, in both views,
//   managed: children=2147483647 table=1048576x16384 visible=rows 0-45,columns 0-14
std::string view_text(const Snapshot&, const View&);

} // namespace nd_core

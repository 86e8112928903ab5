#pragma once

// Text that lags what an app shows. LibreOffice Writer keeps each paragraph's accessible text
// from the first time it was asked until the paragraph changes: a paragraph first read while a
// document was still loading can report less text (often none) than it holds, to any AT-SPI
// client, for as long as nothing edits it. An edit brings it up to date, so the value routes
// (atspi_value_routes.h) check the text after their first call and correct an edit made at an
// offset the lagging text gave:
//   - type_text with no caret in the field inserts at the reported end; when the text after it
//     holds more after the inserted part than the field reported, the insert went in short of
//     the real end: it is taken out and made again at the end the field now reports;
//   - set_value replaces the text the field reported: when what it reads back is not the value,
//     the call is made once more on the text the edit brought up to date.

#include <cstdint>
#include <string_view>

namespace nd_linux {

// Whether `after`, the text read after inserting `text` at character `position` of a field that
// reported `before`, holds the inserted text there with more text after it than the field
// reported: the field held text it had not reported, and the insert did not go in at its end.
bool inserted_short_of_the_end(std::string_view before, std::string_view after, std::int32_t position,
                               std::string_view text);

} // namespace nd_linux

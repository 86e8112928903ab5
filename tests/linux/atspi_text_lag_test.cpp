// Text that lags what an app shows (atspi_text_lag.h): when an insert at the reported end went in
// short of the real one.

#include "backend/linux/atspi/atspi_text_lag.h"

#include <gtest/gtest.h>

namespace {

using nd_linux::inserted_short_of_the_end;

TEST(TextLag, an_insert_into_text_reported_empty_with_text_after_it_went_in_short)
{
    // LibreOffice's paragraph first read while its document loaded: "" reported, the line held.
    EXPECT_TRUE(inserted_short_of_the_end("", " Typed here.Line 1 of the notes.", 0, " Typed here."));
    // Part of it reported.
    EXPECT_TRUE(inserted_short_of_the_end("Line 1", "Line 1 Typed here. of the notes.", 6, " Typed here."));
    // Characters, not bytes.
    EXPECT_TRUE(inserted_short_of_the_end("Ünï", "Ünï→x ōf", 3, "→x"));
}

TEST(TextLag, an_insert_that_went_in_at_the_end_or_at_a_caret_is_left_alone)
{
    EXPECT_FALSE(inserted_short_of_the_end("Line 1", "Line 1 Typed here.", 6, " Typed here."));
    // At a caret inside the text (not the reported end).
    EXPECT_FALSE(inserted_short_of_the_end("ab", "aXb", 1, "X"));
    // The field filtered or cut the text: it is not there as typed.
    EXPECT_FALSE(inserted_short_of_the_end("", "TYPED more", 0, "typed"));
    // The text before it changed as well: not only an insert.
    EXPECT_FALSE(inserted_short_of_the_end("ab", "zbX tail", 2, "X"));
    // No position, no text.
    EXPECT_FALSE(inserted_short_of_the_end("", "x", -1, "x"));
    EXPECT_FALSE(inserted_short_of_the_end("a", "a", 1, ""));
}

} // namespace

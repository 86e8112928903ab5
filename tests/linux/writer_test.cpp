// LibreOffice Writer, a word processor: a document's paragraphs are rows of their own (role
// paragraph, the text as the value), only the paragraphs on screen are in its tree, and each takes
// type_text and set_value headless, read back. Its menus leave some actions without a name even
// when asked (Element::action_names_asked): a warm read asks for none of them again.

#include "office_app.h"

#include "backend/linux/atspi/atspi_tree_reader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>

namespace {

using namespace std::chrono_literals;
using nd_test::json;

constexpr int LINES = 400;

class Writer : public nd_test::OfficeTest {
protected:
    void SetUp() override
    {
        start_office("--writer", "libreoffice-writer", [](const std::string& dir) {
            const std::string path = dir + "/notes.txt";
            std::ofstream out(path);
            for (int i = 0; i < LINES; ++i)
                out << "Line " << i << " of the notes.\n";
            return std::vector<std::string>{path};
        });
        if (IsSkipped() || HasFatalFailure())
            return;
        // The document fills in after the frame, a paragraph at a time on a loaded host: wait
        // until the first three are in the read.
        ASSERT_TRUE(nd_test::wait_until(
            [&] {
                const auto read = read_all(m_window);
                return !paragraph(read, 0).is_null() && !paragraph(read, 1).is_null() && !paragraph(read, 2).is_null();
            },
            30s));
    }

    // The paragraph holding line `n` of the notes, or null.
    static json paragraph(const json& read, int n)
    {
        const std::string text = "Line " + std::to_string(n) + " of the notes.";
        return find_row(read, "paragraph", "", [&](const json& row) { return row.value("value", "") == text; });
    }
};

TEST_F(Writer, paragraphs_on_screen_take_typed_text_and_values_headless)
{
    auto all = read_all(m_window);
    const auto document = find_row(all, "document_text");
    ASSERT_FALSE(document.is_null());
    int paragraphs = 0;
    for (const auto& row : all["elements"])
        paragraphs += row["role"] == "paragraph" && row["parent_index"] == document["element_index"];
    // The paragraphs a person sees, not the whole document.
    EXPECT_GT(paragraphs, 5);
    EXPECT_LT(paragraphs, LINES);
    const auto first = paragraph(all, 0);
    ASSERT_FALSE(first.is_null());
    EXPECT_TRUE(has_state(first, "editable"));

    const auto second = paragraph(all, 1);
    ASSERT_FALSE(second.is_null());
    auto typed = call("type_text", {{"element_token", second["element_token"]}, {"text", " Typed here."}});
    ASSERT_FALSE(typed.is_error) << typed.text;
    const auto third = paragraph(all, 2);
    ASSERT_FALSE(third.is_null());
    auto set = call("set_value", {{"element_token", third["element_token"]}, {"value", "Replaced by set_value."}});
    ASSERT_FALSE(set.is_error) << set.text;
    EXPECT_NE(set.text.find("readback match"), std::string::npos) << set.text;

    all = read_all(m_window);
    const auto after_typing = row_at(all, second);
    EXPECT_EQ(after_typing["role"], "paragraph");
    EXPECT_NE(after_typing.value("value", "").find("Typed here."), std::string::npos) << after_typing.dump();
    EXPECT_NE(after_typing.value("value", "").find("Line 1 of the notes."), std::string::npos) << after_typing.dump();
    EXPECT_EQ(row_at(all, third).value("value", ""), "Replaced by set_value.");
    EXPECT_FALSE(paragraph(all, 0).is_null()) << "the paragraph above was changed too";
}

TEST_F(Writer, a_warm_read_asks_no_action_name_again)
{
    auto* reader = dynamic_cast<nd_linux::AtspiTreeReader*>(backend().trees());
    ASSERT_NE(reader, nullptr);
    // The first reads may go cold while LibreOffice builds objects; then they answer warm.
    json all;
    bool warm = false;
    for (int i = 0; i < 6 && !warm; ++i) {
        all = read_all(m_window);
        warm = reader->last_read().warm;
    }
    ASSERT_TRUE(warm) << reader->warm().stats().last_decline;
    // Rows whose actions stay unnamed after they were asked (the menus).
    std::size_t unnamed = 0;
    for (const auto& row : all["elements"]) {
        const auto actions = row.value("actions", json::array());
        unnamed += std::count(actions.begin(), actions.end(), json("")) > 0;
    }
    ASSERT_GT(unnamed, 10u) << "too few actions without a name: the test shows nothing";

    // Asked again: only the names of objects whose events made the warm read fetch them afresh
    // (LibreOffice updates its menu items' states as it goes), never those of every unnamed row.
    const auto asked = reader->action_name_calls();
    auto again = read_all(m_window);
    EXPECT_TRUE(reader->last_read().warm) << reader->warm().stats().last_decline;
    const auto asked_again = reader->action_name_calls() - asked;
    EXPECT_LT(asked_again, unnamed) << "a warm read asked the unnamed actions again";
    std::printf("Writer: %zu rows with unnamed actions; the warm read asked %zu names (%zu objects fetched afresh)\n",
                unnamed, asked_again, reader->warm().stats().refetched);
    EXPECT_EQ(again["elements"].size(), all["elements"].size());
}

} // namespace

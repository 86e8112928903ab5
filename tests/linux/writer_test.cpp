// LibreOffice Writer, a word processor: a document's paragraphs are rows of their own (role
// paragraph, the text as the value), only the paragraphs on screen are in its tree, and each takes
// type_text and set_value headless, read back. Its menus leave some actions without a name even
// when asked (Element::action_names_asked): a warm read asks for none of them again. A document
// with headings reads as its outline: its heading paragraphs have no name, their text is their
// value, and they are skeleton rows by that text, each with the section a drill-down reads.

#include "office_app.h"

#include "backend/linux/atspi/atspi_tree_reader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>

namespace {

using namespace std::chrono_literals;
using nd_test::json;

constexpr int LINES = 400;

class Writer : public nd_test::OfficeTest {
protected:
    void SetUp() override
    {
        std::ostringstream notes;
        for (int i = 0; i < LINES; ++i)
            notes << "Line " << i << " of the notes.\n";
        start_writer_on("notes.txt", notes.str());
        if (IsSkipped() || HasFatalFailure())
            return;
        // The document fills in after the frame: wait until three of its paragraphs are in the
        // read. Paragraphs LibreOffice made while it was still loading the file may keep
        // reporting the empty text they had then (docs/linux-atspi.md, "set_value and
        // type_text"), so the tests find them by their place, not by their text.
        ASSERT_TRUE(nd_test::wait_until([&] { return paragraphs(read_all(m_window)).size() >= 3; }, 30s));
    }

    // The paragraphs of the document, in order.
    static std::vector<json> paragraphs(const json& read)
    {
        std::vector<json> out;
        const auto document = find_row(read, "document_text");
        if (document.is_null())
            return out;
        for (const auto& row : read["elements"])
            if (row["role"] == "paragraph" && row["parent_index"] == document["element_index"])
                out.push_back(row);
        return out;
    }
};

TEST_F(Writer, paragraphs_on_screen_take_typed_text_and_values_headless)
{
    auto all = read_all(m_window);
    const auto rows = paragraphs(all);
    // The paragraphs a person sees, not the whole document.
    EXPECT_GT(rows.size(), 5u);
    EXPECT_LT(rows.size(), static_cast<std::size_t>(LINES));
    ASSERT_GE(rows.size(), 3u);
    const auto first = rows[0];
    EXPECT_TRUE(has_state(first, "editable"));
    const auto second = rows[1];
    const auto third = rows[2];
    // Empty when LibreOffice made them while loading the file: the edits below correct for that.
    std::printf("Writer: the first three paragraphs reported \"%s\", \"%s\" and \"%s\"\n",
                first.value("value", "").c_str(), second.value("value", "").c_str(), third.value("value", "").c_str());
    auto typed = call("type_text", {{"element_token", second["element_token"]}, {"text", " Typed here."}});
    ASSERT_FALSE(typed.is_error) << typed.text;
    auto set = call("set_value", {{"element_token", third["element_token"]}, {"value", "Replaced by set_value."}});
    ASSERT_FALSE(set.is_error) << set.text;
    EXPECT_NE(set.text.find("readback match"), std::string::npos) << set.text;

    all = read_all(m_window);
    const auto after_typing = row_at(all, second);
    EXPECT_EQ(after_typing["role"], "paragraph");
    // At the end of the line, also when the paragraph reported less text than it held.
    EXPECT_EQ(after_typing.value("value", ""), "Line 1 of the notes. Typed here.") << after_typing.dump();
    EXPECT_EQ(row_at(all, third).value("value", ""), "Replaced by set_value.");
    EXPECT_EQ(row_at(all, first).value("value", ""), first.value("value", "")) << "the paragraph above changed too";
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

class WriterOutline : public nd_test::OfficeTest {
protected:
    void SetUp() override
    {
        std::ostringstream report;
        report << "<html><body><h1>Report</h1><p>Intro text.</p>";
        for (int i = 1; i <= 3; ++i)
            report << "<h2>Part " << i << "</h2><p>Text of part " << i << ".</p><h3>Detail " << i << ".1</h3><p>More of part "
                   << i << ".</p>";
        report << "</body></html>\n";
        start_writer_on("report.html", report.str());
    }

    json heading(const json& skeleton, const std::string& label)
    {
        for (const auto& row : skeleton["elements"])
            if (row["role"] == "heading" && row.value("label", "") == label)
                return row;
        return nullptr;
    }
};

TEST_F(WriterOutline, HeadingParagraphsAreTheSkeletonsOutlineAndTheirSectionsAct)
{
    if (IsSkipped() || HasFatalFailure())
        return;
    json sk;
    // The document fills in after the frame.
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            auto r = call("get_window_state", {{"window_id", m_window["window_id"]}, {"skeleton", true}});
            sk = r.s;
            return !r.is_error && !heading(sk, "Part 3").is_null();
        },
        30s))
        << sk.dump();
    const auto report = heading(sk, "Report");
    ASSERT_FALSE(report.is_null()) << sk.dump();
    EXPECT_EQ(report.value("level", 0), 1);
    const auto part2 = heading(sk, "Part 2");
    EXPECT_EQ(part2.value("level", 0), 2);
    EXPECT_FALSE(heading(sk, "Detail 2.1").is_null()) << "sections fit in the rows left";

    auto part = call("get_window_state", {{"window_id", m_window["window_id"]}, {"root", part2["element_token"]}});
    ASSERT_FALSE(part.is_error) << part.text;
    EXPECT_EQ(part.s["elements"].size(), part2["section_count"].get<std::size_t>()) << part.text;
    json text;
    std::vector<std::string> values;
    for (const auto& row : part.s["elements"]) {
        values.push_back(row.value("value", ""));
        if (row["role"] == "paragraph" && row.value("value", "") == "Text of part 2.")
            text = row;
    }
    for (const char* value : {"Part 2", "Text of part 2.", "Detail 2.1", "More of part 2."})
        EXPECT_NE(std::find(values.begin(), values.end(), value), values.end()) << value << " is missing from\n" << part.text;
    for (const char* value : {"Part 1", "More of part 1.", "Part 3"})
        EXPECT_EQ(std::find(values.begin(), values.end(), value), values.end()) << value << " is outside part 2, yet in\n" << part.text;
    ASSERT_FALSE(text.is_null()) << part.text;
    auto set = call("set_value", {{"element_token", text["element_token"]}, {"value", "Part 2, rewritten."}});
    ASSERT_FALSE(set.is_error) << set.text;
    EXPECT_NE(set.text.find("readback match"), std::string::npos) << set.text;
}

} // namespace

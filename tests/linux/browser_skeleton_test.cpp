// The default skeleton of a dense chat-like page (fixtures/web/chat.html, about 4,000 nodes in
// Chromium, 2,700 in Firefox): every landmark named within 60 rows, the 300 "Reactions" groups (and
// in Chromium the "N unread" badges, which Gecko leaves unnamed) folded into one row each, and the
// folded rows' tokens shared with the full read. Both browsers read the page as deep: Firefox's
// scroll pane around the page gives way to it, so its groups come within the default 4 levels.
//
// A documentation page (fixtures/web/docs.html, 66 headings) reads as its outline: the skeleton
// names every chapter with its level, and a drill-down from a chapter's heading reads that
// chapter, whose tokens act.

#include "browser_acts.h"

#include <set>

namespace {

using nd_test::json;

class ChatSkeleton : public nd_test::BrowserActs {
protected:
    // badges: the channel list's "N unread" badges are named (Chromium).
    void check_skeleton(bool badges);
};

void ChatSkeleton::check_skeleton(bool badges)
{
    auto sk = call("get_window_state", {{"window_id", m_window["window_id"]}, {"skeleton", true}});
    ASSERT_FALSE(sk.is_error) << sk.text;
    const auto& rows = sk.s["elements"];
    EXPECT_LE(rows.size(), 60u);
    std::set<std::string> labels;
    for (const auto& row : rows)
        labels.insert(row.value("label", ""));
    // Named landmarks by their names, unnamed ones by their ARIA kind.
    for (const char* landmark : {"banner", "Search messages", "Channels", "main", "Channel tools", "Messages",
             "Composer", "Members", "contentinfo"})
        EXPECT_TRUE(labels.count(landmark)) << landmark << " is missing from\n" << sk.text;

    json reactions, unread;
    for (const auto& row : rows) {
        if (row.value("label", "") == "Reactions")
            reactions = row;
        if (row.value("label", "").find("unread") != std::string::npos)
            unread = row;
    }
    ASSERT_FALSE(reactions.is_null()) << sk.text;
    ASSERT_TRUE(reactions.contains("alike")) << reactions.dump();
    EXPECT_EQ(reactions["alike"]["count"], 300);
    if (badges) {
        ASSERT_FALSE(unread.is_null()) << sk.text;
        ASSERT_TRUE(unread.contains("alike")) << unread.dump();
        EXPECT_EQ(unread["alike"]["count"], 15);
    }

    // The folded run's first and last rows are the same elements in a full read of the structure.
    auto all = read_all(m_window);
    ASSERT_EQ(all["snapshot_id"], sk.s["snapshot_id"]);
    const auto& first = all["elements"][reactions["element_index"].get<std::size_t>()];
    const auto& last = all["elements"][reactions["alike"]["last_index"].get<std::size_t>()];
    EXPECT_EQ(first["name"], "Reactions");
    EXPECT_EQ(last["name"], "Reactions");
    EXPECT_EQ(first["element_token"], reactions["element_token"]);
    // A click through the last folded group's first button works on its token. (The page's script
    // sets aria-pressed just after making each button; Gecko sometimes keeps reading an off-screen
    // one as a plain button, so either role is that button.)
    const auto button = all["elements"][reactions["alike"]["last_index"].get<std::size_t>() + 1];
    ASSERT_TRUE(button["role"] == "toggle_button" || button["role"] == "push_button") << button.dump();
    ASSERT_EQ(button["name"].get<std::string>().rfind("thumbs up", 0), 0u) << button.dump();
    auto r = call("click", {{"element_token", button["element_token"]}});
    ASSERT_FALSE(r.is_error) << r.text;
    std::printf("chat page: %zu of %d elements in the skeleton, %zu bytes of text\n", rows.size(),
        sk.s["total_elements"].get<int>(), sk.text.size());
}

TEST_F(ChatSkeleton, ChromiumNamesEveryLandmarkAndFoldsTheRepeatedContent)
{
    open_chromium("chat.html", 3500, "1200,900");
    if (IsSkipped() || HasFatalFailure())
        return;
    check_skeleton(true);
}

TEST_F(ChatSkeleton, FirefoxNamesEveryLandmarkAndFoldsTheRepeatedContent)
{
    open_firefox("chat.html", 2500, "1200", "900");
    if (IsSkipped() || HasFatalFailure())
        return;
    check_skeleton(false);
}

class DocsOutline : public nd_test::BrowserActs {
protected:
    void check_outline();
};

void DocsOutline::check_outline()
{
    auto sk = call("get_window_state", {{"window_id", m_window["window_id"]}, {"skeleton", true}});
    ASSERT_FALSE(sk.is_error) << sk.text;
    const auto& rows = sk.s["elements"];
    EXPECT_LE(rows.size(), 60u);
    EXPECT_TRUE(sk.s["truncated"].get<bool>()) << "66 headings and the landmarks do not fit in 60 rows";
    std::set<std::string> labels;
    json chapter5;
    int sections = 0;
    int see_also = 0;
    for (const auto& row : rows) {
        const auto label = row.value("label", "");
        labels.insert(label);
        see_also += label == "See also";
        if (row["role"] != "heading")
            continue;
        // Chapters before sections: the skeleton fills its rows level by level.
        const int level = row.value("level", 0);
        if (label.rfind("Chapter ", 0) == 0) {
            EXPECT_EQ(level, 2) << row.dump();
        }
        if (level == 3)
            ++sections;
        if (label == "Chapter 5: Text fields")
            chapter5 = row;
    }
    for (const char* landmark : {"Search the docs", "Contents", "main", "Widget Toolkit Guide"})
        EXPECT_TRUE(labels.count(landmark)) << landmark << " is missing from\n" << sk.text;
    for (int n = 1; n <= 16; ++n) {
        bool found = false;
        for (const auto& label : labels)
            found = found || label.rfind("Chapter " + std::to_string(n) + ":", 0) == 0;
        EXPECT_TRUE(found) << "chapter " << n << " is missing from\n" << sk.text;
    }
    EXPECT_GT(sections, 0) << "the rows left after the chapters go to their sections";
    EXPECT_EQ(see_also, 1) << "a region named by its heading is one row, not two\n" << sk.text;
    ASSERT_FALSE(chapter5.is_null()) << sk.text;
    // Its section: the chapter's paragraphs, its three sections and the button, up to chapter 6.
    EXPECT_GT(chapter5.value("section_count", 0), 8) << chapter5.dump();

    auto part = call("get_window_state", {{"window_id", m_window["window_id"]}, {"root", chapter5["element_token"]}});
    ASSERT_FALSE(part.is_error) << part.text;
    EXPECT_EQ(part.s["root"], chapter5["element_token"]);
    EXPECT_EQ(part.s["snapshot_id"], sk.s["snapshot_id"]);
    std::set<std::string> names;
    json copy;
    for (const auto& row : part.s["elements"]) {
        names.insert(row.value("name", ""));
        if (row["role"] == "push_button" && row.value("name", "") == "Copy example")
            copy = row;
    }
    for (const char* name : {"Chapter 5: Text fields", "Text fields: Overview", "Text fields: Parameters", "Text fields: Example"})
        EXPECT_TRUE(names.count(name)) << name << " is missing from\n" << part.text;
    for (const char* name : {"Chapter 4: Buttons", "Buttons: Example", "Chapter 6: Lists", "Lists: Overview"})
        EXPECT_FALSE(names.count(name)) << name << " is outside chapter 5, yet in\n" << part.text;
    EXPECT_EQ(part.s["elements"].size(), chapter5["section_count"].get<std::size_t>()) << part.text;
    ASSERT_FALSE(copy.is_null()) << part.text;

    // A token of the section acts.
    auto r = call("click", {{"element_token", copy["element_token"]}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_TRUE(eventually([](const json& all) {
        for (const auto& row : all["elements"])
            if (row["role"] == "push_button" && row.value("name", "") == "Copied")
                return true;
        return false;
    })) << "the button did not say Copied";
    std::printf("docs page: %zu skeleton rows (%d sections), %zu bytes of text; chapter 5: %zu rows\n", rows.size(),
        sections, sk.text.size(), part.s["elements"].size());
}

TEST_F(DocsOutline, ChromiumReadsTheChaptersAndEachChaptersSection)
{
    open_chromium("docs.html", 400, "1200,900");
    if (IsSkipped() || HasFatalFailure())
        return;
    check_outline();
}

TEST_F(DocsOutline, FirefoxReadsTheChaptersAndEachChaptersSection)
{
    open_firefox("docs.html", 250, "1200", "900");
    if (IsSkipped() || HasFatalFailure())
        return;
    check_outline();
}

} // namespace

// A page built of plain boxes (fixtures/web/shop.html: no landmark, heading or list; its buttons are
// boxes with click handlers) read as its document alone. Its groups of links are skeleton rows that
// say what they hold, a full read says which boxes answer a click, and a click on one runs it.
class ShopPage : public nd_test::BrowserActs {
protected:
    void check_shop();
};

void ShopPage::check_shop()
{
    (void)read_with("link", "Next");
    auto sk = call("get_window_state", {{"window_id", m_window["window_id"]}, {"skeleton", true}});
    ASSERT_FALSE(sk.is_error) << sk.text;
    for (const char* holds : {"holds \"Women\", \"Men\", \"Kids\", …", "holds \"Wool sweater 0\", ",
             "holds \"1\", \"2\", \"3\", …"})
        EXPECT_NE(sk.text.find(holds), std::string::npos) << holds << " is missing from\n" << sk.text;

    // The box that says "Add to cart" (Chromium: a section with a static text child; Gecko: a
    // section whose value is its text) runs a click as its default action.
    auto full = call("get_window_state", {{"window_id", m_window["window_id"]}, {"max_elements", 5000}, {"max_depth", 200}});
    ASSERT_FALSE(full.is_error) << full.text;
    const auto& rows = full.s["elements"];
    json box;
    for (std::size_t i = 0; i + 1 < rows.size() && box.is_null(); ++i) {
        const auto& row = rows[i];
        const bool says = row.value("value", "") == "Add to cart" || rows[i + 1].value("name", "") == "Add to cart";
        if (says && !row["actions"].empty() && row["actions"][0] == "click")
            box = row;
    }
    ASSERT_FALSE(box.is_null()) << full.text.substr(0, 6000);
    const auto line = "[" + std::to_string(box["element_index"].get<int>()) + "] ";
    const auto at = full.text.find(line);
    ASSERT_NE(at, std::string::npos) << full.text.substr(0, 6000);
    const auto line_end = full.text.find('\n', at);
    EXPECT_NE(full.text.substr(at, line_end - at).find("(clickable)"), std::string::npos)
        << full.text.substr(at, line_end - at);
    EXPECT_EQ(full.text.find("link \"Women\" (clickable)"), std::string::npos) << "a link is a control already";

    click(box, "the Add to cart box");
    EXPECT_TRUE(eventually([](const json& a) { return shows_text(a, "Cart: 1"); })) << "the click did not run";
    std::printf("%s: shop page skeleton %zu rows, %zu bytes\n", m_app_label.c_str(), sk.s["elements"].size(),
        sk.text.size());
}

TEST_F(ShopPage, ChromiumShowsThePagesGroupsAndItsClickableBoxes)
{
    open_chromium("shop.html", 300, "1200,900");
    if (IsSkipped() || HasFatalFailure())
        return;
    check_shop();
}

TEST_F(ShopPage, FirefoxShowsThePagesGroupsAndItsClickableBoxes)
{
    open_firefox("shop.html", 200, "1200", "900");
    if (IsSkipped() || HasFatalFailure())
        return;
    check_shop();
}

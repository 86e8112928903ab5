// The default skeleton of a dense chat-like page (fixtures/web/chat.html, about 4,000 nodes in
// Chromium, 2,700 in Firefox): every landmark named within 60 rows, the 300 "Reactions" groups (and
// in Chromium the "N unread" badges, which Gecko leaves unnamed) folded into one row each, and the
// folded rows' tokens shared with the full read. Both browsers read the page as deep: Firefox's
// scroll pane around the page gives way to it, so its groups come within the default 4 levels.

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

} // namespace

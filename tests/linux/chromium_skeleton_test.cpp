// The default skeleton of a dense chat-like page in Chromium (fixtures/web/chat.html, about 4,000
// nodes): every landmark named within 60 rows, the 300 "Reactions" groups and the "N unread" badges
// folded into one row each, and the folded rows' tokens shared with the full read.

#include "tool_test_support.h"

#include <filesystem>
#include <set>

namespace {

using nd_test::json;
using nd_test::OwnedApp;

class ChromiumSkeleton : public nd_test::LinuxToolTest {
protected:
    void SetUp() override
    {
        nd_test::LinuxToolTest::SetUp();
        if (IsSkipped() || HasFatalFailure())
            return;
        std::string dir = (std::filesystem::temp_directory_path() / "nish-chromium-XXXXXX").string();
        ASSERT_NE(::mkdtemp(dir.data()), nullptr) << std::strerror(errno);
        m_profile = dir;
        const auto page = std::filesystem::absolute(std::string(NISH_SOURCE_DIR) + "/fixtures/web/chat.html");
        m_app = std::make_unique<OwnedApp>(std::vector<std::string>{"chromium", "--force-renderer-accessibility",
            "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--user-data-dir=" + m_profile, "--window-size=1200,900",
            "file://" + page.string()});
        m_window = wait_for_window(*m_app, "chromium", 3500, std::chrono::seconds(30));
        ASSERT_FALSE(m_window.is_null());
    }

    void TearDown() override
    {
        if (m_app)
            m_app->stop();
        if (!m_profile.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(m_profile, ec);
        }
    }

    std::string m_profile;
    std::unique_ptr<OwnedApp> m_app;
    json m_window;
};

TEST_F(ChromiumSkeleton, NamesEveryLandmarkAndFoldsTheRepeatedContent)
{
    auto sk = call("get_window_state", {{"window_id", m_window["window_id"]}, {"skeleton", true}});
    ASSERT_FALSE(sk.is_error) << sk.text;
    const auto& rows = sk.s["elements"];
    EXPECT_LE(rows.size(), 60u);
    std::set<std::string> labels;
    for (const auto& row : rows)
        labels.insert(row.value("label", ""));
    for (const char* landmark : {"Search messages", "Channels", "Channel tools", "Messages", "Composer", "Members"})
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
    ASSERT_FALSE(unread.is_null()) << sk.text;
    ASSERT_TRUE(unread.contains("alike")) << unread.dump();
    EXPECT_EQ(unread["alike"]["count"], 15);

    // The folded run's first and last rows are the same elements in a full read of the structure.
    auto all = read_all(m_window);
    ASSERT_EQ(all["snapshot_id"], sk.s["snapshot_id"]);
    const auto& first = all["elements"][reactions["element_index"].get<std::size_t>()];
    const auto& last = all["elements"][reactions["alike"]["last_index"].get<std::size_t>()];
    EXPECT_EQ(first["name"], "Reactions");
    EXPECT_EQ(last["name"], "Reactions");
    EXPECT_EQ(first["element_token"], reactions["element_token"]);
    // A click through the last folded group's first toggle button works on its token.
    const auto button = all["elements"][reactions["alike"]["last_index"].get<std::size_t>() + 1];
    ASSERT_EQ(button["role"], "toggle_button") << button.dump();
    auto r = call("click", {{"element_token", button["element_token"]}});
    ASSERT_FALSE(r.is_error) << r.text;
    std::printf("chat page: %zu of %d elements in the skeleton, %zu bytes of text\n", rows.size(),
        sk.s["total_elements"].get<int>(), sk.text.size());
}

} // namespace

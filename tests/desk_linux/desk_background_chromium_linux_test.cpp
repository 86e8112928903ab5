// Background input on a Chromium page, on the virtual desktop: with zenity's window active in
// front of it, background type into the page's Email input is refused (Chromium's web fields offer
// no EditableText) and auto types it in the foreground instead, a background click at the Newsletter check box (pixels of Chromium's window)
// runs its own action and reads the check back, desk_windows says Chromium takes no sent keys and
// background key is refused naming it; the person's active window, stacking and pointer are
// unchanged throughout.

#include "desk_linux/background_fixture.h"
#include "linux/browser_acts.h"

#include "desk/desk_geometry.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace {

using namespace std::chrono_literals;

class DeskBackgroundChromium : public nd_test::DeskBackgroundFixture {
protected:
    void TearDown() override
    {
        m_apps.clear();
        std::error_code ec;
        if (!m_profile.empty())
            std::filesystem::remove_all(m_profile, ec);
    }

    // The first showing row named `name` whose role is one of `roles`, in a fresh read; -1 when none.
    std::int32_t named(const nd_core::Snapshot& s, std::string_view name, std::initializer_list<std::string_view> roles)
    {
        for (std::int32_t i = 0; i < s.size(); ++i) {
            const auto& e = s.elements[static_cast<std::size_t>(i)];
            if (e.name == name && e.is(nd_core::STATE_SHOWING) && std::find(roles.begin(), roles.end(), e.role) != roles.end())
                return i;
        }
        return -1;
    }

    std::string m_profile;
};

TEST_F(DeskBackgroundChromium, TypeAndClickReachAPageBehindTheActiveWindowAndReadBack)
{
    with_mode(Mode::background);
    m_profile = (std::filesystem::temp_directory_path() / "nish-bg-chromium-XXXXXX").string();
    ASSERT_NE(::mkdtemp(m_profile.data()), nullptr);
    const auto page = std::filesystem::absolute(std::string(NISH_SOURCE_DIR) + "/fixtures/web/settings-form.html");
    auto browser = start(nd_test::chromium_argv(m_profile, "file://" + page.string(), "1000,800"), 30);
    nd_core::SnapshotPtr snap;
    std::int32_t email = -1, news = -1;
    ASSERT_TRUE(nd_test::wait_until([&] {
        snap = read(browser);
        email = snap ? named(*snap, "Email", {"entry", "text"}) : -1;
        news = snap ? named(*snap, "Newsletter", {"check_box"}) : -1;
        return email >= 0 && news >= 0;
    }, 20s)) << "the page's Email input and Newsletter check box never read";
    const auto email_key = snap->elements[static_cast<std::size_t>(email)].key;
    const auto news_key = snap->elements[static_cast<std::size_t>(news)].key;
    const auto box = fresh(browser, news_key);
    ASSERT_TRUE(box.has_frame);
    ASSERT_FALSE(box.is(nd_core::STATE_CHECKED));

    in_front();
    const auto before = person_view();

    // Chromium's web text fields offer no EditableText: background type is refused, nothing written.
    auto typed = call("type", {{"text", "ada@example.org"}, {"id", id(*snap, email)}});
    EXPECT_NE(typed.error.find("background_refused"), std::string::npos) << typed.error;
    EXPECT_NE(typed.error.find("EditableText"), std::string::npos) << typed.error;
    EXPECT_EQ(value_of(browser, fresh(browser, email_key)), "");

    const auto c = nd_desk::centre_of(box.frame);
    auto clicked = call("click", {{"x", c.x - browser.frame.x}, {"y", c.y - browser.frame.y}, {"pid", browser.pid}});
    ASSERT_TRUE(clicked.ok) << clicked.error;
    EXPECT_EQ(clicked.result["input"], "background");
    EXPECT_TRUE(wait_for(browser, news_key, [](const nd_core::Element& e) { return e.is(nd_core::STATE_CHECKED); }))
        << clicked.result.dump();

    // Chromium drops key events sent to its window: listed so, and refused naming it.
    auto listed = call("windows", nlohmann::json::object());
    ASSERT_TRUE(listed.ok) << listed.error;
    for (const auto& w : listed.result["windows"])
        if (w["pid"] == browser.pid) {
            EXPECT_EQ(w["background"], nlohmann::json({"actions", "value"})) << w.dump();
        }
    auto keyed = call("key", {{"keys", "Tab"}, {"pid", browser.pid}});
    EXPECT_NE(keyed.error.find("background_refused"), std::string::npos) << keyed.error;
    EXPECT_NE(keyed.error.find("Chromium"), std::string::npos) << keyed.error;

    EXPECT_EQ(person_view(), before) << "the active window, the stacking and the pointer are the person's";

    // Auto types it in the foreground instead: the window raised, the field focused, the text there.
    with_mode(Mode::automatic);
    snap = read(browser);
    const auto row = find_key(*snap, email_key);
    ASSERT_GE(row, 0);
    auto sent = call("type", {{"text", "ada@example.org"}, {"id", id(*snap, row)}});
    ASSERT_TRUE(sent.ok) << sent.error;
    EXPECT_EQ(sent.result["input"], "foreground");
    EXPECT_TRUE(nd_test::wait_until([&] { return value_of(browser, fresh(browser, email_key)) == "ada@example.org"; }, 3s));
}

} // namespace

// Gecko builds a page's tree before it lays the page out: for a moment its document shows with no
// place on screen and the page's objects read not showing, and when the layout comes they change
// with no event. A driver started beside a Firefox that no assistive client had asked yet (the
// browser a person was using) read the chat page in that moment, kept the read, and answered it
// warm for 30 s: 31 rows showing where a cold read had 231, the page's buttons with no frame. Such a
// read is not kept now (WarmTrees::remember, document_not_laid_out), and the next read is cold.
//
// The shipped driver reads here as a model's client would, and this process registers no AT-SPI
// listener of its own: the browser's first assistive client is the driver.

#include "app_process.h"
#include "backend/linux/atspi/atspi_warm.h"
#include "linux/browser_acts.h"
#include "linux/mcp_driver.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace {

using namespace std::chrono_literals;
using nlohmann::json;

// One tools/call; its structured result, or a test failure and null.
json call(nd_test::McpDriver& driver, int& id, const std::string& tool, const json& args = json::object())
{
    driver.start_tool(++id, tool, args);
    const auto reply = driver.reply(id, 60s);
    EXPECT_TRUE(reply.contains("result")) << tool << ": " << reply.dump().substr(0, 400);
    if (!reply.contains("result"))
        return nullptr;
    const auto& result = reply["result"];
    EXPECT_FALSE(result.value("isError", false)) << tool << ": " << result.dump().substr(0, 400);
    return result.value("structuredContent", json());
}

struct Driver {
    explicit Driver(std::vector<std::string> env) : mcp({"mcp", "--backend", "linux", "--consent", "auto"}, std::move(env)) {}
    nd_test::McpDriver mcp;
    int id = 1;
};

std::size_t showing(const json& read)
{
    std::size_t n = 0;
    for (const auto& row : read["elements"])
        for (const auto& state : row["states"])
            n += state == "showing";
    return n;
}

// A document that shows with no place on screen: the page was read before its layout.
bool unlaid(const json& read)
{
    for (const auto& row : read["elements"])
        if ((row["role"] == "document_web" || row["role"] == "document_frame") && row["frame"].is_null())
            for (const auto& state : row["states"])
                if (state == "showing")
                    return true;
    return false;
}

// The rule itself: a web document that shows with no place on screen; not one with a place, one
// that does not show (a background tab), nor another role without a place.
TEST(GeckoLayout, ADocumentThatShowsWithNoPlaceIsNotLaidOut)
{
    auto row = [](std::string role, std::uint32_t states, bool framed) {
        nd_core::Element e;
        e.role = std::move(role);
        e.states = states;
        e.has_frame = framed;
        return e;
    };
    const auto shows = nd_core::STATE_SHOWING;
    EXPECT_TRUE(nd_linux::document_not_laid_out({row("frame", shows, true), row("document_web", shows, false)}));
    EXPECT_TRUE(nd_linux::document_not_laid_out({row("document_frame", shows, false)}));
    EXPECT_FALSE(nd_linux::document_not_laid_out({row("frame", shows, true), row("document_web", shows, true)}));
    EXPECT_FALSE(nd_linux::document_not_laid_out({row("document_web", 0, false)}));
    EXPECT_FALSE(nd_linux::document_not_laid_out({row("panel", shows, false), row("push_button", shows, false)}));
}

TEST(GeckoLayout, ADriverBesideAnUnaskedFirefoxAnswersThePageLaidOutOnceItIs)
{
    NISH_REQUIRE_DESKTOP();
    if (std::system("command -v firefox-esr >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "firefox-esr is not installed";
    std::string profile = (std::filesystem::temp_directory_path() / "nish-gecko-XXXXXX").string();
    ASSERT_NE(::mkdtemp(profile.data()), nullptr);
    nd_test::write_firefox_prefs(profile);
    const auto page = std::filesystem::absolute(std::string(NISH_SOURCE_DIR) + "/fixtures/web/chat.html");
    {
        nd_test::OwnedApp firefox(nd_test::firefox_argv(profile, "file://" + page.string(), "1200", "900"),
                                  nd_test::firefox_env());
        ASSERT_GT(firefox.pid(), 0) << firefox.error();
        // The browser loads its page with no assistive client asking.
        std::this_thread::sleep_for(6s);

        // The page's X window, found without AT-SPI; then the session and the first read sent at
        // once: the page reads laid out a few seconds after the browser's first client began its
        // session, and the driver's first read is to come before that (a release build's did in
        // every try by hand; an ASan build's comes late, and this test then checks the end alone).
        const auto window_id = nd_test::x_window_titled(firefox.pid(), "Chat fixture", 30s);
        ASSERT_NE(window_id, 0) << "Firefox showed no window of the page";
        const json whole = {{"window_id", window_id}, {"max_elements", 5000}, {"max_depth", 200}};
        Driver warm({"NISH_AUDIT_LOG="});
        ASSERT_TRUE(warm.mcp.initialize());
        warm.mcp.start_tool(++warm.id, "start_session", {{"apps", {"firefox-esr"}}}); // its answer is skipped
        const auto first = call(warm.mcp, warm.id, "get_window_state", whole);
        ASSERT_TRUE(first.contains("elements"));
        std::printf("the driver's first read: %zu rows, %zu showing, %s the page's layout\n", first["elements"].size(),
                    showing(first), unlaid(first) ? "before" : "after");

        // Laid out by now: the driver's reads (warm from the second on) equal a fresh driver's cold one.
        std::this_thread::sleep_for(3s);
        json last;
        for (int i = 0; i < 3; ++i)
            last = call(warm.mcp, warm.id, "get_window_state", whole);
        ASSERT_TRUE(last.contains("elements"));
        Driver cold({"NISH_AUDIT_LOG=", "NISH_WARM_READS=0"});
        ASSERT_TRUE(cold.mcp.initialize());
        ASSERT_FALSE(call(cold.mcp, cold.id, "start_session", {{"apps", {"firefox-esr"}}}).is_null());
        const auto fresh = call(cold.mcp, cold.id, "get_window_state", whole);
        ASSERT_TRUE(fresh.contains("elements"));
        EXPECT_FALSE(unlaid(fresh)) << "Firefox had not laid the page out 3 s later";
        EXPECT_EQ(showing(last), showing(fresh));
        ASSERT_EQ(last["elements"].size(), fresh["elements"].size());
        std::size_t differ = 0;
        for (std::size_t i = 0; i < fresh["elements"].size(); ++i) {
            const auto& a = last["elements"][i];
            const auto& b = fresh["elements"][i];
            for (const char* field : {"role", "name", "states", "frame", "actions"})
                if (a[field] != b[field] && differ++ < 5)
                    ADD_FAILURE() << "row " << i << " " << field << ": the driver's read has " << a[field].dump()
                                  << ", a cold read " << b[field].dump();
        }
        EXPECT_EQ(differ, 0u);
    }
    std::error_code ec;
    std::filesystem::remove_all(profile, ec);
}

} // namespace

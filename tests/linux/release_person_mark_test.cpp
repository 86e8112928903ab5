// The test mark never reaches a shipped program (src/backend/linux/person_mark/person_mark.h).
// Statically: the release binaries hold no trace of NISH_TEST_PERSON_DEVICE while a test executable
// does (so the check can fail). In use: the real `nish-driver mcp --backend linux`, run with the mark
// set, shows its consent dialog; the marked device's click on Allow does nothing there, and its Deny
// denies (a no may come from anywhere).

#include "app_process.h"
#include "linux/mcp_driver.h"
#include "linux/consent_probe.h"
#include "linux/person_input.h"

#include "backend/linux/x11/x11_consent_dialog.h"
#include "core/engine/session.h"
#include "core/backend/consent.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <functional>
#include <vector>
#include <thread>


namespace {

using namespace std::chrono_literals;
using nlohmann::json;

bool file_contains(const std::string& path, std::string_view needle)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    std::vector<char> bytes(static_cast<std::size_t>(std::max<std::streamoff>(0, in.tellg())));
    in.seekg(0);
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    EXPECT_FALSE(bytes.empty() || !in) << path;
    // A skip search: the binaries run to tens of megabytes with debug information.
    const std::boyer_moore_horspool_searcher searcher(needle.begin(), needle.end());
    return std::search(bytes.begin(), bytes.end(), searcher) != bytes.end();
}

std::string self_path()
{
    char buf[4096];
    const auto n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

TEST(ReleasePersonMark, ShippedBinariesCarryNoTestMark)
{
    constexpr std::string_view MARK = "NISH_TEST_PERSON_DEVICE";
    for (const char* program : {"nish-driver", "shuttle"})
        EXPECT_FALSE(file_contains(std::string(NISH_BIN_DIR) + "/" + program, MARK)) << program << " can read the test mark";
    EXPECT_TRUE(file_contains(self_path(), MARK)) << "a test executable carries the mark, so the check above can fail";
}

TEST(ReleasePersonMark, TheShippedDriverIgnoresTheMarkedDevice)
{
    NISH_REQUIRE_DESKTOP();
    auto display = nd_linux::X11Display::open();
    ASSERT_TRUE(display) << display.error().text();
    nd_test::PersonPointer person(**display); // sets the mark in this process's environment
    ASSERT_TRUE(person.ready());
    nd_test::McpDriver driver({"mcp", "--backend", "linux"}); // the mark, set above, is passed on
    ASSERT_TRUE(driver.initialize());
    const nd_core::ConsentRequest asked{{"gtk3-widget-factory"}, false, false, nd_core::DEFAULT_LEASE_S};
    driver.start_tool(2, "start_session", {{"apps", asked.apps}});
    const auto shown = nd_test::wait_for_consent_dialog(**display);
    ASSERT_TRUE(shown) << "the consent dialog did not show";
    std::this_thread::sleep_for(1600ms); // the driver's watch of synthetic input has its history
    const auto layout = nd_linux::X11ConsentDialog::layout(asked);
    const auto allow = nd_test::control_centre(*shown, layout.allow), deny = nd_test::control_centre(*shown, layout.deny);
    person.click(allow.x, allow.y);
    EXPECT_TRUE(driver.quiet(1500ms)) << "the shipped driver took the marked device's click on Allow";
    person.click(deny.x, deny.y);
    auto denied = driver.reply(2, 10s);
    ASSERT_TRUE(denied.contains("result")) << denied.dump();
    EXPECT_EQ(denied["result"]["isError"], true) << denied.dump();
    EXPECT_NE(denied.dump().find("consent_denied"), std::string::npos) << denied.dump();
}

} // namespace

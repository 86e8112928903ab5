// The person's own hand for real, without the test mark: the shipped nish-driver on a nested X
// server (Xephyr, inside the test desktop). A click on Xephyr's window on the outer desktop reaches
// the inner server from "Xephyr virtual mouse", an input device of that server that is no XTEST
// device and whose events no client sent through XTEST, as a physical mouse's are on a real X
// server. On the inner display another program's click (xdotool, XTEST) on Allow is not taken; the
// person's click through Xephyr's window then allows, and start_session is granted.

#include "app_process.h"
#include "linux/consent_probe.h"
#include "linux/mcp_driver.h"
#include "linux/x11_test_support.h"

#include "core/engine/session.h"

#include <gtest/gtest.h>

#include <thread>

namespace {

using namespace std::chrono_literals;

bool have_xephyr() { return nd_test::run_command({"sh", "-c", "command -v Xephyr"}) == 0; }

TEST(XephyrPerson, TheShippedDriverTakesTheClickOfARealDeviceOnly)
{
    NISH_REQUIRE_DESKTOP();
    if (!have_xephyr())
        GTEST_SKIP() << "Xephyr is not installed (scripts/setup installs xserver-xephyr)";
    auto inner = nd_test::OwnXvfb::start_server([](const std::string& name) {
        return std::vector<std::string>{"Xephyr", name, "-screen", "1024x768", "-ac", "-br", "-noreset", "-nolisten", "tcp"};
    });
    ASSERT_TRUE(inner.display) << "Xephyr did not start";
    const std::string inner_name = inner.display->name();
    // Xephyr's window on the outer desktop, where the person's mouse is.
    std::string xephyr_window;
    ASSERT_TRUE(nd_test::wait_until([&] {
        xephyr_window = nd_test::command_output("xdotool search --name 'Xephyr on " + inner_name + "\\.' 2>/dev/null | head -n1");
        while (!xephyr_window.empty() && (xephyr_window.back() == '\n' || xephyr_window.back() == ' '))
            xephyr_window.pop_back();
        return !xephyr_window.empty();
    }, 10s)) << "Xephyr's window is not on the outer display";

    nd_test::McpDriver driver({"mcp", "--backend", "linux"}, {"DISPLAY=" + inner_name});
    ASSERT_TRUE(driver.initialize());
    const nd_core::ConsentRequest asked{{"gtk3-widget-factory"}, false, false, nd_core::DEFAULT_LEASE_S};
    driver.start_tool(2, "start_session", {{"apps", asked.apps}});
    const auto shown = nd_test::wait_for_consent_dialog(*inner.display);
    ASSERT_TRUE(shown) << "the consent dialog did not show on " << inner_name;
    std::this_thread::sleep_for(1600ms); // the driver's watch of synthetic input has its history
    const auto allow = nd_test::control_centre(*shown, nd_linux::X11ConsentDialog::layout(asked).allow);

    // Another program on the inner display: XTEST, not taken.
    ASSERT_EQ(nd_test::run_command({"env", "DISPLAY=" + inner_name, "xdotool", "mousemove", std::to_string(allow.x),
                                    std::to_string(allow.y), "click", "1"}), 0);
    EXPECT_TRUE(driver.quiet(1500ms)) << "another program's click on Allow was taken";

    // The person, 1.5 s after that press: through Xephyr's window, a device of the inner server.
    std::this_thread::sleep_for(1600ms);
    ASSERT_EQ(nd_test::run_command({"xdotool", "mousemove", "--window", xephyr_window, std::to_string(allow.x),
                                    std::to_string(allow.y), "click", "1"}), 0);
    auto granted = driver.reply(2, 10s);
    ASSERT_TRUE(granted.contains("result")) << granted.dump();
    EXPECT_NE(granted["result"].value("isError", false), true) << granted.dump();
}

} // namespace

// What the Linux backend keeps from the apps the desk starts (Backend::launch_env_hidden): an
// AT_SPI_BUS_ADDRESS that the session bus announces too, and NO_AT_BRIDGE. A Qt 6 app that
// inherits the address never joins the AT-SPI bus (its bridge reads it before anything listens for
// "enabled"); without it, Qt 6 finds the bus on the session bus as GTK, Qt 5, Chromium, Firefox and
// LibreOffice do. A variable naming another bus is kept: it is then the only way to that bus.
// And what it gives them (Backend::launch_env_set): every toolkit's accessibility on.

#include "app_process.h"
#include "backend/linux/launch/launch_env.h"
#include "backend/linux/linux_backend.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

TEST(LaunchEnvLinux, TheAnnouncedBusAddressIsNotPassedOn)
{
    NISH_REQUIRE_DESKTOP();
    auto backend = nd_linux::LinuxBackend::open();
    ASSERT_TRUE(backend) << backend.error().text();
    const std::string address = std::getenv("AT_SPI_BUS_ADDRESS");
    // The test desktop exports the address its session bus announces.
    EXPECT_EQ((*backend)->launch_env_hidden(), (std::vector<std::string>{"NO_AT_BRIDGE", "AT_SPI_BUS_ADDRESS"}));

    ::setenv("AT_SPI_BUS_ADDRESS", "unix:path=/nonexistent/at-spi-bus", 1);
    const auto other = (*backend)->launch_env_hidden();
    ::setenv("AT_SPI_BUS_ADDRESS", address.c_str(), 1);
    EXPECT_EQ(other, std::vector<std::string>{"NO_AT_BRIDGE"}) << "a variable naming another bus must be passed on";

    ::unsetenv("AT_SPI_BUS_ADDRESS");
    const auto none = (*backend)->launch_env_hidden();
    ::setenv("AT_SPI_BUS_ADDRESS", address.c_str(), 1);
    EXPECT_EQ(none, std::vector<std::string>{"NO_AT_BRIDGE"});
}

TEST(LaunchEnvLinux, EveryToolkitsAccessibilityIsTurnedOn)
{
    const std::vector<std::string> rest{"GNOME_ACCESSIBILITY=1", "QT_ACCESSIBILITY=1", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1",
        "ACCESSIBILITY_ENABLED=1"};
    auto with = [&](std::string modules) {
        std::vector<std::string> env{"GTK_MODULES=" + modules};
        env.insert(env.end(), rest.begin(), rest.end());
        return env;
    };
    EXPECT_EQ(nd_linux::accessibility_launch_env(""), with("gail:atk-bridge"));
    // The person's own modules stay first; one already there is not added twice; ',' separates too.
    EXPECT_EQ(nd_linux::accessibility_launch_env("canberra-gtk-module"), with("canberra-gtk-module:gail:atk-bridge"));
    EXPECT_EQ(nd_linux::accessibility_launch_env("atk-bridge"), with("atk-bridge:gail"));
    EXPECT_EQ(nd_linux::accessibility_launch_env("gail,atk-bridge"), with("gail:atk-bridge"));
    EXPECT_EQ(nd_linux::accessibility_launch_env("::gail::"), with("gail:atk-bridge"));
}

} // namespace

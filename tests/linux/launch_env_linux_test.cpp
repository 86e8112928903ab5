// What the Linux backend keeps from the apps the desk starts (Backend::launch_env_hidden): an
// AT_SPI_BUS_ADDRESS that the session bus announces too. A Qt 6 app that inherits the variable
// never joins the AT-SPI bus (its bridge reads it before anything listens for "enabled"); without
// it, Qt 6 finds the bus on the session bus as GTK, Qt 5, Chromium, Firefox and LibreOffice do.
// A variable naming another bus is kept: it is then the only way to that bus.

#include "app_process.h"
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
    EXPECT_EQ((*backend)->launch_env_hidden(), std::vector<std::string>{"AT_SPI_BUS_ADDRESS"});

    ::setenv("AT_SPI_BUS_ADDRESS", "unix:path=/nonexistent/at-spi-bus", 1);
    const auto other = (*backend)->launch_env_hidden();
    ::setenv("AT_SPI_BUS_ADDRESS", address.c_str(), 1);
    EXPECT_TRUE(other.empty()) << "a variable naming another bus must be passed on";

    ::unsetenv("AT_SPI_BUS_ADDRESS");
    const auto none = (*backend)->launch_env_hidden();
    ::setenv("AT_SPI_BUS_ADDRESS", address.c_str(), 1);
    EXPECT_TRUE(none.empty());
}

} // namespace

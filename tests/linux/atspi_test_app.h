#pragma once

// Helpers for the AT-SPI tests on the virtual desktop (scripts/test-desktop): start an app that
// the test owns, wait until its window reads, and stop exactly what was started.
//
// Apps are started with posix_spawn in their own process group and a session bus address that
// leads nowhere: GApplication then runs non-unique, so two tests running at once each get their
// own gtk3-widget-factory instead of one forwarding to the other. The AT-SPI bus still comes
// from AT_SPI_BUS_ADDRESS.

#include "app_process.h"
#include "backend/linux/atspi/atspi_bus.h"
#include "backend/linux/atspi/atspi_tree_reader.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace nd_test {

class TestApp {
public:
    // Starts argv[0] (looked up in PATH); nullptr and `error` set when it cannot start.
    static std::unique_ptr<TestApp> spawn(const std::vector<std::string>& argv, std::string& error)
    {
        std::vector<std::string> env_strings;
        for (char** e = environ; *e; ++e)
            if (std::strncmp(*e, "DBUS_SESSION_BUS_ADDRESS=", 25) != 0)
                env_strings.emplace_back(*e);
        env_strings.emplace_back("DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/nish-test-no-session-bus");
        pid_t pid = spawn_in_own_group(argv, &env_strings, true, &error);
        if (pid < 0)
            return nullptr;
        return std::unique_ptr<TestApp>(new TestApp(pid));
    }

    ~TestApp() { stop(); }
    TestApp(const TestApp&) = delete;
    TestApp& operator=(const TestApp&) = delete;

    pid_t pid() const { return m_pid; }
    // Signals the app's own process group (it was started as its leader).
    void signal(int sig) const
    {
        if (m_pid > 0)
            ::kill(-m_pid, sig);
    }

    // Stops the app: continue it (it may be stopped), SIGTERM, then SIGKILL after 2 s; reaps it.
    void stop()
    {
        if (m_pid <= 0)
            return;
        signal(SIGCONT);
        signal(SIGTERM);
        for (int i = 0; i < 200; ++i) {
            if (::waitpid(m_pid, nullptr, WNOHANG) == m_pid) {
                m_pid = -1;
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        signal(SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
        m_pid = -1;
    }

    // Kills it now and reaps it (for tests of an app that goes away).
    void kill_now()
    {
        if (m_pid <= 0)
            return;
        signal(SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
        m_pid = -1;
    }

private:
    explicit TestApp(pid_t pid) : m_pid(pid) {}
    pid_t m_pid = -1;
};

// The window of a test app as the X side would name it: its pid and title; no frame, so the
// locator takes the app's one showing top-level.
inline nd_core::WindowInfo window_of(pid_t pid, std::string title)
{
    nd_core::WindowInfo w;
    w.pid = pid;
    w.title = std::move(title);
    return w;
}

// Reads until the window has at least `min_elements` elements, for up to `timeout`.
inline nd_core::Result<nd_core::RawTree> wait_for_window(nd_linux::AtspiTreeReader& reader,
                                                          const nd_core::WindowInfo& window,
                                                          std::size_t min_elements,
                                                          std::chrono::milliseconds timeout = std::chrono::seconds(20))
{
    auto until = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        auto tree = reader.read_window(window, nd_core::ReadLimits{});
        if (tree && tree->elements.size() >= min_elements)
            return tree;
        if (std::chrono::steady_clock::now() > until) {
            if (!tree)
                return tree;
            return nd_core::make_error(nd_core::ErrorCode::timed_out,
                                       "the window has only " + std::to_string(tree->elements.size()) + " elements");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

// Shared set-up of the gtk3-widget-factory tests: the bus, a reader, the app and its first read.
class WidgetFactoryTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_DESKTOP();
        auto bus = nd_linux::AtspiBus::open();
        ASSERT_TRUE(bus) << bus.error().text();
        m_bus = std::move(bus).value();
        m_reader = std::make_unique<nd_linux::AtspiTreeReader>(*m_bus);
        std::string error;
        m_app = TestApp::spawn({"gtk3-widget-factory"}, error);
        ASSERT_NE(m_app, nullptr) << error;
        m_window = window_of(m_app->pid(), "gtk3-widget-factory");
        auto tree = wait_for_window(*m_reader, m_window, 200);
        ASSERT_TRUE(tree) << tree.error().text();
        m_tree = std::move(tree).value();
    }

    // The first element of `tree` with this role and name (any name when empty); -1 if none.
    static int find(const nd_core::RawTree& tree, std::string_view role, std::string_view name = {},
                    std::uint32_t with_states = 0)
    {
        for (std::size_t i = 0; i < tree.elements.size(); ++i) {
            const auto& e = tree.elements[i];
            if (e.role == role && (name.empty() || e.name == name) && (e.states & with_states) == with_states)
                return static_cast<int>(i);
        }
        return -1;
    }
    static int find_key(const nd_core::RawTree& tree, const std::string& key)
    {
        for (std::size_t i = 0; i < tree.elements.size(); ++i)
            if (tree.elements[i].key == key)
                return static_cast<int>(i);
        return -1;
    }
    nd_core::RawTree reread()
    {
        auto tree = m_reader->read_window(m_window, nd_core::ReadLimits{});
        EXPECT_TRUE(tree) << tree.error().text();
        return tree ? std::move(tree).value() : nd_core::RawTree{};
    }

    std::unique_ptr<nd_linux::AtspiBus> m_bus;
    std::unique_ptr<nd_linux::AtspiTreeReader> m_reader;
    std::unique_ptr<TestApp> m_app;
    nd_core::WindowInfo m_window;
    nd_core::RawTree m_tree;
};

} // namespace nd_test

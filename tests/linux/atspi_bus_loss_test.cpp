// The AT-SPI bus itself going away: a read in flight fails with backend_unavailable within its
// deadline, the next reads fail the same way without hanging, and once the session bus names a new
// AT-SPI bus (its launcher is activated again) the reader connects to it and reads apps there.
//
// The test runs its own session bus and AT-SPI bus (activated through that session bus, as on a
// desktop; without a display, so it is not advertised on the root window), so killing them leaves
// the test desktop's own bus to the other tests.

#include "atspi_test_app.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

using namespace nd_test;
using nd_core::ErrorCode;

std::string slurp_cmdline(const std::string& pid)
{
    std::ifstream in("/proc/" + pid + "/cmdline", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string s = ss.str();
    for (char& c : s)
        if (c == '\0')
            c = ' ';
    return s;
}

// Pids of processes whose command line contains both fragments.
std::vector<pid_t> pids_matching(const std::string& a, const std::string& b)
{
    std::vector<pid_t> out;
    DIR* proc = ::opendir("/proc");
    if (!proc)
        return out;
    while (dirent* d = ::readdir(proc)) {
        std::string name = d->d_name;
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::string cmd = slurp_cmdline(name);
        if (cmd.find(a) != std::string::npos && cmd.find(b) != std::string::npos)
            out.push_back(static_cast<pid_t>(std::stol(name)));
    }
    ::closedir(proc);
    return out;
}

class AtspiBusLossTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_DESKTOP();
        char tmpl[] = "/tmp/nish-bus-loss-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        m_dir = tmpl;
        m_runtime = m_dir + "/rt";
        ASSERT_EQ(::mkdir(m_runtime.c_str(), 0700), 0);
        m_session = "unix:path=" + m_dir + "/session";

        m_env = private_env();
        // The session bus, and the AT-SPI launcher it activates, get no DISPLAY: a launcher that
        // reaches a display advertises its bus on the root window (AT_SPI_BUS), where every app of
        // the test desktop would find this test's short-lived bus.
        std::vector<std::string> daemon_env;
        for (const auto& kv : m_env)
            if (kv.rfind("DISPLAY=", 0) != 0)
                daemon_env.push_back(kv);
        m_daemon = spawn_in_own_group({"dbus-daemon", "--session", "--nofork", "--address=" + m_session},
                                      &daemon_env, true, &m_error);
        ASSERT_GT(m_daemon, 0) << m_error;
        ASSERT_TRUE(wait_until([&] { return ::access((m_dir + "/session").c_str(), F_OK) == 0; },
                               std::chrono::seconds(5)));
        // This process finds the AT-SPI bus as a desktop client does: through the session bus.
        m_saved_session = std::getenv("DBUS_SESSION_BUS_ADDRESS") ? std::getenv("DBUS_SESSION_BUS_ADDRESS") : "";
        m_saved_atspi = std::getenv("AT_SPI_BUS_ADDRESS");
        ::setenv("DBUS_SESSION_BUS_ADDRESS", m_session.c_str(), 1);
        ::unsetenv("AT_SPI_BUS_ADDRESS");
        auto bus = nd_linux::AtspiBus::open();
        ASSERT_TRUE(bus) << bus.error().text();
        m_bus = std::move(bus).value();
        m_reader = std::make_unique<nd_linux::AtspiTreeReader>(*m_bus);
    }

    void TearDown() override
    {
        m_apps.clear();
        m_reader.reset();
        m_bus.reset();
        if (m_daemon > 0) {
            ::kill(-m_daemon, SIGKILL);
            ::waitpid(m_daemon, nullptr, 0);
        }
        // What the session bus activated (launchers, AT-SPI buses, registries) names our folder.
        if (!m_dir.empty()) {
            for (pid_t pid : pids_matching(m_dir, ""))
                ::kill(pid, SIGKILL);
            std::string rm = "rm -rf '" + m_dir + "'";
            (void)std::system(rm.c_str());
        }
        if (!m_saved_session.empty())
            ::setenv("DBUS_SESSION_BUS_ADDRESS", m_saved_session.c_str(), 1);
        if (m_saved_atspi)
            ::setenv("AT_SPI_BUS_ADDRESS", m_saved_atspi->c_str(), 1);
    }

    // This process's environment with the private session bus and runtime folder, and no
    // AT_SPI_BUS_ADDRESS: apps ask the session bus where the AT-SPI bus is.
    std::vector<std::string> private_env() const
    {
        std::vector<std::string> env;
        for (char** e = environ; *e; ++e) {
            std::string kv = *e;
            if (kv.rfind("DBUS_SESSION_BUS_ADDRESS=", 0) == 0 || kv.rfind("AT_SPI_BUS_ADDRESS=", 0) == 0 ||
                kv.rfind("XDG_RUNTIME_DIR=", 0) == 0)
                continue;
            env.push_back(kv);
        }
        env.push_back("DBUS_SESSION_BUS_ADDRESS=" + m_session);
        env.push_back("XDG_RUNTIME_DIR=" + m_runtime);
        return env;
    }

    // Apps on a display look for the AT-SPI bus on the root window before the session bus, so each
    // is told the address the private session bus gives now.
    pid_t start_factory()
    {
        auto address = nd_linux::address_from_session_bus(std::chrono::seconds(5));
        if (!address) {
            m_error = address.error().text();
            return -1;
        }
        auto env = m_env;
        env.push_back("AT_SPI_BUS_ADDRESS=" + *address);
        pid_t pid = spawn_in_own_group({"gtk3-widget-factory"}, &env, true, &m_error);
        if (pid > 0)
            m_apps.push_back(std::make_unique<GroupGuard>(pid));
        return pid;
    }

    struct GroupGuard {
        explicit GroupGuard(pid_t p) : pid(p) {}
        ~GroupGuard()
        {
            ::kill(-pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
        pid_t pid;
    };

    std::string m_dir, m_runtime, m_session, m_error, m_saved_session;
    std::optional<std::string> m_saved_atspi;
    std::vector<std::string> m_env;
    pid_t m_daemon = -1;
    std::unique_ptr<nd_linux::AtspiBus> m_bus;
    std::unique_ptr<nd_linux::AtspiTreeReader> m_reader;
    std::vector<std::unique_ptr<GroupGuard>> m_apps;
};

double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

TEST_F(AtspiBusLossTest, ReadsFailCleanlyWhileTheBusIsGoneAndResumeOnTheNextBus)
{
    pid_t first = start_factory();
    ASSERT_GT(first, 0) << m_error;
    auto window = window_of(first, "gtk3-widget-factory");
    auto tree = wait_for_window(*m_reader, window, 200);
    ASSERT_TRUE(tree) << tree.error().text();
    EXPECT_EQ(m_bus->generation(), 0u);

    // Kill the AT-SPI bus daemon (its launcher exits with it).
    auto buses = pids_matching("accessibility.conf", m_runtime);
    ASSERT_EQ(buses.size(), 1u);
    ASSERT_EQ(::kill(buses[0], SIGKILL), 0);
    ASSERT_TRUE(wait_until([&] { return pids_matching("accessibility.conf", m_runtime).empty(); },
                           std::chrono::seconds(5)));

    nd_core::ReadLimits limits;
    limits.deadline = std::chrono::milliseconds(2000);
    auto t0 = std::chrono::steady_clock::now();
    auto lost = m_reader->read_window(window, limits);
    ASSERT_FALSE(lost);
    EXPECT_EQ(lost.error().code, ErrorCode::backend_unavailable) << lost.error().text();
    EXPECT_LT(ms_since(t0), 2500.0);

    // Asked again at once: no hang, the same clear answer (or, once the session bus has started a
    // new AT-SPI bus, the old app, still running, is simply not on it: app_not_accessible, which
    // says the bus went away).
    t0 = std::chrono::steady_clock::now();
    auto again = m_reader->read_window(window, limits);
    ASSERT_FALSE(again);
    EXPECT_TRUE(again.error().code == ErrorCode::backend_unavailable ||
                (again.error().code == ErrorCode::app_not_accessible &&
                 again.error().message.find("bus that went away") != std::string::npos))
        << again.error().text();
    EXPECT_LT(ms_since(t0), 4500.0);
    std::printf("bus gone: %s\nnext read: %s\ngeneration %llu address %s\n", lost.error().text().c_str(),
                again.error().text().c_str(), static_cast<unsigned long long>(m_bus->generation()), m_bus->address().c_str());

    // A new app joins the new bus, and the same reader reads it.
    pid_t second = start_factory();
    ASSERT_GT(second, 0) << m_error;
    auto fresh = wait_for_window(*m_reader, window_of(second, "gtk3-widget-factory"), 200);
    ASSERT_TRUE(fresh) << fresh.error().text();
    EXPECT_GE(m_bus->generation(), 1u);
    EXPECT_EQ(pids_matching("accessibility.conf", m_runtime).size(), 1u);
}

} // namespace

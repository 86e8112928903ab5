// An app that hangs or goes away never hangs the reader or the actuator: a stopped app costs at
// most the deadline, a killed one gives a clean error, and reads work again afterwards.

#include "atspi_test_app.h"

#include "backend/linux/atspi/atspi_actuator.h"
#include "backend/linux/atspi/atspi_probe.h"

#include <atomic>
#include <thread>

namespace {

using namespace nd_test;
using nd_core::ErrorCode;

class AtspiFaultTest : public WidgetFactoryTest {};

double elapsed_ms(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

TEST_F(AtspiFaultTest, a_stopped_app_fails_within_the_deadline_and_reads_after_it_continues)
{
    m_app->signal(SIGSTOP);
    nd_core::ReadLimits limits;
    limits.deadline = std::chrono::milliseconds(500);
    auto t0 = std::chrono::steady_clock::now();
    auto tree = m_reader->read_window(m_window, limits);
    double ms = elapsed_ms(t0);
    ASSERT_FALSE(tree);
    EXPECT_TRUE(tree.error().code == ErrorCode::app_not_responding || tree.error().code == ErrorCode::timed_out)
        << tree.error().text();
    EXPECT_LT(ms, 700.0);
    EXPECT_GE(ms, 450.0);

    nd_linux::AtspiActuator actuator(*m_bus);
    actuator.set_timeout(std::chrono::milliseconds(300));
    int box = find(m_tree, "check_box");
    ASSERT_GE(box, 0);
    t0 = std::chrono::steady_clock::now();
    auto act = actuator.do_action(m_window, m_tree.elements[static_cast<std::size_t>(box)], "click");
    ASSERT_FALSE(act);
    EXPECT_TRUE(act.error().code == ErrorCode::app_not_responding || act.error().code == ErrorCode::timed_out);
    EXPECT_LT(elapsed_ms(t0), 500.0);

    m_app->signal(SIGCONT);
    auto again = m_reader->read_window(m_window, nd_core::ReadLimits{});
    ASSERT_TRUE(again) << again.error().text();
    // The app is busy for a moment after it continues (it runs the click the driver gave up on:
    // why a timed-out act is "unsafe"), so its tree may be mid-update; the read must work, whole.
    EXPECT_EQ(again->elements.front().role, m_tree.elements.front().role);
    EXPECT_GT(again->elements.size(), m_tree.elements.size() * 9 / 10);
}

TEST_F(AtspiFaultTest, a_killed_app_gives_a_clean_error)
{
    nd_linux::AtspiActuator actuator(*m_bus);
    const nd_core::Element button = m_tree.elements[static_cast<std::size_t>(find(m_tree, "push_button"))];
    m_app->kill_now();
    auto t0 = std::chrono::steady_clock::now();
    auto tree = m_reader->read_window(m_window, nd_core::ReadLimits{});
    ASSERT_FALSE(tree);
    EXPECT_TRUE(tree.error().code == ErrorCode::window_target_not_found ||
                tree.error().code == ErrorCode::element_not_found)
        << tree.error().text();
    auto act = actuator.do_action(m_window, button, "click");
    ASSERT_FALSE(act);
    EXPECT_EQ(act.error().code, ErrorCode::element_not_found) << act.error().text();
    EXPECT_LT(elapsed_ms(t0), 2000.0);
}

TEST_F(AtspiFaultTest, an_app_that_exits_mid_read_never_crashes_the_reader)
{
    // Reads in a loop while the app is killed under them; every read ends with a tree or a
    // clean error, and the last ones with window_target_not_found or element_not_found.
    std::atomic<bool> stop{false};
    std::thread killer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        m_app->kill_now();
        stop = true;
    });
    nd_core::Error last;
    bool last_failed = false;
    for (int i = 0; i < 200; ++i) {
        auto tree = m_reader->read_window(m_window, nd_core::ReadLimits{});
        last_failed = !tree;
        if (!tree) {
            last = tree.error();
            EXPECT_TRUE(last.code == ErrorCode::window_target_not_found || last.code == ErrorCode::element_not_found ||
                        last.code == ErrorCode::app_not_responding)
                << last.text();
        }
        if (stop && last_failed)
            break;
    }
    killer.join();
    ASSERT_TRUE(last_failed);
    EXPECT_TRUE(last.code == ErrorCode::window_target_not_found || last.code == ErrorCode::element_not_found);
}

TEST(AtspiProbeTest, the_desktop_advertises_a_reachable_bus)
{
    NISH_REQUIRE_DESKTOP();
    auto t0 = std::chrono::steady_clock::now();
    auto probe = nd_linux::probe_atspi();
    EXPECT_TRUE(probe.advertised) << probe.error;
    EXPECT_TRUE(probe.reachable) << probe.error;
    EXPECT_FALSE(probe.address.empty());
    EXPECT_LT(elapsed_ms(t0), 1500.0);
}

TEST(AtspiProbeTest, an_address_that_leads_nowhere_is_not_reachable)
{
    auto bus = nd_linux::AtspiBus::open_address("unix:path=/nonexistent/nish-no-bus");
    EXPECT_FALSE(bus);
    EXPECT_EQ(bus.error().code, ErrorCode::backend_unavailable);
    auto empty = nd_linux::AtspiBus::open_address("");
    EXPECT_FALSE(empty);
}

} // namespace

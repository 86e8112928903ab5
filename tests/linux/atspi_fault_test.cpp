// An app that hangs or goes away never hangs the reader or the actuator: a stopped app costs at
// most the deadline, a killed one gives a clean error, and reads work again afterwards.

#include "atspi_test_app.h"

#include "backend/linux/atspi/atspi_actuator.h"
#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_locator.h"
#include "backend/linux/atspi/atspi_names.h"
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

// `n` GetRole calls to the app's root in one batch under `deadline`; how many were answered.
nd_core::Result<std::size_t> ask_roles(nd_linux::AtspiBus& bus, const std::string& app, int n,
                                       std::chrono::milliseconds deadline)
{
    nd_linux::AtspiBatch batch(bus, nd_linux::deadline_in(deadline));
    std::size_t answered = 0;
    for (int i = 0; i < n; ++i)
        batch.add({app, nd_linux::ROOT_PATH, nd_linux::IFACE_ACCESSIBLE, "GetRole"}, {},
                  [&answered](const nd_linux::Reply& r) { answered += r.ok() ? 1 : 0; });
    TRY_VOID(batch.run());
    return answered;
}

// The calls a batch gives up on stay with the app, which answers in order. A stopped app is sent
// one ping by each batch after, not another batch; once it continues, the next batch waits for
// the ping (the old calls answered) and then runs whole.
TEST_F(AtspiFaultTest, batches_after_one_that_gave_up_send_a_busy_app_a_ping_not_more_calls)
{
    auto apps = nd_linux::apps_of_pid(*m_bus, m_app->pid(), nd_linux::deadline_in(std::chrono::seconds(2)));
    ASSERT_TRUE(apps && !apps->empty());
    const std::string app = apps->front().bus;
    EXPECT_EQ(m_bus->owed_calls(app), 0u);

    m_app->signal(SIGSTOP);
    auto first = ask_roles(*m_bus, app, 40, std::chrono::milliseconds(200));
    ASSERT_FALSE(first);
    EXPECT_EQ(first.error().code, ErrorCode::app_not_responding) << first.error().text();
    EXPECT_EQ(m_bus->owed_calls(app), 40u);
    for (int i = 0; i < 3; ++i) {
        auto again = ask_roles(*m_bus, app, 40, std::chrono::milliseconds(200));
        ASSERT_FALSE(again);
        EXPECT_EQ(again.error().code, ErrorCode::app_not_responding) << again.error().text();
        EXPECT_NE(again.error().message.find("an earlier read gave up on"), std::string::npos) << again.error().text();
    }
    EXPECT_EQ(m_bus->owed_calls(app), 43u) << "a batch sent a stopped app more than its ping";

    m_app->signal(SIGCONT);
    auto after = ask_roles(*m_bus, app, 40, std::chrono::seconds(5));
    ASSERT_TRUE(after) << after.error().text();
    EXPECT_EQ(*after, 40u);
    EXPECT_EQ(m_bus->owed_calls(app), 0u);
}

// The toolkit decides how a window is keyed (Qt's and Java's item views by place): an app that
// cannot say it in time fails the read instead of being taken for one without a toolkit for good.
TEST_F(AtspiFaultTest, a_toolkit_name_the_app_was_too_busy_to_give_is_asked_again)
{
    nd_linux::AtspiTreeReader reader(*m_bus);
    auto located = reader.locate(m_window, nd_linux::deadline_in(std::chrono::seconds(2)));
    ASSERT_TRUE(located) << located.error().text();
    m_app->signal(SIGSTOP);
    auto stopped = reader.read_located(*located, nd_core::ReadLimits{}, nd_linux::deadline_in(std::chrono::milliseconds(200)));
    ASSERT_FALSE(stopped);
    EXPECT_TRUE(stopped.error().code == ErrorCode::app_not_responding || stopped.error().code == ErrorCode::timed_out)
        << stopped.error().text();
    m_app->signal(SIGCONT);
    auto tree = reader.read_located(*located, nd_core::ReadLimits{}, nd_linux::deadline_in(std::chrono::seconds(5)));
    ASSERT_TRUE(tree) << tree.error().text();
    EXPECT_EQ(reader.last_read().toolkit, "gtk");
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

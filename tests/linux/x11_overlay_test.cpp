// The takeover indicator on a real X server (§4.2, §4.3): its windows are mapped and never listed as
// app windows, clicks go through the frame, hiding is quick and complete, another client taking a
// window away is noticed, and Continue on the paused indicator takes only the person's click (the
// test's marked device, person_input.h): not another program's (xdotool), not a SendEvent, not one
// right after the driver's own press. Runs inside scripts/test-desktop.

#include "linux/app_process.h"
#include "linux/person_input.h"
#include "linux/x11_test_support.h"

#include "backend/linux/x11/x11_overlay.h"
#include "backend/linux/x11/x11_windows.h"

#include <gtest/gtest.h>

#include <poll.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <future>

using namespace std::chrono_literals;
using nd_linux::PressClock;
using nd_linux::X11Display;
using nd_linux::X11Overlay;
using nd_test::run_command;
using nd_test::wait_until;

namespace {

using SteadyClock = std::chrono::steady_clock;

double ms_since(SteadyClock::time_point start)
{
    return std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count();
}

class X11OverlayTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_DESKTOP();
        auto probe = X11Display::open();
        ASSERT_TRUE(probe) << probe.error().text();
        m_probe = std::move(probe).value();
        m_rule.start();
        m_overlay = std::make_unique<X11Overlay>("", m_rule);
        m_overlay->set_continue_handler([this] { ++m_continues; });
        m_person = std::make_unique<nd_test::PersonPointer>(*m_probe);
        ASSERT_TRUE(m_person->ready()) << "xinput create-master person";
    }
    void TearDown() override
    {
        m_overlay.reset();
        if (m_probe) {
            for (auto window : m_own)
                xcb_destroy_window(m_probe->connection(), window);
            xcb_flush(m_probe->connection());
        }
    }

    // Map state as another client sees it; -1 when the window does not exist.
    int map_state(xcb_window_t window)
    {
        auto reply = m_probe->wait<xcb_get_window_attributes_reply_t>(
            xcb_get_window_attributes(m_probe->connection(), window), nd_linux::deadline_after(1s));
        return reply && reply.value() ? reply.value()->map_state : -1;
    }
    bool override_redirect(xcb_window_t window)
    {
        auto reply = m_probe->wait<xcb_get_window_attributes_reply_t>(
            xcb_get_window_attributes(m_probe->connection(), window), nd_linux::deadline_after(1s));
        return reply && reply.value() && reply.value()->override_redirect;
    }
    std::string wm_name(xcb_window_t window)
    {
        auto reply = m_probe->wait<xcb_get_property_reply_t>(
            xcb_get_property(m_probe->connection(), 0, window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 0, 64),
            nd_linux::deadline_after(1s));
        if (!reply || !reply.value())
            return {};
        return std::string(static_cast<const char*>(xcb_get_property_value(reply.value().value.get())),
                           static_cast<std::size_t>(xcb_get_property_value_length(reply.value().value.get())));
    }
    // The root's children, bottom to top.
    std::vector<xcb_window_t> stacking()
    {
        auto tree = m_probe->wait<xcb_query_tree_reply_t>(xcb_query_tree(m_probe->connection(), m_probe->root()),
                                                          nd_linux::deadline_after(1s));
        if (!tree || !tree.value())
            return {};
        auto* children = xcb_query_tree_children(tree.value().value.get());
        return {children, children + xcb_query_tree_children_length(tree.value().value.get())};
    }
    // An override-redirect window of the probe connection that reports button presses.
    xcb_window_t create_target(std::int16_t x, std::int16_t y, std::uint16_t w, std::uint16_t h)
    {
        auto* c = m_probe->connection();
        xcb_window_t window = xcb_generate_id(c);
        const std::uint32_t values[] = {m_probe->screen().white_pixel, 1, XCB_EVENT_MASK_BUTTON_PRESS};
        xcb_create_window(c, XCB_COPY_FROM_PARENT, window, m_probe->root(), x, y, w, h, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                          m_probe->screen().root_visual, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK,
                          values);
        xcb_map_window(c, window);
        m_own.push_back(window);
        EXPECT_EQ(map_state(window), XCB_MAP_STATE_VIEWABLE); // the round trip also flushes
        return window;
    }
    // Waits for a ButtonPress on `window` from the probe connection.
    bool wait_for_press(xcb_window_t window, std::chrono::milliseconds timeout)
    {
        auto* c = m_probe->connection();
        const auto end = SteadyClock::now() + timeout;
        while (SteadyClock::now() < end) {
            while (xcb_generic_event_t* event = xcb_poll_for_event(c)) {
                nd_linux::XcbPtr<xcb_generic_event_t> owned(event);
                if ((event->response_type & 0x7F) == XCB_BUTTON_PRESS
                    && reinterpret_cast<xcb_button_press_event_t*>(event)->event == window)
                    return true;
            }
            pollfd p{xcb_get_file_descriptor(c), POLLIN, 0};
            ::poll(&p, 1, 20);
        }
        return false;
    }
    // The centre of the Continue button in root coordinates.
    std::pair<int, int> button_centre()
    {
        const xcb_window_t button = m_overlay->continue_button();
        auto origin = m_probe->wait<xcb_translate_coordinates_reply_t>(
            xcb_translate_coordinates(m_probe->connection(), button, m_probe->root(), 0, 0), nd_linux::deadline_after(1s));
        auto geometry = m_probe->wait<xcb_get_geometry_reply_t>(xcb_get_geometry(m_probe->connection(), button),
                                                                 nd_linux::deadline_after(1s));
        if (!origin || !origin.value() || !geometry || !geometry.value())
            return {-1, -1};
        return {origin.value()->dst_x + geometry.value()->width / 2, origin.value()->dst_y + geometry.value()->height / 2};
    }
    // Another program's click (xdotool, through the core XTEST device).
    bool click_at(int x, int y)
    {
        return run_command({"xdotool", "mousemove", std::to_string(x), std::to_string(y), "click", "1"}) == 0;
    }
    // The person's click, once the rule's watch has the 1.5 s of history it asks for.
    void person_click(int x, int y)
    {
        std::this_thread::sleep_until(m_rule.watching_since() + nd_linux::PersonRule::QUIET + 50ms);
        m_person->click(x, y);
    }
    void send_fake_click(xcb_window_t window)
    {
        for (std::uint8_t type : {std::uint8_t{XCB_BUTTON_PRESS}, std::uint8_t{XCB_BUTTON_RELEASE}}) {
            xcb_button_press_event_t event{};
            event.response_type = type;
            event.detail = 1;
            event.root = m_probe->root();
            event.event = window;
            event.event_x = 5;
            event.event_y = 5;
            event.same_screen = 1;
            const std::uint32_t mask = type == XCB_BUTTON_PRESS ? XCB_EVENT_MASK_BUTTON_PRESS : XCB_EVENT_MASK_BUTTON_RELEASE;
            xcb_send_event(m_probe->connection(), 0, window, mask, reinterpret_cast<const char*>(&event));
        }
        xcb_flush(m_probe->connection());
    }

    PressClock m_clock;
    nd_linux::PersonRule m_rule{"", m_clock};
    std::unique_ptr<X11Display> m_probe;
    std::unique_ptr<nd_test::PersonPointer> m_person;
    std::unique_ptr<X11Overlay> m_overlay;
    std::atomic<int> m_continues{0};
    std::vector<xcb_window_t> m_own;
};

TEST_F(X11OverlayTest, ShowMapsTheFrameAndTheLabelOutsideTheAppWindowList)
{
    ASSERT_TRUE(m_overlay->show_indicator());
    EXPECT_TRUE(m_overlay->indicator_alive());
    auto ids = m_overlay->window_ids();
    ASSERT_EQ(ids.size(), 5u); // four edges and the label, no button
    EXPECT_EQ(m_overlay->continue_button(), 0u);
    for (auto id : ids) {
        EXPECT_EQ(map_state(id), XCB_MAP_STATE_VIEWABLE);
        EXPECT_TRUE(override_redirect(id));
        EXPECT_EQ(wm_name(id).rfind("nish-driver indicator: ", 0), 0u) << wm_name(id);
    }
    nd_linux::X11WindowSource source(*m_probe);
    auto listed = source.list_windows();
    ASSERT_TRUE(listed) << listed.error().text();
    for (const auto& window : listed.value())
        EXPECT_EQ(std::count(ids.begin(), ids.end(), window.window_id), 0) << window.title;
}

TEST_F(X11OverlayTest, ClicksGoThroughTheFrameToTheWindowBelow)
{
    ASSERT_TRUE(m_overlay->show_indicator());
    const auto ids = m_overlay->window_ids();
    // Mapped after the indicator, so the overlay has to raise itself over it again.
    const xcb_window_t target = create_target(0, 100, 200, 200);
    const xcb_window_t left_edge = ids[2];
    ASSERT_TRUE(wait_until([&] {
        auto order = stacking();
        auto edge = std::find(order.begin(), order.end(), left_edge), below = std::find(order.begin(), order.end(), target);
        return edge != order.end() && below != order.end() && edge > below;
    }, 2s)) << "the frame did not come back on top";
    ASSERT_TRUE(click_at(nd_linux::OverlayWindows::FRAME_WIDTH / 2, 150)); // inside the left edge
    EXPECT_TRUE(wait_for_press(target, 2s)) << "the click did not reach the window under the frame";
    EXPECT_TRUE(m_overlay->indicator_alive());
}

TEST_F(X11OverlayTest, HideRemovesEveryWindowWithin100Ms)
{
    std::vector<double> took;
    for (int i = 0; i < 20; ++i) {
        ASSERT_TRUE(m_overlay->show_indicator());
        const auto ids = m_overlay->window_ids();
        const auto start = SteadyClock::now();
        m_overlay->hide_indicator();
        // Gone as another client sees it: the probe's round trip comes after the overlay's.
        for (auto id : ids)
            ASSERT_EQ(map_state(id), -1) << "window " << id << " is still there";
        took.push_back(ms_since(start));
        EXPECT_FALSE(m_overlay->indicator_alive());
    }
    std::sort(took.begin(), took.end());
    const double p50 = took[took.size() / 2], p99 = took.back();
    std::printf("hide_indicator to all windows gone, 20 cycles: p50 %.2f ms, p99 %.2f ms\n", p50, p99);
    EXPECT_LT(p99, 100.0);
}

TEST_F(X11OverlayTest, AnotherClientUnmappingOrDestroyingAWindowEndsIt)
{
    for (int which : {0, 4}) { // unmap the top edge, then destroy the label
        ASSERT_TRUE(m_overlay->show_indicator());
        ASSERT_TRUE(m_overlay->indicator_alive());
        const xcb_window_t victim = m_overlay->window_ids()[static_cast<std::size_t>(which)];
        if (which == 0)
            xcb_unmap_window(m_probe->connection(), victim);
        else
            xcb_destroy_window(m_probe->connection(), victim);
        xcb_flush(m_probe->connection());
        const auto start = SteadyClock::now();
        while (m_overlay->indicator_alive() && ms_since(start) < 2000)
            std::this_thread::sleep_for(1ms);
        const double noticed = ms_since(start);
        std::printf("%s by another client noticed after %.1f ms\n", which == 0 ? "unmap" : "destroy", noticed);
        EXPECT_LT(noticed, 100.0);
        m_overlay->hide_indicator();
    }
}

TEST_F(X11OverlayTest, PausedShowsContinueAndThePersonsClickOnItResumes)
{
    ASSERT_TRUE(m_overlay->show_indicator());
    m_overlay->set_paused(true);
    const xcb_window_t button = m_overlay->continue_button();
    ASSERT_NE(button, 0u);
    EXPECT_EQ(map_state(button), XCB_MAP_STATE_VIEWABLE);
    EXPECT_EQ(m_overlay->window_ids().size(), 6u);
    const auto [x, y] = button_centre();
    ASSERT_GE(x, 0);
    person_click(x, y);
    EXPECT_TRUE(wait_until([&] { return m_continues.load() == 1; }, 2s)) << m_overlay->last_refusal();
    EXPECT_TRUE(m_overlay->indicator_alive());

    m_overlay->set_paused(false);
    EXPECT_EQ(m_overlay->continue_button(), 0u);
    EXPECT_EQ(map_state(button), -1);
    EXPECT_TRUE(m_overlay->indicator_alive()) << "removing its own button is not a lost indicator";
}

TEST_F(X11OverlayTest, ASentEventClickOnContinueDoesNotCount)
{
    m_overlay->set_paused(true); // shown paused from the start, as for a paused session's new takeover
    ASSERT_TRUE(m_overlay->show_indicator());
    const xcb_window_t button = m_overlay->continue_button();
    ASSERT_NE(button, 0u);
    send_fake_click(button);
    std::this_thread::sleep_for(300ms);
    EXPECT_EQ(m_continues.load(), 0);
    // The thread did read those events: the person's click right after them counts.
    const auto [x, y] = button_centre();
    person_click(x, y);
    EXPECT_TRUE(wait_until([&] { return m_continues.load() == 1; }, 2s)) << m_overlay->last_refusal();
}

// The issue this rule came from: after the person took control back, any local program (xdotool)
// could press Continue and undo the hand-back.
TEST_F(X11OverlayTest, AnotherProgramsClickOnContinueDoesNotCount)
{
    m_overlay->set_paused(true);
    ASSERT_TRUE(m_overlay->show_indicator());
    const auto [x, y] = button_centre();
    ASSERT_GE(x, 0);
    std::this_thread::sleep_until(m_rule.watching_since() + nd_linux::PersonRule::QUIET + 50ms);
    ASSERT_TRUE(click_at(x, y));
    std::this_thread::sleep_for(300ms);
    EXPECT_EQ(m_continues.load(), 0) << "an XTEST click resumed";
    EXPECT_NE(m_overlay->last_refusal().find("XTEST"), std::string::npos) << m_overlay->last_refusal();
    // Sent in the name of Xvfb's own mouse, which is no XTEST device: the RECORD watch sees it.
    const auto mouse = nd_test::device_id(*m_probe, "Xvfb mouse");
    const auto core = nd_test::device_id(*m_probe, "Virtual core pointer");
    if (m_probe->extensions().record && mouse && core) {
        std::this_thread::sleep_for(PressClock::QUIET);
        nd_test::click_from(*m_probe, core, mouse, x, y);
        std::this_thread::sleep_for(300ms);
        EXPECT_EQ(m_continues.load(), 0) << "a click forged in a physical device's name resumed";
        EXPECT_NE(m_overlay->last_refusal().find("synthetic"), std::string::npos) << m_overlay->last_refusal();
    }
    EXPECT_TRUE(m_overlay->indicator_alive());
}

TEST_F(X11OverlayTest, AClickSoonAfterADriverPressDoesNotCount)
{
    m_overlay->set_paused(true);
    ASSERT_TRUE(m_overlay->show_indicator());
    const auto [x, y] = button_centre();
    ASSERT_GE(x, 0);
    std::this_thread::sleep_until(m_rule.watching_since() + nd_linux::PersonRule::QUIET + 50ms);
    m_clock.record_press();
    m_person->click(x, y);
    std::this_thread::sleep_for(300ms);
    EXPECT_EQ(m_continues.load(), 0) << "a click within 1.5 s of the driver's own press counted";
    std::this_thread::sleep_for(PressClock::QUIET);
    person_click(x, y);
    EXPECT_TRUE(wait_until([&] { return m_continues.load() == 1; }, 2s)) << m_overlay->last_refusal();
}

// One takeover per display (docs/architecture.md): a second indicator, as a second driver's, is
// refused while the first shows, and shows once the first is hidden.
TEST_F(X11OverlayTest, ASecondDriverCannotTakeOverTheSameDisplay)
{
    X11Overlay second("", m_rule);
    ASSERT_TRUE(m_overlay->show_indicator());
    auto refused = second.show_indicator();
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, nd_core::ErrorCode::backend_unavailable);
    EXPECT_EQ(refused.error().message, "another driver holds the takeover on this display");
    EXPECT_FALSE(second.indicator_alive());
    EXPECT_TRUE(m_overlay->indicator_alive()) << "the refusal did not touch the first";
    // Showing again while shown keeps the lock it has.
    EXPECT_TRUE(m_overlay->show_indicator());
    m_overlay->hide_indicator();
    EXPECT_TRUE(second.show_indicator());
    EXPECT_FALSE(m_overlay->show_indicator()) << "now the first is the second";
    second.hide_indicator();
    EXPECT_TRUE(m_overlay->show_indicator());
}

// The engine's Continue handler takes the engine's lock, which a tool call showing the indicator
// again also holds. When the indicator's connection broke in between, showing it again replaces the
// connection, and must not wait for the thread that is still inside the handler.
TEST_F(X11OverlayTest, ReplacingABrokenConnectionDoesNotWaitForAContinueHandler)
{
    // The handler runs on the overlay's thread and may outlive a statement of this test: it holds
    // its own copies of what it uses, and the overlay (which joins that thread) goes before them.
    std::promise<void> release;
    auto released = release.get_future().share();
    auto entered = std::make_shared<std::atomic<bool>>(false);
    m_overlay->set_continue_handler([released, entered] {
        *entered = true;
        released.wait_for(10s);
    });
    m_overlay->set_paused(true);
    ASSERT_TRUE(m_overlay->show_indicator());
    const auto [x, y] = button_centre();
    ASSERT_GE(x, 0);
    person_click(x, y);
    ASSERT_TRUE(wait_until([&] { return entered->load(); }, 2s)) << m_overlay->last_refusal();

    // Another client closes the indicator's connection (xkill names one of its windows).
    const auto ids = m_overlay->window_ids();
    ASSERT_FALSE(ids.empty());
    ASSERT_EQ(run_command({"xkill", "-id", std::to_string(ids.front())}), 0);
    auto shown = std::async(std::launch::async, [&] {
        // The first attempt may be the one that finds the connection broken.
        for (int attempt = 0; attempt < 3; ++attempt)
            if (m_overlay->show_indicator())
                return true;
        return false;
    });
    const bool finished = shown.wait_for(3s) == std::future_status::ready;
    release.set_value();
    EXPECT_TRUE(finished) << "showing the indicator waited for the Continue handler";
    EXPECT_TRUE(shown.get()) << "the indicator did not come back on a new connection";
    EXPECT_TRUE(m_overlay->indicator_alive());
    EXPECT_NE(m_overlay->continue_button(), 0u) << "still paused: the new indicator shows Continue";
    m_overlay.reset(); // joins the thread that ran the handler while `release` still lives
}

} // namespace

namespace {

// An indicator whose display connection fails is gone (§4.2), and one that cannot be shown is refused
// with backend_unavailable, so the engine refuses the takeover. Uses an X server of the test's own.
TEST(X11OverlayServerLoss, ALostServerEndsTheIndicatorAndRefusesTheNext)
{
    NISH_REQUIRE_DESKTOP();
    auto server = nd_test::OwnXvfb::start();
    ASSERT_TRUE(server.display) << "no Xvfb of the test's own";
    PressClock clock;
    nd_linux::PersonRule rule(server.display->name(), clock);
    X11Overlay overlay(server.display->name(), rule);
    ASSERT_TRUE(overlay.show_indicator());
    ASSERT_TRUE(overlay.indicator_alive());
    server.display.reset();
    server.process->stop();
    EXPECT_TRUE(wait_until([&] { return !overlay.indicator_alive(); }, 2s));
    auto shown = overlay.show_indicator();
    ASSERT_FALSE(shown);
    EXPECT_EQ(shown.error().code, nd_core::ErrorCode::backend_unavailable) << shown.error().message;
    EXPECT_FALSE(overlay.indicator_alive());
    overlay.hide_indicator(); // harmless without a server
}

} // namespace

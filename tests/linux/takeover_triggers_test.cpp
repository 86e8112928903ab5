// The takeover indicator's six removal triggers (§4.2) on the real Linux backend, on
// gtk3-widget-factory: end_session, the kill switch, revocation, lease expiry, a closed connection and
// start_session {input: "headless"}. After each, the overlay lists no window and the server no longer
// has any of the indicator's windows (a second connection gets BadWindow), within 100 ms of the
// trigger. The kill switch during a foreground type_text also leaves no key or button held.

#include "linux/person_input.h"
#include "tool_test_support.h"

#include "backend/linux/x11/x11_overlay.h"

#include <xcb/xcb.h>
#include <xcb/xinput.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>

namespace {

using namespace std::chrono_literals;
using nd_test::OwnedApp;
using nlohmann::json;

class TakeoverTriggers : public nd_test::LinuxToolTest {
protected:
    nd_linux::X11Overlay* overlay() { return dynamic_cast<nd_linux::X11Overlay*>(backend().overlay()); }

    // True when the server answers BadWindow for every id (asked on the test's own connection).
    static bool all_gone(nd_linux::X11Display& display, const std::vector<std::uint32_t>& ids)
    {
        auto* c = display.connection();
        std::vector<xcb_get_window_attributes_cookie_t> cookies;
        for (auto id : ids)
            cookies.push_back(xcb_get_window_attributes(c, id));
        bool gone = true;
        for (auto cookie : cookies) {
            xcb_generic_error_t* error = nullptr;
            auto* reply = xcb_get_window_attributes_reply(c, cookie, &error);
            gone = gone && !reply && error && error->error_code == XCB_WINDOW;
            std::free(reply);
            std::free(error);
        }
        return gone;
    }

    // Starts a takeover session and returns the indicator's window ids (empty on failure).
    std::vector<std::uint32_t> start_takeover()
    {
        auto started = call("start_session", {{"apps", {"gtk3-widget-factory"}}, {"input", "takeover"}});
        EXPECT_FALSE(started.is_error) << started.text;
        EXPECT_EQ(started.s["takeover"]["on"], true) << started.s.dump();
        auto ids = overlay()->window_ids();
        EXPECT_GE(ids.size(), 5u) << "four edges and the label";
        EXPECT_TRUE(overlay()->indicator_alive());
        return ids;
    }

    // Runs `trigger`, then waits until the indicator is gone from the overlay and the server; returns
    // the milliseconds from the trigger call to that, or a negative number when it did not go in 1 s.
    double time_removal(nd_linux::X11Display& display, const std::vector<std::uint32_t>& ids,
                        const std::function<void()>& trigger)
    {
        const auto t0 = std::chrono::steady_clock::now();
        trigger();
        const auto end = t0 + 1s;
        while (std::chrono::steady_clock::now() < end) {
            if (overlay()->window_ids().empty() && all_gone(display, ids))
                return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            std::this_thread::sleep_for(100us);
        }
        return -1;
    }

    void expect_removed(const char* trigger, double ms)
    {
        std::printf("indicator removed after %-22s %7.2f ms\n", trigger, ms);
        EXPECT_GE(ms, 0) << trigger << ": the indicator was still there after 1 s";
        EXPECT_LT(ms, 100) << trigger;
    }
};

TEST_F(TakeoverTriggers, EachTriggerRemovesTheIndicatorWithin100Ms)
{
    if (!backend().input() || !backend().watcher() || !overlay())
        GTEST_SKIP() << "this X server lacks XTEST, XInput 2.1 or SHAPE";
    OwnedApp app({"gtk3-widget-factory"});
    auto window = wait_for_window(app, "gtk3-widget-factory", 200, 30s);
    ASSERT_FALSE(window.is_null());
    auto display = nd_linux::X11Display::open();
    ASSERT_TRUE(display.ok()) << display.error().text();
    auto& d = **display;

    {
        auto ids = start_takeover();
        ASSERT_FALSE(ids.empty());
        ASSERT_FALSE(all_gone(d, ids));
        expect_removed("end_session", time_removal(d, ids, [&] { EXPECT_FALSE(call("end_session").is_error); }));
    }
    {
        auto ids = start_takeover();
        const auto id = call("get_session_state").s["session"].get<std::string>();
        expect_removed("revoke", time_removal(d, ids, [&] {
            engine().interrupt(id);
            std::lock_guard lock(engine().mutex());
            EXPECT_TRUE(engine().revoke(id).ok());
            engine().clear_interrupt();
        }));
    }
    {
        auto ids = start_takeover();
        expect_removed("lease expiry", time_removal(d, ids, [&] {
            engine().advance_clock(std::chrono::seconds(nd_core::DEFAULT_LEASE_S + 1));
            auto state = call("get_session_state");
            EXPECT_EQ(state.s["active"], false) << state.text;
            EXPECT_EQ(state.s["takeover"]["on"], false) << state.text;
        }));
    }
    {
        auto ids = start_takeover();
        expect_removed("connection_closed", time_removal(d, ids, [&] {
            std::lock_guard lock(engine().mutex());
            engine().connection_closed();
        }));
    }
    {
        auto ids = start_takeover();
        expect_removed("start_session headless", time_removal(d, ids, [&] {
            auto headless = call("start_session", {{"apps", {"gtk3-widget-factory"}}, {"input", "headless"}});
            EXPECT_FALSE(headless.is_error) << headless.text;
            EXPECT_EQ(headless.s["takeover"]["on"], false);
        }));
    }

    // The kill switch during a long foreground type_text: the indicator goes and nothing stays held.
    auto ids = start_takeover();
    ASSERT_FALSE(call("bring_to_front", {{"window_id", window["window_id"]}}).is_error);
    auto entry = find_row(read_all(window), "text", "", [](const json& r) {
        return has_state(r, "editable") && has_state(r, "enabled") && has_state(r, "showing");
    });
    ASSERT_FALSE(entry.is_null());
    // The switch comes once the driver's keyboard (the core XTEST slave) has pressed a key: XTEST
    // typing is fast, and a switch after the typing would only wait for the call's settle reads.
    auto* c = d.connection();
    std::uint16_t driver_keyboard = 0;
    if (auto* q = xcb_input_xi_query_device_reply(c, xcb_input_xi_query_device(c, XCB_INPUT_DEVICE_ALL), nullptr)) {
        for (auto it = xcb_input_xi_query_device_infos_iterator(q); it.rem; xcb_input_xi_device_info_next(&it))
            if (std::string(xcb_input_xi_device_info_name(it.data), static_cast<std::size_t>(xcb_input_xi_device_info_name_length(it.data)))
                == "Virtual core XTEST keyboard")
                driver_keyboard = it.data->deviceid;
        std::free(q);
    }
    ASSERT_NE(driver_keyboard, 0);
    struct {
        xcb_input_event_mask_t head;
        std::uint32_t bits;
    } mask{{XCB_INPUT_DEVICE_ALL_MASTER, 1}, XCB_INPUT_XI_EVENT_MASK_RAW_KEY_PRESS};
    xcb_input_xi_select_events(c, d.root(), 1, &mask.head);
    xcb_flush(c);
    nd_test::ToolReply typed;
    std::thread typist([&] {
        typed = call("type_text", {{"element_token", entry["element_token"]}, {"delivery_mode", "foreground"},
                                   {"text", std::string(20000, 'k')}});
    });
    const bool typing = nd_test::wait_until(
        [&] {
            bool seen = false;
            while (auto* e = xcb_poll_for_event(c)) {
                const auto* raw = reinterpret_cast<const xcb_input_raw_key_press_event_t*>(e);
                seen = seen || ((e->response_type & 0x7f) == XCB_GE_GENERIC && raw->sourceid == driver_keyboard);
                std::free(e);
            }
            return seen;
        },
        5s);
    EXPECT_TRUE(typing) << "no key from the driver";
    std::this_thread::sleep_for(20ms);
    const double ms = time_removal(d, ids, [&] {
        engine().interrupt();
        std::lock_guard lock(engine().mutex());
        engine().kill_switch();
        engine().clear_interrupt();
    });
    typist.join();
    expect_removed("kill_switch", ms);
    ASSERT_TRUE(typed.is_error) << "the typing was stopped: " << typed.text;
    EXPECT_EQ(typed.code(), "stopped_by_kill_switch") << typed.text;

    auto* keymap = xcb_query_keymap_reply(c, xcb_query_keymap(c), nullptr);
    ASSERT_NE(keymap, nullptr);
    for (int i = 0; i < 32; ++i)
        EXPECT_EQ(keymap->keys[i], 0) << "a key is held in keymap byte " << i;
    std::free(keymap);
    auto* pointer = xcb_query_pointer_reply(c, xcb_query_pointer(c, d.root()), nullptr);
    ASSERT_NE(pointer, nullptr);
    const std::uint16_t buttons = XCB_KEY_BUT_MASK_BUTTON_1 | XCB_KEY_BUT_MASK_BUTTON_2 | XCB_KEY_BUT_MASK_BUTTON_3
        | XCB_KEY_BUT_MASK_BUTTON_4 | XCB_KEY_BUT_MASK_BUTTON_5;
    EXPECT_EQ(pointer->mask & buttons, 0) << "a button is held";
    std::free(pointer);
}

} // namespace

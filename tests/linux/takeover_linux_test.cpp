// Takeover on the Linux backend, end to end through the tools on gtk3-widget-factory: the indicator
// comes with a takeover session and goes with end_session; a foreground click reaches the app through
// XTEST; the person's key press (a device that is not the driver's) stops a move_cursor glide within
// a step and pauses the session; acts are refused while paused and reads still work; a real click on
// the indicator's Continue button resumes, and tokens from before are stale.

#include "linux/person_input.h"
#include "tool_test_support.h"

#include "backend/linux/x11/x11_overlay.h"

#include <cstdio>
#include <sstream>
#include <thread>

namespace {

using namespace std::chrono_literals;
using nd_test::OwnedApp;
using nlohmann::json;

class Takeover : public nd_test::LinuxToolTest {
protected:
    nd_linux::X11Overlay* overlay() { return dynamic_cast<nd_linux::X11Overlay*>(backend().overlay()); }

    // The centre of an X window in root coordinates (xdotool prints its geometry).
    static bool centre_of(std::uint32_t id, int& x, int& y)
    {
        const std::string out = nd_test::command_output("xdotool getwindowgeometry --shell " + std::to_string(id));
        int gx = -1, gy = -1, w = 0, h = 0;
        std::istringstream lines(out);
        for (std::string l; std::getline(lines, l);) {
            if (l.rfind("X=", 0) == 0) gx = std::stoi(l.substr(2));
            if (l.rfind("Y=", 0) == 0) gy = std::stoi(l.substr(2));
            if (l.rfind("WIDTH=", 0) == 0) w = std::stoi(l.substr(6));
            if (l.rfind("HEIGHT=", 0) == 0) h = std::stoi(l.substr(7));
        }
        x = gx + w / 2;
        y = gy + h / 2;
        return gx >= 0 && gy >= 0 && w > 0 && h > 0;
    }
};

TEST_F(Takeover, ClickThenThePersonTakesOverThenContinue)
{
    if (!backend().input() || !backend().watcher() || !overlay())
        GTEST_SKIP() << "this X server lacks XTEST, XInput 2.1 or SHAPE";
    OwnedApp app({"gtk3-widget-factory"});
    auto window = wait_for_window(app, "gtk3-widget-factory", 200, 30s);
    ASSERT_FALSE(window.is_null());

    auto started = call("start_session", {{"apps", {"gtk3-widget-factory"}}, {"input", "takeover"}});
    ASSERT_FALSE(started.is_error) << started.text;
    ASSERT_EQ(started.s["takeover"]["on"], true) << started.s.dump();
    EXPECT_GE(overlay()->window_ids().size(), 5u) << "frame and label";
    EXPECT_TRUE(overlay()->indicator_alive());

    // A foreground click through XTEST toggles a check box.
    ASSERT_FALSE(call("bring_to_front", {{"window_id", window["window_id"]}}).is_error);
    auto all = read_all(window);
    auto box = find_row(all, "check_box", "", [](const json& r) { return has_state(r, "enabled") && has_state(r, "showing"); });
    ASSERT_FALSE(box.is_null());
    const bool was_checked = has_state(box, "checked");
    auto clicked = call("click", {{"element_token", box["element_token"]}, {"delivery_mode", "foreground"}});
    ASSERT_FALSE(clicked.is_error) << clicked.text;
    ASSERT_TRUE(nd_test::wait_until(
        [&] { return has_state(row_at(read_all(window), box), "checked") != was_checked; }, 3s));

    // The person presses a key during a 3 s glide: the glide stops at the next step.
    auto display = nd_linux::X11Display::open();
    ASSERT_TRUE(display.ok()) << display.error().text();
    nd_test::PersonMaster master;
    ASSERT_TRUE(master.created);
    const auto person = nd_test::find_person(**display);
    ASSERT_NE(person.keyboard, 0);
    nd_test::ToolReply glide;
    const auto t0 = std::chrono::steady_clock::now();
    std::thread mover([&] {
        glide = call("move_cursor", {{"window_id", window["window_id"]}, {"x", 5}, {"y", 5}, {"duration_ms", 3000},
                                     {"delivery_mode", "foreground"}});
    });
    std::this_thread::sleep_for(400ms);
    nd_test::person_press(**display, person.keyboard, true, 38);
    mover.join();
    const auto glide_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(glide.is_error) << glide.text;
    EXPECT_EQ(glide.s["error"]["code"], "user_took_over") << glide.text;
    EXPECT_EQ(glide.s["error"]["effect"], "stopped") << glide.text;
    EXPECT_LT(glide_ms, 2000) << "stopped within a step of the key press, not at the end of the glide";

    auto state = call("get_session_state");
    ASSERT_FALSE(state.is_error) << state.text;
    EXPECT_EQ(state.s["takeover"]["paused"], true);
    EXPECT_EQ(state.s["takeover"]["paused_reason"], "key_pressed");
    // Paused: acts are refused before anything is sent; reads work.
    auto refused = call("click", {{"element_token", box["element_token"]}, {"delivery_mode", "foreground"}});
    ASSERT_TRUE(refused.is_error);
    EXPECT_EQ(refused.s["error"]["code"], "user_took_over");
    EXPECT_FALSE(call("get_window_state", {{"window_id", window["window_id"]}, {"max_elements", 5}}).is_error);

    // A real click on Continue (after the press clock's quiet time) resumes.
    const auto button = overlay()->continue_button();
    ASSERT_NE(button, 0u) << "the paused indicator shows Continue";
    int cx = 0, cy = 0;
    ASSERT_TRUE(centre_of(button, cx, cy));
    std::this_thread::sleep_for(1600ms);
    // Another program's click (xdotool) does not resume: only the person may.
    ASSERT_EQ(nd_test::run_command({"xdotool", "mousemove", std::to_string(cx), std::to_string(cy), "click", "1"}), 0);
    std::this_thread::sleep_for(500ms);
    EXPECT_EQ(call("get_session_state").s["takeover"]["paused"], true) << "an XTEST click on Continue resumed";
    EXPECT_NE(overlay()->last_refusal().find("XTEST"), std::string::npos) << overlay()->last_refusal();
    // The person's click (this test's marked device), 1.5 s after xdotool's press.
    std::this_thread::sleep_for(1600ms);
    ::setenv("NISH_TEST_PERSON_DEVICE", nd_test::PERSON_POINTER_NAME, 1);
    nd_test::click_from(**display, person.master_pointer, person.pointer, cx, cy);
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            auto s = call("get_session_state");
            return !s.is_error && s.s["takeover"]["paused"] == false;
        },
        3s));
    auto stale = call("click", {{"element_token", box["element_token"]}, {"delivery_mode", "foreground"}});
    ASSERT_TRUE(stale.is_error);
    EXPECT_EQ(stale.s["error"]["code"], "stale_element_token");

    // end_session removes the indicator.
    ASSERT_FALSE(call("end_session").is_error);
    EXPECT_TRUE(overlay()->window_ids().empty());
}

} // namespace

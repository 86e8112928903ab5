// Every takeover act on the Linux backend, through the tools, on gtk3-widget-factory: each one's
// effect is read back from the app, not taken from the tool's word. double_click selects a word
// that typing then replaces; right_click opens the entry's context menu and press_key Escape shuts
// it; hotkey ctrl+a selects everything; press_key BackSpace deletes; scroll turns a slider's value;
// drag pulls a slider to the far end. And the person moving the pointer during a move_cursor glide
// stops it within a step with paused_reason pointer_moved.

#include "linux/x11_test_support.h"
#include "tool_test_support.h"

#include <cstdio>
#include <sstream>
#include <thread>

namespace {

using namespace std::chrono_literals;
using nd_test::OwnedApp;
using nlohmann::json;

class TakeoverActs : public nd_test::TakeoverAppTest {
protected:
    void SetUp() override { open_in_takeover({"gtk3-widget-factory"}, "gtk3-widget-factory", 200); }

    // The editable entry whose text is "entry" (the second of the first page's entries).
    json entry(const json& read)
    {
        for (const auto& row : read["elements"])
            if (row["role"] == "text" && row.value("value", "") == "entry" && has_state(row, "enabled") &&
                has_state(row, "editable") && has_state(row, "showing"))
                return row;
        return nullptr;
    }

    std::string value_of(const json& row) { return row_at(read_all(m_window), row).value("value", ""); }

    // Waits until `row`'s value (read afresh) satisfies `accept`; returns the last value seen.
    std::string wait_value(const json& row, const std::function<bool(const std::string&)>& accept)
    {
        std::string last;
        nd_test::wait_until(
            [&] {
                last = value_of(row);
                return accept(last);
            },
            3s);
        return last;
    }

    // Clicks into the entry (foreground), so that keys go to it.
    void focus(const json& row)
    {
        auto clicked = call("click", {{"element_token", row["element_token"]}, {"delivery_mode", "foreground"}});
        ASSERT_FALSE(clicked.is_error) << clicked.text;
        ASSERT_TRUE(nd_test::wait_until([&] { return has_state(row_at(read_all(m_window), row), "focused"); }, 3s));
    }

    // The first enabled, showing horizontal slider, wider than tall.
    json slider(const json& read)
    {
        for (const auto& row : read["elements"])
            if (row["role"] == "slider" && has_state(row, "enabled") && has_state(row, "showing") &&
                row.contains("frame") && row["frame"]["w"].get<int>() > 2 * row["frame"]["h"].get<int>())
                return row;
        return nullptr;
    }

    static double number(const std::string& s)
    {
        try {
            return std::stod(s);
        } catch (...) {
            return -1e300;
        }
    }

};

TEST_F(TakeoverActs, TypeTextPressKeyAndHotkeyEditTheEntry)
{
    auto e = entry(read_all(m_window));
    ASSERT_FALSE(e.is_null());
    // A foreground type_text clicks the entry (the caret lands after its short text) and types.
    auto typed = call("type_text", {{"element_token", e["element_token"]}, {"text", "nish"}, {"delivery_mode", "foreground"}});
    ASSERT_FALSE(typed.is_error) << typed.text;
    EXPECT_EQ(typed.s["typed_characters"], 4) << typed.text;
    EXPECT_EQ(wait_value(e, [](const std::string& v) { return v == "entrynish"; }), "entrynish");
    // press_key goes to the active window, whose focus is the entry.
    auto back = call("press_key", {{"key", "BackSpace"}});
    ASSERT_FALSE(back.is_error) << back.text;
    EXPECT_EQ(back.s["path"], "synthetic");
    EXPECT_EQ(wait_value(e, [](const std::string& v) { return v == "entrynis"; }), "entrynis");
    // ctrl+a selects everything, and the next key replaces it.
    auto all = call("hotkey", {{"keys", {"ctrl", "a"}}});
    ASSERT_FALSE(all.is_error) << all.text;
    ASSERT_FALSE(call("press_key", {{"key", "x"}}).is_error);
    EXPECT_EQ(wait_value(e, [](const std::string& v) { return v == "x"; }), "x");
}

TEST_F(TakeoverActs, DoubleClickSelectsTheWordThatAKeyThenReplaces)
{
    auto e = entry(read_all(m_window));
    ASSERT_FALSE(e.is_null());
    auto set = call("set_value", {{"element_token", e["element_token"]}, {"value", "alpha beta"}});
    ASSERT_FALSE(set.is_error) << set.text;
    ASSERT_EQ(wait_value(e, [](const std::string& v) { return v == "alpha beta"; }), "alpha beta");
    // The entry's centre lies past the end of its short text: a double click there selects the last word.
    auto fresh = row_at(read_all(m_window), e);
    auto dbl = call("double_click", {{"element_token", fresh["element_token"]}, {"delivery_mode", "foreground"}});
    ASSERT_FALSE(dbl.is_error) << dbl.text;
    EXPECT_EQ(dbl.s["path"], "synthetic");
    // As a model would: the entry reads focused before the key (GTK moves the focus on its own loop).
    ASSERT_TRUE(nd_test::wait_until([&] { return has_state(row_at(read_all(m_window), e), "focused"); }, 3s));
    ASSERT_FALSE(call("press_key", {{"key", "X"}}).is_error);
    EXPECT_EQ(wait_value(e, [](const std::string& v) { return v == "alpha X"; }), "alpha X");
}

TEST_F(TakeoverActs, RightClickOpensTheContextMenuAndEscapeShutsIt)
{
    auto e = entry(read_all(m_window));
    ASSERT_FALSE(e.is_null());
    // The context menu is a popup window of the app's own that was not there before.
    auto count = [&] {
        std::istringstream ids(nd_test::command_output(
            "xdotool search --onlyvisible --pid " + std::to_string(m_app->pid()) + " --name '' 2>/dev/null"));
        int n = 0;
        for (std::string l; std::getline(ids, l);)
            n += !l.empty();
        return n;
    };
    const int base = count();
    auto opened = call("right_click", {{"element_token", e["element_token"]}, {"delivery_mode", "foreground"}});
    ASSERT_FALSE(opened.is_error) << opened.text;
    EXPECT_EQ(opened.s["path"], "synthetic");
    ASSERT_TRUE(nd_test::wait_until([&] { return count() > base; }, 3s)) << "no menu appeared";
    // The menu holds the keyboard grab: Escape goes to it and shuts it. The active window is still the app's.
    auto esc = call("press_key", {{"key", "Escape"}});
    ASSERT_FALSE(esc.is_error) << esc.text;
    EXPECT_TRUE(nd_test::wait_until([&] { return count() == base; }, 3s)) << "the menu stayed open";
}

TEST_F(TakeoverActs, ScrollTurnsASlider)
{
    auto s = slider(read_all(m_window));
    ASSERT_FALSE(s.is_null()) << "no horizontal slider";
    const double before = number(value_of(s));
    auto up = call("scroll", {{"element_token", s["element_token"]}, {"direction", "up"}, {"amount", 5}});
    ASSERT_FALSE(up.is_error) << up.text;
    EXPECT_EQ(up.s["path"], "synthetic");
    auto after = wait_value(s, [&](const std::string& v) { return number(v) != before; });
    EXPECT_NE(number(after), before) << "value stayed " << after;
    const double turned = number(after);
    auto down = call("scroll", {{"element_token", s["element_token"]}, {"direction", "down"}, {"amount", 5}});
    ASSERT_FALSE(down.is_error) << down.text;
    auto back = wait_value(s, [&](const std::string& v) { return number(v) != turned; });
    EXPECT_NE(number(back), turned) << "down did not turn it back";
}

TEST_F(TakeoverActs, DragPullsASliderToTheFarEnd)
{
    auto read = read_all(m_window);
    auto s = slider(read);
    ASSERT_FALSE(s.is_null()) << "no horizontal slider";
    // Release over the rightmost element on the slider's own line or below it: past the trough's end.
    const auto& sf = s["frame"];
    json far;
    for (const auto& row : read["elements"])
        if (row.contains("frame") && has_state(row, "showing") && row["element_index"] != s["element_index"]) {
            const auto& f = row["frame"];
            const int cx = f["x"].get<int>() + f["w"].get<int>() / 2;
            if (cx > sf["x"].get<int>() + sf["w"].get<int>() + 20 && f["w"].get<int>() < 400 &&
                (far.is_null() || cx < far["frame"]["x"].get<int>() + far["frame"]["w"].get<int>() / 2))
                far = row;
        }
    ASSERT_FALSE(far.is_null()) << "nothing to the right of the slider";
    const double before = number(value_of(s));
    auto dragged = call("drag", {{"element_token", s["element_token"]}, {"to_token", far["element_token"]}});
    ASSERT_FALSE(dragged.is_error) << dragged.text;
    EXPECT_EQ(dragged.s["path"], "synthetic");
    auto after = wait_value(s, [&](const std::string& v) { return number(v) > before; });
    EXPECT_GT(number(after), before) << "the slider did not move right: " << after;
}

TEST_F(TakeoverActs, ThePersonMovingThePointerStopsAGlideWithinAStep)
{
    // The person's mouse moves the core pointer; the driver's check before each 10 ms step sees it
    // away from where the driver last put it. xdotool moves it from outside the driver.
    nd_test::ToolReply glide;
    std::thread mover([&] {
        glide = call("move_cursor", {{"window_id", m_window["window_id"]}, {"x", 5}, {"y", 5}, {"duration_ms", 3000},
                                     {"delivery_mode", "foreground"}});
    });
    std::this_thread::sleep_for(400ms);
    const auto t0 = std::chrono::steady_clock::now();
    nd_test::run_command({"xdotool", "mousemove_relative", "--", "60", "60"});
    mover.join();
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(glide.is_error) << glide.text;
    EXPECT_EQ(glide.s["error"]["code"], "user_took_over") << glide.text;
    EXPECT_EQ(glide.s["error"]["effect"], "stopped");
    EXPECT_EQ(glide.s["error"]["paused_reason"], "pointer_moved");
    // xdotool's own start-up counts here too; the glide had 2.6 s left.
    EXPECT_LT(ms, 500) << "stopped " << ms << " ms after the move, not within a step";
    std::printf("pointer moved -> glide returned: %lld ms (including xdotool's start)\n", static_cast<long long>(ms));
    auto state = call("get_session_state");
    EXPECT_EQ(state.s["takeover"]["paused"], true);
    EXPECT_EQ(state.s["takeover"]["paused_reason"], "pointer_moved");
}

} // namespace

// Another program's surface that no window manager places (a menu, a tooltip, a notification; here
// an attacker's client) over the element: the foreground click is refused as occluded and nothing
// is sent, where before the window list, which does not name such surfaces, let it through.
TEST_F(TakeoverActs, AnotherProgramsUnmanagedSurfaceOverTheElementOccludesIt)
{
    auto target = entry(read_all(m_window));
    ASSERT_FALSE(target.is_null());
    const auto& f = target["frame"];
    const int x = f["x"].get<int>() - 10, y = f["y"].get<int>() - 10;
    const int w = f["w"].get<int>() + 20, h = f["h"].get<int>() + 20;
    OwnedApp cover({std::string(NISH_SOURCE_DIR) + "/fixtures/apps/popup_surface.py", std::to_string(x), std::to_string(y),
                    std::to_string(w), std::to_string(h)});
    ASSERT_GT(cover.pid(), 0) << cover.error();
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            std::string out;
            if (FILE* pipe = ::popen("xwininfo -root -children", "r")) {
                char buffer[4096];
                for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
                    out.append(buffer, n);
                ::pclose(pipe);
            }
            return out.find(std::to_string(w) + "x" + std::to_string(h) + "+" + std::to_string(x) + "+" +
                            std::to_string(y)) != std::string::npos;
        },
        10s))
        << "the surface never showed";
    auto refused = call("click", {{"element_token", target["element_token"]}, {"delivery_mode", "foreground"}});
    ASSERT_TRUE(refused.is_error) << refused.text;
    EXPECT_EQ(refused.s["error"]["code"], "target_occluded") << refused.text;
    EXPECT_NE(refused.text.find("another program's menu, tooltip or notification"), std::string::npos) << refused.text;
    EXPECT_FALSE(has_state(row_at(read_all(m_window), target), "focused")) << "the click reached the entry";
}

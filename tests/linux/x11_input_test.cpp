// Takeover input over XTEST on the test desktop: pointer moves, clicks and keys reach a plain xcb
// window of the test's own, a character no key produces is typed on a borrowed keycode whose
// mapping is given back, and release_all leaves nothing held.

#include "linux/x11_input_support.h"
#include "linux/x11_test_support.h"

#include "backend/linux/x11/x11_input.h"
#include "backend/linux/x11/x11_keymap.h"
#include "backend/linux/x11/x11_windows.h"

#include <filesystem>
#include <fstream>
#include <thread>

using namespace std::chrono_literals;
using nd_core::MouseButton;
using nd_core::Point;
using nd_linux::Keysym;
using nd_linux::X11Keymap;
using nd_test::TestWindow;

namespace {

struct Driver {
    std::unique_ptr<nd_linux::X11Display> display;
    nd_linux::PressClock clock;
    std::unique_ptr<nd_linux::X11Input> input;

    Driver()
    {
        auto opened = nd_linux::X11Display::open();
        EXPECT_TRUE(opened.ok());
        if (!opened.ok())
            return;
        display = std::move(opened).value();
        EXPECT_TRUE(display->extensions().xtest);
        input = std::make_unique<nd_linux::X11Input>(*display, clock);
    }
};

// Makes the window active through the driver (and so tests raise_window on the way).
void activate(Driver& driver, TestWindow& window)
{
    nd_core::WindowInfo info;
    info.window_id = window.window;
    auto raised = driver.input->raise_window(info);
    ASSERT_TRUE(raised.ok()) << raised.error().message;
    ASSERT_TRUE(nd_test::wait_until([&] { return window.focus() == window.window; }, 2s));
}

// The keysym a KeyPress produced, read from the mapping as it is now.
Keysym pressed_keysym(TestWindow& window, const xcb_key_press_event_t& press)
{
    auto map = X11Keymap::load(*window.display, window.soon());
    if (!map.ok())
        return 0;
    auto row = map->keysyms_of(press.detail);
    if (row.empty())
        return 0;
    const bool shifted = (press.state & XCB_MOD_MASK_SHIFT) != 0 && row.size() > 1 && row[1] != 0;
    return row[shifted ? 1 : 0];
}

// Every key press of the window up to `timeout` after the last one, Shift presses left out.
std::vector<Keysym> typed_keysyms(TestWindow& window, std::size_t want, std::chrono::milliseconds timeout = 2s)
{
    std::vector<Keysym> out;
    while (out.size() < want) {
        auto e = window.wait_for(XCB_KEY_PRESS, timeout);
        if (!e)
            break;
        auto keysym = pressed_keysym(window, *reinterpret_cast<xcb_key_press_event_t*>(e.get()));
        if (keysym != nd_linux::KEYSYM_SHIFT_L)
            out.push_back(keysym);
    }
    return out;
}

} // namespace

TEST(X11Input, MovePointerThenPositionEquals)
{
    NISH_REQUIRE_DESKTOP();
    Driver driver;
    ASSERT_TRUE(driver.input);
    for (Point p : {Point{123, 77}, Point{5, 400}, Point{640, 300}}) {
        ASSERT_TRUE(driver.input->move_pointer(p).ok());
        auto at = driver.input->pointer_position();
        ASSERT_TRUE(at.ok());
        EXPECT_EQ(*at, p);
    }
}

TEST(X11Input, ClickArrivesInTheWindow)
{
    NISH_REQUIRE_DESKTOP();
    Driver driver;
    auto window = TestWindow::create();
    ASSERT_TRUE(driver.input && window.window);
    activate(driver, window);
    auto [x, y] = window.origin();
    ASSERT_GE(x, 0);
    EXPECT_TRUE(driver.clock.quiet());
    ASSERT_TRUE(driver.input->move_pointer({x + 50, y + 40}).ok());
    ASSERT_TRUE(driver.input->button(MouseButton::left, true).ok());
    ASSERT_TRUE(driver.input->button(MouseButton::left, false).ok());
    EXPECT_FALSE(driver.clock.quiet()); // the press was recorded for the dialog's 1.5 s rule

    auto e = window.wait_for(XCB_BUTTON_PRESS, 2s);
    ASSERT_TRUE(e);
    const auto* press = reinterpret_cast<xcb_button_press_event_t*>(e.get());
    EXPECT_EQ(press->detail, 1);
    EXPECT_EQ(press->event_x, 50);
    EXPECT_EQ(press->event_y, 40);
    EXPECT_TRUE(window.wait_for(XCB_BUTTON_RELEASE, 2s));

    // Wheel: one notch down is a press and release of button 5.
    ASSERT_TRUE(driver.input->scroll(0, 1).ok());
    auto wheel = window.wait_for(XCB_BUTTON_PRESS, 2s);
    ASSERT_TRUE(wheel);
    EXPECT_EQ(reinterpret_cast<xcb_button_press_event_t*>(wheel.get())->detail, 5);
    EXPECT_EQ(driver.input->held_count(), 0u);
}

TEST(X11Input, MiddleButtonIsRefused)
{
    NISH_REQUIRE_DESKTOP();
    Driver driver;
    ASSERT_TRUE(driver.input);
    auto pressed = driver.input->button(MouseButton::middle, true);
    ASSERT_FALSE(pressed.ok());
    EXPECT_EQ(pressed.error().code, nd_core::ErrorCode::unsupported);
    EXPECT_EQ(driver.input->held_count(), 0u);
}

TEST(X11Input, KeysArriveWithTheirKeysyms)
{
    NISH_REQUIRE_DESKTOP();
    Driver driver;
    auto window = TestWindow::create();
    ASSERT_TRUE(driver.input && window.window);
    activate(driver, window);
    for (char32_t c : {U'a', U'Z', U'1', U'!', U' ', U'\n'})
        ASSERT_TRUE(driver.input->type_char(c).ok());
    for (const char* name : {"Tab", "F5", "plus", "comma"}) {
        ASSERT_TRUE(driver.input->key(name, true).ok()) << name;
        ASSERT_TRUE(driver.input->key(name, false).ok()) << name;
    }
    std::vector<Keysym> want{'a', 'Z', '1', '!', ' ', 0xff0d, 0xff09, 0xffc2, '+', ','};
    EXPECT_EQ(typed_keysyms(window, want.size()), want);
    EXPECT_EQ(driver.input->held_count(), 0u);
    EXPECT_FALSE(driver.input->key("NoSuchKeyName", true).ok());
}

TEST(X11Input, CharacterWithoutAKeyIsTypedOnABorrowedKeycodeAndTheMappingRestored)
{
    NISH_REQUIRE_DESKTOP();
    Driver driver;
    auto window = TestWindow::create();
    ASSERT_TRUE(driver.input && window.window);
    activate(driver, window);
    auto before = X11Keymap::load(*window.display, window.soon());
    ASSERT_TRUE(before.ok());

    // Long enough for this test to read the borrowed mapping while it is still in place.
    driver.input->set_remap_settle(400ms);
    for (char32_t c : {U'ü', U'€', U'ж'}) {
        ASSERT_FALSE(before->find(nd_linux::keysym_for_char(c))) << "the test keyboard already has this character";
        nd_core::Result<void> typed = nd_core::Ok{};
        std::thread typist([&] { typed = driver.input->type_char(c); });
        auto got = typed_keysyms(window, 1);
        typist.join();
        ASSERT_TRUE(typed.ok()) << typed.error().message;
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0], nd_linux::keysym_for_char(c));
    }

    auto after = X11Keymap::load(*window.display, window.soon());
    ASSERT_TRUE(after.ok());
    const auto* setup = xcb_get_setup(window.display->connection());
    for (int k = setup->min_keycode; k <= setup->max_keycode; ++k)
        EXPECT_EQ(after->keysyms_of(static_cast<xcb_keycode_t>(k)), before->keysyms_of(static_cast<xcb_keycode_t>(k))) << "keycode " << k;
}

TEST(X11Input, ReleaseAllLeavesNothingHeld)
{
    NISH_REQUIRE_DESKTOP();
    Driver driver;
    auto window = TestWindow::create();
    ASSERT_TRUE(driver.input && window.window);
    activate(driver, window);
    auto [x, y] = window.origin();
    ASSERT_TRUE(driver.input->move_pointer({x + 20, y + 20}).ok());
    for (const char* name : {"Control_L", "a", "plus"})
        ASSERT_TRUE(driver.input->key(name, true).ok()) << name;
    ASSERT_TRUE(driver.input->button(MouseButton::left, true).ok());
    ASSERT_TRUE(driver.input->button(MouseButton::right, true).ok());
    EXPECT_EQ(driver.input->held_count(), 5u);

    auto* c = window.display->connection();
    auto keymap_down = [&] {
        auto reply = window.display->wait<xcb_query_keymap_reply_t>(xcb_query_keymap(c), window.soon());
        int down = 0;
        if (reply.ok() && reply.value())
            for (auto byte : reply.value()->keys)
                down += __builtin_popcount(byte);
        return down;
    };
    auto buttons_down = [&] {
        auto reply = window.display->wait<xcb_query_pointer_reply_t>(xcb_query_pointer(c, window.display->root()), window.soon());
        return reply.ok() && reply.value() ? reply.value()->mask & 0x1f00 : -1;
    };
    EXPECT_EQ(keymap_down(), 4); // Control_L, a, Shift_L, equal
    EXPECT_NE(buttons_down(), 0);

    ASSERT_TRUE(driver.input->release_all().ok());
    EXPECT_EQ(driver.input->held_count(), 0u);
    EXPECT_EQ(keymap_down(), 0);
    EXPECT_EQ(buttons_down(), 0);
}

// The kill switch's release path stays bounded when the server stops answering, and forgets what it
// held either way (a stopped server cannot be asked again; a dead one released it all itself).
TEST(X11Input, ReleaseAllIsBoundedWhenTheServerHangsOrDies)
{
    NISH_REQUIRE_DESKTOP();
    auto xvfb = nd_test::OwnXvfb::start();
    ASSERT_TRUE(xvfb.display) << "could not start an Xvfb of the test's own";
    nd_linux::PressClock clock;
    nd_linux::X11Input input(*xvfb.display, clock);
    ASSERT_TRUE(input.key("a", true).ok());
    ASSERT_TRUE(input.button(MouseButton::left, true).ok());
    ASSERT_EQ(input.held_count(), 2u);

    ::kill(xvfb.process->pid(), SIGSTOP);
    const auto start = std::chrono::steady_clock::now();
    auto released = input.release_all();
    const auto took = std::chrono::steady_clock::now() - start;
    ::kill(xvfb.process->pid(), SIGCONT);
    ASSERT_FALSE(released.ok());
    EXPECT_EQ(released.error().code, nd_core::ErrorCode::timed_out);
    EXPECT_LT(took, nd_linux::X11Input::RELEASE_TIMEOUT + 200ms);
    EXPECT_EQ(input.held_count(), 0u);

    ASSERT_TRUE(input.key("b", true).ok());
    xvfb.process->stop();
    EXPECT_FALSE(input.release_all().ok());
    EXPECT_EQ(input.held_count(), 0u);
}

// End to end with a real GTK app: what the driver types (including characters typed on a borrowed
// keycode, with the default settle time) is what the app's entry holds. zenity prints the entry's
// text when Return accepts the dialog.
TEST(X11Input, GtkEntryReceivesTypedText)
{
    NISH_REQUIRE_DESKTOP();
    Driver driver;
    ASSERT_TRUE(driver.input);
    const auto out_path = std::filesystem::temp_directory_path() / ("nish-x11-input-" + std::to_string(getpid()) + ".txt");
    nd_test::AppProcess zenity({"sh", "-c", "exec zenity --entry --title=nish-input-test > '" + out_path.string() + "'"});
    nd_linux::X11WindowSource windows(*driver.display);
    nd_core::WindowInfo target;
    ASSERT_TRUE(nd_test::wait_until([&] {
        auto listed = windows.list_windows();
        if (listed.ok())
            for (auto& w : *listed)
                if (w.title == "nish-input-test")
                    target = w;
        return target.window_id != 0;
    }, 10s));
    ASSERT_TRUE(driver.input->raise_window(target).ok());
    std::this_thread::sleep_for(200ms); // the entry takes focus once the dialog is active

    const std::u32string text = U"aZ1! üß€ж";
    for (char32_t c : text)
        ASSERT_TRUE(driver.input->type_char(c).ok());
    ASSERT_TRUE(driver.input->key("Return", true).ok());
    ASSERT_TRUE(driver.input->key("Return", false).ok());
    ASSERT_TRUE(nd_test::wait_until([&] {
        std::error_code ec;
        return std::filesystem::file_size(out_path, ec) > 0;
    }, 5s));

    std::ifstream in(out_path);
    std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove(out_path);
    EXPECT_EQ(got, "aZ1! \xc3\xbc\xc3\x9f\xe2\x82\xac\xd0\xb6\n");
}

// The person's-input watcher (XInput 2 raw events) on the test desktop: the driver's own XTEST input
// is ignored, and a press from another device is the person's. "The person" is a second master
// device (xinput create-master) whose XTEST slaves this test drives: input from a source device
// other than the core XTEST ones, as a physical keyboard or mouse would give.

#include "linux/person_input.h"
#include "linux/x11_input_support.h"
#include "linux/x11_test_support.h"

#include "backend/linux/x11/x11_input.h"
#include "backend/linux/x11/x11_watcher.h"

#include <xcb/xinput.h>
#include <xcb/xtest.h>

#include <algorithm>
#include <cstdio>

using namespace std::chrono_literals;
using nd_core::PersonInput;
using nd_test::TestWindow;

namespace {

using nd_test::PersonDevices;
using nd_test::PersonMaster;
using nd_test::find_person;
using nd_test::person_press;

std::optional<PersonInput> wait_poll(nd_linux::X11InputWatcher& watcher, std::chrono::milliseconds timeout)
{
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
        if (auto seen = watcher.poll())
            return seen;
        std::this_thread::sleep_for(100us);
    }
    return std::nullopt;
}

} // namespace

TEST(X11InputWatcher, IgnoresTheDriversOwnInput)
{
    NISH_REQUIRE_DESKTOP();
    auto watcher = nd_linux::X11InputWatcher::open();
    ASSERT_TRUE(watcher.ok()) << watcher.error().message;
    EXPECT_FALSE((*watcher)->ignored_devices().empty());

    auto display = nd_linux::X11Display::open();
    ASSERT_TRUE(display.ok());
    nd_linux::PressClock clock;
    nd_linux::X11Input input(**display, clock);
    auto window = TestWindow::create();
    ASSERT_TRUE(window.window);
    auto [x, y] = window.origin();

    (*watcher)->reset();
    ASSERT_TRUE(input.move_pointer({x + 30, y + 30}).ok());
    ASSERT_TRUE(input.button(nd_core::MouseButton::left, true).ok());
    ASSERT_TRUE(input.button(nd_core::MouseButton::left, false).ok());
    ASSERT_TRUE(input.scroll(0, 2).ok());
    ASSERT_TRUE(input.type_char(U'q').ok());
    ASSERT_TRUE(input.type_char(U'Q').ok());
    ASSERT_TRUE(input.key("Escape", true).ok());
    ASSERT_TRUE(input.key("Escape", false).ok());
    // Presses: 1 button, 2 wheel, q, Shift+Q, Escape: 7, plus the move.
    ASSERT_TRUE(nd_test::wait_until([&] { return (*watcher)->driver_events() >= 8; }, 2s))
        << (*watcher)->driver_events();
    std::this_thread::sleep_for(100ms);
    EXPECT_FALSE((*watcher)->poll().has_value());
    EXPECT_TRUE((*watcher)->healthy());
}

TEST(X11InputWatcher, ReportsThePersonsPressesQuickly)
{
    NISH_REQUIRE_DESKTOP();
    PersonMaster master;
    ASSERT_TRUE(master.created) << "xinput create-master failed";
    auto display = nd_linux::X11Display::open();
    ASSERT_TRUE(display.ok());
    PersonDevices person;
    ASSERT_TRUE(nd_test::wait_until([&] {
        person = find_person(**display);
        return person.keyboard && person.pointer;
    }, 3s));

    auto watcher = nd_linux::X11InputWatcher::open();
    ASSERT_TRUE(watcher.ok()) << watcher.error().message;
    EXPECT_FALSE((*watcher)->ignored_devices().contains(person.keyboard));
    EXPECT_FALSE((*watcher)->ignored_devices().contains(person.pointer));

    (*watcher)->reset();
    EXPECT_FALSE((*watcher)->poll().has_value());
    person_press(**display, person.keyboard, true, 38);
    EXPECT_EQ(wait_poll(**watcher, 2s), PersonInput::key_pressed);
    // It stays reported until the next reset.
    EXPECT_EQ((*watcher)->poll(), PersonInput::key_pressed);

    (*watcher)->reset();
    EXPECT_FALSE((*watcher)->poll().has_value());
    person_press(**display, person.pointer, false, 1);
    EXPECT_EQ(wait_poll(**watcher, 2s), PersonInput::button_pressed);

    // Latency from the person's press (sent and flushed) to poll() seeing it.
    std::vector<double> ms;
    for (int i = 0; i < 50; ++i) {
        (*watcher)->reset();
        const auto start = std::chrono::steady_clock::now();
        person_press(**display, person.keyboard, true, 50); // Shift_L: types nothing anywhere
        if (!wait_poll(**watcher, 2s))
            break;
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    ASSERT_EQ(ms.size(), 50u);
    std::sort(ms.begin(), ms.end());
    std::printf("person press -> poll(): p50 %.3f ms, p99 %.3f ms, max %.3f ms over %zu presses\n", ms[ms.size() / 2],
        ms[ms.size() * 99 / 100], ms.back(), ms.size());
    EXPECT_LT(ms[ms.size() / 2], 50.0);
    EXPECT_TRUE((*watcher)->healthy());
}

TEST(X11InputWatcher, StopsPromptly)
{
    NISH_REQUIRE_DESKTOP();
    auto watcher = nd_linux::X11InputWatcher::open();
    ASSERT_TRUE(watcher.ok());
    auto owned = std::move(watcher).value();
    std::this_thread::sleep_for(20ms); // let the thread settle into its wait
    const auto start = std::chrono::steady_clock::now();
    owned.reset(); // the destructor stops and joins the thread
    EXPECT_LT(std::chrono::steady_clock::now() - start, nd_linux::X11InputWatcher::TICK + 100ms);
}

// The native consent dialog on the test desktop. Only the person answers Allow and the takeover and
// clipboard lines: the test's marked person device (person_input.h) grants; xdotool's clicks (the core
// XTEST device), a click sent in a physical device's name through XTEST (caught by the RECORD watch),
// SendEvent clicks, a click right after the driver's own press and the keyboard do nothing. Deny
// denies from any device; a timeout and closing the window deny. App names are cleaned and bounded.

#include "linux/consent_probe.h"
#include "linux/lsan_fontconfig.h"
#include "linux/person_input.h"
#include "linux/x11_test_support.h"

#include "backend/linux/x11/x11_consent_dialog.h"

#include <gtest/gtest.h>

#include <future>
#include <optional>


namespace {

using namespace std::chrono_literals;
using nd_core::ConsentGrant;
using nd_core::ConsentRequest;
using nd_linux::ConsentRect;
using nd_linux::X11ConsentDialog;

struct Found {
    xcb_window_t window = 0;
    int x = 0, y = 0; // the window's origin on the root
};

class ConsentDialogTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_DESKTOP();
        auto display = nd_linux::X11Display::open();
        ASSERT_TRUE(display) << display.error().text();
        m_display = std::move(display).value();
        m_rule.start();
        m_person = std::make_unique<nd_test::PersonPointer>(*m_display);
        ASSERT_TRUE(m_person->ready()) << "xinput create-master person";
    }

    std::optional<Found> find_dialog()
    {
        auto shown = nd_test::find_consent_dialog(*m_display);
        return shown ? std::optional<Found>(Found{shown->window, shown->frame.x, shown->frame.y}) : std::nullopt;
    }

    // Waits until the dialog is shown and placed, and until the rule's watch of synthetic input has
    // the 1.5 s of history it asks for.
    Found wait_for_dialog()
    {
        auto shown = nd_test::wait_for_consent_dialog(*m_display);
        if (!shown) {
            ADD_FAILURE() << "the consent dialog did not appear";
            return {};
        }
        std::this_thread::sleep_until(m_rule.watching_since() + nd_linux::PersonRule::QUIET + 50ms);
        return Found{shown->window, shown->frame.x, shown->frame.y};
    }

    std::future<nd_core::Result<ConsentGrant>> ask_async(X11ConsentDialog& dialog, ConsentRequest req)
    {
        return std::async(std::launch::async, [&dialog, req] { return dialog.ask(req); });
    }

    // The person's click: the marked device of this test executable.
    void click(const Found& at, const ConsentRect& r) { m_person->click(at.x + r.center_x(), at.y + r.center_y()); }

    // A click of any other local program: xdotool moves the core pointer and clicks through XTEST.
    // xdotool now and then fails on a busy machine before sending anything; one retry covers that.
    static void xdotool_click(const Found& at, const ConsentRect& r)
    {
        const std::vector<std::string> argv{"xdotool", "mousemove", std::to_string(at.x + r.center_x()),
            std::to_string(at.y + r.center_y()), "click", "1"};
        if (nd_test::run_command(argv) == 0)
            return;
        std::this_thread::sleep_for(100ms);
        ASSERT_EQ(nd_test::run_command(argv), 0);
    }

    static ConsentGrant answer(std::future<nd_core::Result<ConsentGrant>>& f)
    {
        EXPECT_EQ(f.wait_for(10s), std::future_status::ready);
        auto result = f.get();
        EXPECT_TRUE(result) << result.error().text();
        return result.ok() ? result.value() : ConsentGrant{};
    }

    static bool still_open(std::future<nd_core::Result<ConsentGrant>>& f)
    {
        return f.wait_for(500ms) == std::future_status::timeout;
    }

    static ConsentRequest request(bool takeover = false, bool clipboard = false)
    {
        return ConsentRequest{{"gtk3-widget-factory", "Mousepad"}, takeover, clipboard, 900};
    }

    nd_linux::PressClock m_clock;
    nd_linux::PersonRule m_rule{"", m_clock};
    std::unique_ptr<nd_linux::X11Display> m_display;
    std::unique_ptr<nd_test::PersonPointer> m_person;
};

TEST_F(ConsentDialogTest, AllowGrantsTheAppsWithTakeoverUnticked)
{
    X11ConsentDialog dialog("", m_rule, 30s);
    auto req = request(true, true);
    auto f = ask_async(dialog, req);
    auto at = wait_for_dialog();
    click(at, X11ConsentDialog::layout(req).allow);
    auto grant = answer(f);
    EXPECT_TRUE(grant.allowed) << dialog.last_refusal();
    EXPECT_EQ(grant.apps, req.apps);
    EXPECT_FALSE(grant.takeover);
    EXPECT_FALSE(grant.clipboard_read);
    EXPECT_FALSE(find_dialog()) << "the window is destroyed before ask() returns";
}

TEST_F(ConsentDialogTest, TickingTheTakeoverLineGrantsTakeover)
{
    X11ConsentDialog dialog("", m_rule, 30s);
    auto req = request(true, true);
    auto layout = X11ConsentDialog::layout(req);
    ASSERT_TRUE(layout.takeover_box && layout.clipboard_box);
    auto f = ask_async(dialog, req);
    auto at = wait_for_dialog();
    click(at, *layout.takeover_box);
    click(at, layout.allow);
    auto grant = answer(f);
    EXPECT_TRUE(grant.allowed) << dialog.last_refusal();
    EXPECT_TRUE(grant.takeover) << dialog.last_refusal();
    EXPECT_FALSE(grant.clipboard_read);
}

TEST_F(ConsentDialogTest, TickingBothLinesGrantsBoth)
{
    X11ConsentDialog dialog("", m_rule, 30s);
    auto req = request(true, true);
    auto layout = X11ConsentDialog::layout(req);
    auto f = ask_async(dialog, req);
    auto at = wait_for_dialog();
    click(at, *layout.clipboard_box);
    click(at, *layout.takeover_box);
    click(at, layout.allow);
    auto grant = answer(f);
    EXPECT_TRUE(grant.allowed) << dialog.last_refusal();
    EXPECT_TRUE(grant.takeover) << dialog.last_refusal();
    EXPECT_TRUE(grant.clipboard_read) << dialog.last_refusal();
}

TEST_F(ConsentDialogTest, DenyDenies)
{
    X11ConsentDialog dialog("", m_rule, 30s);
    auto req = request(true);
    auto f = ask_async(dialog, req);
    auto at = wait_for_dialog();
    click(at, X11ConsentDialog::layout(req).deny);
    auto grant = answer(f);
    EXPECT_FALSE(grant.allowed);
    EXPECT_TRUE(grant.apps.empty());
    EXPECT_FALSE(grant.takeover);
}

// The issue this rule came from: any local program (here xdotool, as an agent's shell could run it)
// ticked the takeover line and pressed Allow. Neither counts now; Deny from it still does.
TEST_F(ConsentDialogTest, AnotherProgramsClicksAllowNothingButMayDeny)
{
    X11ConsentDialog dialog("", m_rule, 30s);
    auto req = request(true, true);
    auto layout = X11ConsentDialog::layout(req);
    auto f = ask_async(dialog, req);
    auto at = wait_for_dialog();
    xdotool_click(at, *layout.takeover_box);
    xdotool_click(at, layout.allow);
    EXPECT_TRUE(still_open(f)) << "an XTEST click allowed";
    EXPECT_NE(dialog.last_refusal().find("XTEST"), std::string::npos) << dialog.last_refusal();
    // The person's Allow, 1.5 s after the last synthetic press: the takeover line stayed unticked.
    std::this_thread::sleep_for(nd_linux::PersonRule::QUIET);
    click(at, layout.allow);
    auto grant = answer(f);
    EXPECT_TRUE(grant.allowed) << dialog.last_refusal();
    EXPECT_FALSE(grant.takeover) << "xdotool's click on the takeover line ticked it";

    X11ConsentDialog second("", m_rule, 30s);
    auto g = ask_async(second, req);
    auto again = wait_for_dialog();
    xdotool_click(again, layout.deny);
    EXPECT_FALSE(answer(g).allowed);
}

// XTEST can send a click in the name of a physical device (here Xvfb's own mouse, which is no XTEST
// device): the device rule alone would take it. The RECORD watch sees the FakeInput request.
TEST_F(ConsentDialogTest, AClickSentInAPhysicalDevicesNameIsIgnored)
{
    if (!m_display->extensions().record)
        GTEST_SKIP() << "this X server has no RECORD";
    const auto mouse = nd_test::device_id(*m_display, "Xvfb mouse");
    const auto core = nd_test::device_id(*m_display, "Virtual core pointer");
    if (mouse == 0 || core == 0)
        GTEST_SKIP() << "no physical slave pointer to impersonate";
    X11ConsentDialog dialog("", m_rule, 30s);
    auto req = request(true);
    auto layout = X11ConsentDialog::layout(req);
    auto f = ask_async(dialog, req);
    auto at = wait_for_dialog();
    nd_test::click_from(*m_display, core, mouse, at.x + layout.takeover_box->center_x(), at.y + layout.takeover_box->center_y());
    nd_test::click_from(*m_display, core, mouse, at.x + layout.allow.center_x(), at.y + layout.allow.center_y());
    EXPECT_TRUE(still_open(f)) << "a click forged in Xvfb mouse's name allowed";
    EXPECT_NE(dialog.last_refusal().find("synthetic"), std::string::npos) << dialog.last_refusal();
    click(at, layout.deny);
    EXPECT_FALSE(answer(f).allowed);
}

TEST_F(ConsentDialogTest, SentEventClicksAreIgnored)
{
    X11ConsentDialog dialog("", m_rule, 30s);
    auto req = request();
    auto layout = X11ConsentDialog::layout(req);
    auto f = ask_async(dialog, req);
    auto at = wait_for_dialog();
    for (std::uint8_t type : {XCB_BUTTON_PRESS, XCB_BUTTON_RELEASE}) {
        xcb_button_press_event_t event{};
        event.response_type = type;
        event.detail = 1;
        event.root = m_display->root();
        event.event = at.window;
        event.event_x = static_cast<std::int16_t>(layout.allow.center_x());
        event.event_y = static_cast<std::int16_t>(layout.allow.center_y());
        event.root_x = static_cast<std::int16_t>(at.x + layout.allow.center_x());
        event.root_y = static_cast<std::int16_t>(at.y + layout.allow.center_y());
        event.same_screen = 1;
        const std::uint32_t mask = type == XCB_BUTTON_PRESS ? XCB_EVENT_MASK_BUTTON_PRESS : XCB_EVENT_MASK_BUTTON_RELEASE;
        xcb_send_event(m_display->connection(), 0, at.window, mask, reinterpret_cast<const char*>(&event));
    }
    xcb_flush(m_display->connection());
    EXPECT_TRUE(still_open(f));
    click(at, layout.deny);
    EXPECT_FALSE(answer(f).allowed);
}

TEST_F(ConsentDialogTest, AClickRightAfterTheDriversPressIsIgnored)
{
    X11ConsentDialog dialog("", m_rule, 30s);
    auto req = request();
    auto layout = X11ConsentDialog::layout(req);
    auto f = ask_async(dialog, req);
    auto at = wait_for_dialog();
    m_clock.record_press();
    click(at, layout.allow);
    EXPECT_TRUE(still_open(f));
    EXPECT_NE(dialog.last_refusal().find("this driver"), std::string::npos) << dialog.last_refusal();
    // Once the driver has been quiet for 1.5 s, the same click counts.
    std::this_thread::sleep_for(nd_linux::PressClock::QUIET);
    click(at, layout.allow);
    EXPECT_TRUE(answer(f).allowed) << dialog.last_refusal();
}

TEST_F(ConsentDialogTest, KeysDoNothing)
{
    X11ConsentDialog dialog("", m_rule, 30s);
    auto req = request();
    auto f = ask_async(dialog, req);
    auto at = wait_for_dialog();
    // Return as XTEST input to whatever has focus, then sent straight to the dialog's window.
    EXPECT_EQ(nd_test::run_command({"xdotool", "key", "Return", "space"}), 0);
    EXPECT_EQ(nd_test::run_command({"xdotool", "key", "--window", std::to_string(at.window), "Return"}), 0);
    EXPECT_TRUE(still_open(f));
    click(at, X11ConsentDialog::layout(req).deny);
    EXPECT_FALSE(answer(f).allowed);
}

TEST_F(ConsentDialogTest, TheTimeoutDenies)
{
    X11ConsentDialog dialog("", m_rule, 800ms);
    const auto start = std::chrono::steady_clock::now();
    auto grant = dialog.ask(request(true));
    ASSERT_TRUE(grant) << grant.error().text();
    EXPECT_FALSE(grant->allowed);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 800ms);
    EXPECT_FALSE(find_dialog());
}

TEST_F(ConsentDialogTest, ClosingTheWindowDenies)
{
    X11ConsentDialog dialog("", m_rule, 30s);
    auto f = ask_async(dialog, request());
    auto at = wait_for_dialog();
    // What a window manager sends when the person closes the window.
    EXPECT_EQ(nd_test::run_command({"xdotool", "windowclose", std::to_string(at.window)}), 0);
    EXPECT_FALSE(answer(f).allowed);
}

TEST(ConsentDialogNoDisplay, NoDisplayIsBackendUnavailable)
{
    nd_linux::PressClock clock;
    nd_linux::PersonRule rule(":987", clock);
    X11ConsentDialog dialog(":987", rule, 1s);
    auto grant = dialog.ask(ConsentRequest{{"a"}, false, false, 60});
    ASSERT_FALSE(grant);
    EXPECT_EQ(grant.error().code, nd_core::ErrorCode::backend_unavailable);
}

TEST(ConsentLayout, AppNamesAreCleanedAndBounded)
{
    using nd_linux::clean_app_name;
    EXPECT_EQ(clean_app_name("Mouse\npad\x1b[31m"), "Mousepad[31m");
    EXPECT_EQ(clean_app_name("evil\u202Etxt.exe"), "eviltxt.exe");
    EXPECT_EQ(clean_app_name("  \t "), "(unnamed app)");
    EXPECT_EQ(clean_app_name(std::string(200, 'a')), std::string(64, 'a') + "\u2026");
    EXPECT_EQ(clean_app_name("caf\xc3\xa9\xff"), "caf\u00e9");

    ConsentRequest req;
    for (int i = 0; i < 25; ++i)
        req.apps.push_back("app" + std::to_string(i));
    req.lease_s = 61;
    auto layout = nd_linux::layout_consent(req);
    ASSERT_EQ(layout.texts.size(), 1u + 20u + 1u + 1u); // header, 20 apps, "and 5 more", lease
    EXPECT_EQ(layout.texts[21].text, "and 5 more");
    EXPECT_EQ(layout.texts[22].text, "for 2 minutes");
    EXPECT_FALSE(layout.takeover);
    EXPECT_FALSE(layout.clipboard);
    EXPECT_EQ(layout.hit(layout.allow.center_x(), layout.allow.center_y()), nd_linux::ConsentControl::allow);
    EXPECT_EQ(layout.hit(layout.deny.center_x(), layout.deny.center_y()), nd_linux::ConsentControl::deny);
    EXPECT_EQ(layout.hit(1, 1), nd_linux::ConsentControl::none);
    EXPECT_LE(layout.allow.y + layout.allow.height, layout.height);
}

} // namespace

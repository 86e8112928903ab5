// The native confirm dialog on the test desktop (docs/confirm.md). Only the person allows: the
// test's marked person device (a separate input device, person_input.h) allows; xdotool's click
// (XTEST, as another local program or an agent's shell would send it) and the keyboard do nothing;
// Deny from any device, the timeout and a stop refuse. It names the call, and never the first
// characters of a password. It is shown within 100 ms (measured in bench/, checked loosely here).

#include "linux/consent_probe.h"
#include "linux/lsan_fontconfig.h"
#include "linux/person_input.h"
#include "linux/x11_test_support.h"

#include "backend/linux/x11/x11_confirm_dialog.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>

namespace {

using namespace std::chrono_literals;
using nd_core::ConfirmOutcome;
using nd_core::ConfirmRequest;
using nd_core::ConfirmWait;
using nd_linux::ConsentRect;
using nd_linux::X11ConfirmDialog;

class ConfirmDialogTest : public ::testing::Test {
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

    nd_test::ShownDialog wait_for_dialog()
    {
        auto shown = nd_test::wait_for_consent_dialog(*m_display, 10s, X11ConfirmDialog::WM_CLASS_NAME);
        if (!shown) {
            ADD_FAILURE() << "the confirm dialog did not appear";
            return {};
        }
        std::this_thread::sleep_until(m_rule.watching_since() + nd_linux::PersonRule::QUIET + 50ms);
        return *shown;
    }

    std::future<nd_core::Result<ConfirmOutcome>> ask_async(ConfirmRequest req, ConfirmWait wait = {30s, {}})
    {
        return std::async(std::launch::async, [this, req, wait] { return m_dialog.ask(req, wait); });
    }

    void click(const nd_test::ShownDialog& at, const ConsentRect& r)
    {
        m_person->click(at.frame.x + r.center_x(), at.frame.y + r.center_y());
    }

    static ConfirmOutcome answer(std::future<nd_core::Result<ConfirmOutcome>>& f)
    {
        EXPECT_EQ(f.wait_for(10s), std::future_status::ready);
        auto result = f.get();
        EXPECT_TRUE(result) << result.error().text();
        return result.ok() ? *result : ConfirmOutcome::refused;
    }

    static bool still_open(std::future<nd_core::Result<ConfirmOutcome>>& f)
    {
        return f.wait_for(500ms) == std::future_status::timeout;
    }

    static ConfirmRequest typing()
    {
        ConfirmRequest req;
        req.verb = "desk_type";
        req.app = "Mousepad";
        req.window = "Untitled 1 - Mousepad";
        req.text_chars = 40;
        req.text_start = "Dear Ada, th";
        return req;
    }

    nd_linux::PressClock m_clock;
    nd_linux::PersonRule m_rule{"", m_clock};
    X11ConfirmDialog m_dialog{"", m_rule};
    std::unique_ptr<nd_linux::X11Display> m_display;
    std::unique_ptr<nd_test::PersonPointer> m_person;
};

TEST_F(ConfirmDialogTest, ThePersonsClickAllowsAndTheDialogIsGoneAfterwards)
{
    const auto req = typing();
    auto f = ask_async(req);
    auto at = wait_for_dialog();
    EXPECT_FALSE(nd_test::find_consent_dialog(*m_display)) << "it is not the consent dialog's class";
    click(at, X11ConfirmDialog::layout(req, 30s).allow);
    EXPECT_EQ(answer(f), ConfirmOutcome::allowed) << m_dialog.last_refusal();
    EXPECT_FALSE(nd_test::find_consent_dialog(*m_display, X11ConfirmDialog::WM_CLASS_NAME));
}

TEST_F(ConfirmDialogTest, AnotherProgramsClickAndKeysDoNotAllowButItsDenyRefuses)
{
    const auto req = typing();
    const auto layout = X11ConfirmDialog::layout(req, 30s);
    auto f = ask_async(req);
    auto at = wait_for_dialog();
    const auto allow = nd_test::control_centre(at, layout.allow);
    EXPECT_EQ(nd_test::run_command({"xdotool", "mousemove", std::to_string(allow.x), std::to_string(allow.y), "click", "1"}), 0);
    EXPECT_EQ(nd_test::run_command({"xdotool", "key", "--window", std::to_string(at.window), "Return"}), 0);
    EXPECT_TRUE(still_open(f)) << "an XTEST click or a key allowed";
    EXPECT_NE(m_dialog.last_refusal().find("XTEST"), std::string::npos) << m_dialog.last_refusal();
    const auto deny = nd_test::control_centre(at, layout.deny);
    EXPECT_EQ(nd_test::run_command({"xdotool", "mousemove", std::to_string(deny.x), std::to_string(deny.y), "click", "1"}), 0);
    EXPECT_EQ(answer(f), ConfirmOutcome::refused);
}

TEST_F(ConfirmDialogTest, ThePersonsDenyRefuses)
{
    const auto req = typing();
    auto f = ask_async(req);
    auto at = wait_for_dialog();
    click(at, X11ConfirmDialog::layout(req, 30s).deny);
    EXPECT_EQ(answer(f), ConfirmOutcome::refused);
}

TEST_F(ConfirmDialogTest, TheTimeoutAndAStopEndItWithoutAnAllow)
{
    const auto start = std::chrono::steady_clock::now();
    auto late = m_dialog.ask(typing(), {700ms, {}});
    ASSERT_TRUE(late) << late.error().text();
    EXPECT_EQ(*late, ConfirmOutcome::timed_out);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 700ms);
    EXPECT_FALSE(nd_test::find_consent_dialog(*m_display, X11ConfirmDialog::WM_CLASS_NAME));

    std::atomic<bool> stop{false};
    auto f = ask_async(typing(), {30s, [&stop] { return stop.load(); }});
    (void)wait_for_dialog();
    stop = true;
    EXPECT_EQ(answer(f), ConfirmOutcome::stopped);
}

TEST_F(ConfirmDialogTest, ItIsOnScreenQuickly)
{
    std::atomic<std::int64_t> shown_us{0};
    const auto start = std::chrono::steady_clock::now();
    m_dialog.set_on_shown([&] {
        shown_us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
    });
    auto outcome = m_dialog.ask(typing(), {300ms, {}});
    ASSERT_TRUE(outcome) << outcome.error().text();
    // The 100 ms target is measured in bench/confirm_dialog_bench; here only that it was shown at all
    // within the wait.
    EXPECT_GT(shown_us.load(), 0);
    EXPECT_LT(shown_us.load(), 300'000);
}

TEST(ConfirmLayout, NamesTheCallAndNeverAPasswordsStart)
{
    ConfirmRequest req;
    req.verb = "desk_type";
    req.app = "Mouse\npad";
    req.window = "Notes \u202e evil";
    req.target = "the text \u201cBody\u201d";
    req.text_chars = 40;
    req.text_start = "Dear Ada, th";
    auto layout = nd_linux::layout_confirm(req, 30);
    std::vector<std::string> lines;
    for (const auto& t : layout.texts)
        lines.push_back(t.text);
    ASSERT_EQ(lines.size(), 7u);
    EXPECT_EQ(lines[1], "Action: type");
    EXPECT_EQ(lines[2], "App: Mousepad");
    EXPECT_EQ(lines[3], "Window: Notes  evil");
    EXPECT_EQ(lines[4], "On: the text \u201cBody\u201d");
    EXPECT_EQ(lines[5], "Text: 40 characters, starting \u201cDear Ada, th\u2026\u201d");
    EXPECT_EQ(lines[6], "No answer within 30 s counts as Deny.");
    EXPECT_EQ(layout.hit(layout.allow.center_x(), layout.allow.center_y()), nd_linux::ConsentControl::allow);
    EXPECT_LE(layout.allow.y + layout.allow.height, layout.height);

    req.secure = true; // whatever the caller put there, a password field shows no characters
    req.text_start = "hunter2";
    layout = nd_linux::layout_confirm(req, 30);
    EXPECT_EQ(layout.texts[5].text, "Text: 40 characters (a password field: not shown)");
    for (const auto& t : layout.texts)
        EXPECT_EQ(t.text.find("hunter"), std::string::npos) << t.text;
}

} // namespace

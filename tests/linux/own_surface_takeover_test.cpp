// nish-driver's own takeover input never lands on a nish surface. With a consent dialog up over
// gtk3-widget-factory (as a second driver on the display would show it), a foreground click on an
// element whose centre lies under the dialog is refused with reserved_for_person before anything is
// sent: the dialog stays up and saw no click at all.

#include "linux/consent_probe.h"
#include "linux/lsan_fontconfig.h"
#include "linux/person_input.h"
#include "tool_test_support.h"

#include "backend/linux/x11/x11_consent_dialog.h"

#include <future>

namespace {

using namespace std::chrono_literals;
using nd_test::OwnedApp;
using nlohmann::json;

class OwnSurfaceTakeover : public nd_test::LinuxToolTest {};

TEST_F(OwnSurfaceTakeover, AForegroundClickUnderTheConsentDialogIsRefused)
{
    if (!backend().input() || !backend().watcher() || !backend().overlay())
        GTEST_SKIP() << "this X server lacks XTEST, XInput 2.1 or SHAPE";
    OwnedApp app({"gtk3-widget-factory"});
    auto window = wait_for_window(app, "gtk3-widget-factory", 200, 30s);
    ASSERT_FALSE(window.is_null());
    auto started = call("start_session", {{"apps", {"gtk3-widget-factory"}}, {"input", "takeover"}});
    ASSERT_FALSE(started.is_error) << started.text;
    ASSERT_EQ(started.s["takeover"]["on"], true) << started.s.dump();
    ASSERT_FALSE(call("bring_to_front", {{"window_id", window["window_id"]}}).is_error);

    auto display = nd_linux::X11Display::open();
    ASSERT_TRUE(display.ok()) << display.error().text();
    nd_linux::PressClock clock;
    nd_linux::PersonRule rule("", clock);
    nd_linux::X11ConsentDialog dialog("", rule, 20s);
    const nd_core::ConsentRequest req{{"another app"}, true, false, 600};
    auto answer = std::async(std::launch::async, [&] { return dialog.ask(req); });
    const auto shown = nd_test::wait_for_consent_dialog(**display);
    ASSERT_TRUE(shown) << "the consent dialog did not show";
    const auto rect = shown->frame;

    // An element of the app whose centre the dialog covers.
    const auto all = read_all(window);
    json target;
    for (const auto& row : all["elements"]) {
        if (!row.contains("frame") || row["frame"].is_null() || !has_state(row, "showing") || !has_state(row, "enabled"))
            continue;
        const auto& f = row["frame"];
        const int cx = f["x"].get<int>() + f["w"].get<int>() / 2, cy = f["y"].get<int>() + f["h"].get<int>() / 2;
        if (f["w"].get<int>() > 0 && f["h"].get<int>() > 0 && f["w"].get<int>() < rect.w && rect.contains(cx, cy)) {
            target = row;
            break;
        }
    }
    ASSERT_FALSE(target.is_null()) << "no element of the app lies under the dialog";
    auto refused = call("click", {{"element_token", target["element_token"]}, {"delivery_mode", "foreground"}});
    ASSERT_TRUE(refused.is_error) << refused.text;
    EXPECT_EQ(refused.s["error"]["code"], "reserved_for_person") << refused.text;
    EXPECT_EQ(answer.wait_for(500ms), std::future_status::timeout) << "the dialog was answered";
    EXPECT_EQ(dialog.last_refusal(), "") << "a click reached the dialog";

    // A no may come from anywhere: another program's click on Deny closes it.
    const auto deny = nd_test::control_centre(*shown, nd_linux::X11ConsentDialog::layout(req).deny);
    ASSERT_EQ(nd_test::run_command({"xdotool", "mousemove", std::to_string(deny.x), std::to_string(deny.y), "click", "1"}), 0);
    ASSERT_EQ(answer.wait_for(5s), std::future_status::ready);
    auto grant = answer.get();
    ASSERT_TRUE(grant.ok()) << grant.error().text();
    EXPECT_FALSE(grant->allowed);
    ASSERT_FALSE(call("end_session").is_error);
}

} // namespace

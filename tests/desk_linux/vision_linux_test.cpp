// The vision verbs on the real Linux backend, on the virtual desktop with real apps
// (gtk3-widget-factory, zenity, gtk3-demo, xmessage under openbox's title bars, a GTK 3 task panel,
// a Chromium page).
// Every effect is read back from the app through a fresh read, never taken from the verb's word:
// computer_state lists the windows and elements whose centres land on them (a click by index
// toggles a real check button); screenshot pixels map by the scale at max_edge 512 and 0; an
// action list types into a field and presses a button, with typed N of M and the closed window
// named; launch_app names the window it opened; off-screen points and a hidden button are refused;
// a password field is black in every picture; title_at tells a title bar or a panel's task button
// from a window body or a panel's clock; an
// ended session is refused; and the allowlist, the takeover lock and a safety stop hold.

#include "desk_linux/desk_fixture.h"
#include "linux/browser_acts.h"

#include "backend/linux/x11/x11_display_lock.h"
#include "desk/desk_shot.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <future>
#include <set>
#include <jpeglib.h>

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using nd_test::Reply;

constexpr std::size_t FACTORY_ELEMENTS = 200;

struct Jpeg {
    std::int32_t width = 0, height = 0;
    std::vector<std::uint8_t> rgb;
    const std::uint8_t* at(std::int32_t x, std::int32_t y) const { return rgb.data() + (static_cast<std::size_t>(y) * width + x) * 3; }
};

Jpeg decode_jpeg(const Reply& r)
{
    Jpeg out;
    EXPECT_TRUE(r.png_b64.has_value()) << "no picture";
    std::string bytes;
    EXPECT_TRUE(nd_core::base64_decode(r.png_b64.value_or(""), bytes));
    if (bytes.size() < 4)
        return out;
    jpeg_decompress_struct info{};
    jpeg_error_mgr err{};
    info.err = jpeg_std_error(&err);
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    EXPECT_EQ(jpeg_read_header(&info, TRUE), JPEG_HEADER_OK);
    info.out_color_space = JCS_RGB;
    jpeg_start_decompress(&info);
    out.width = static_cast<std::int32_t>(info.output_width);
    out.height = static_cast<std::int32_t>(info.output_height);
    out.rgb.resize(static_cast<std::size_t>(out.width) * out.height * 3);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = out.rgb.data() + static_cast<std::size_t>(info.output_scanline) * out.width * 3;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return out;
}

class Vision : public nd_test::DeskLinuxFixture {
protected:
    Reply state(json args = json::object()) { return call("computer_state", args); }

    // The first listed element [index, role, name, x, y, states?] with role and name that is not
    // disabled, or null.
    static json element(const Reply& r, std::string_view role, std::string_view name = {})
    {
        for (const auto& e : r.result["elements"])
            if (e[1] == role && (name.empty() || e[2] == name)
                && (e.size() < 6 || e[5].get<std::string>().find("disabled") == std::string::npos))
                return e;
        return nullptr;
    }

    // A window of a process that offers no accessibility tree (an Xt app), once it shows.
    nd_core::WindowInfo start_plain(std::vector<std::string> argv)
    {
        m_apps.push_back(std::make_unique<nd_test::OwnedApp>(std::move(argv)));
        auto& app = *m_apps.back();
        nd_core::WindowInfo found;
        EXPECT_TRUE(nd_test::wait_until(
            [&] {
                auto all = m_desk->all_windows();
                for (const auto& w : all ? *all : std::vector<nd_core::WindowInfo>{})
                    if (app.owns(static_cast<pid_t>(w.pid)) && w.frame.w > 0) {
                        found = w;
                        return true;
                    }
                return false;
            },
            20s))
            << "no window of " << app.pid();
        return found;
    }

    // The first row of a fresh read with role and name whose frame holds the screen point.
    std::int32_t row_at(const nd_core::WindowInfo& w, std::string_view role, std::string_view name, nd_core::Point p)
    {
        auto snap = read(w);
        if (!snap)
            return -1;
        const auto framed = framed_all(*snap);
        for (std::int32_t i = 0; i < snap->size(); ++i) {
            const auto& e = framed[static_cast<std::size_t>(i)];
            if (e.role == role && (name.empty() || e.name == name) && e.has_frame && e.frame.contains(p.x, p.y))
                return i;
        }
        return -1;
    }

    // Whether every sampled pixel of the screen rectangle `f` is near black in `img`, whose pixel
    // is `scale` screen pixels (JPEG leaves a little noise).
    static bool black(const Jpeg& img, const nd_core::Frame& f, double scale)
    {
        int checked = 0;
        for (int y = static_cast<int>(std::ceil(f.y / scale)) + 1; y < static_cast<int>((f.y + f.h) / scale) - 1; ++y)
            for (int x = static_cast<int>(std::ceil(f.x / scale)) + 1; x < static_cast<int>((f.x + f.w) / scale) - 1; ++x) {
                if (x < 0 || y < 0 || x >= img.width || y >= img.height)
                    continue;
                const auto* p = img.at(x, y);
                if (p[0] > 40 || p[1] > 40 || p[2] > 40)
                    return false;
                ++checked;
            }
        return checked > 10;
    }
};

TEST_F(Vision, StateListsWindowsAndElementsAndAClickByIndexTogglesACheckButton)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto s = state();
    ASSERT_TRUE(s.ok) << s.error;
    EXPECT_EQ(s.result["session"], "agent:test"); // the caller's default session
    ASSERT_FALSE(s.result["windows"].empty());
    EXPECT_EQ(s.result["windows"][0]["pid"], w.pid) << "the factory is the frontmost window";
    EXPECT_EQ(s.result["windows"][0]["window_id"], w.window_id);
    EXPECT_EQ(s.result["elements_of"]["window_id"], w.window_id);
    EXPECT_LE(s.result["elements"].size(), 300u);
    const auto& shot = s.result["screenshot"];
    EXPECT_EQ(shot["format"], "jpeg");
    EXPECT_EQ(std::max(shot["width"].get<int>(), shot["height"].get<int>()), 1024);
    EXPECT_EQ(shot["tokens"], (shot["width"].get<std::int64_t>() * shot["height"].get<std::int64_t>() + 749) / 750);
    const auto img = decode_jpeg(s);
    EXPECT_EQ(img.width, shot["width"]);
    std::string bytes;
    ASSERT_TRUE(nd_core::base64_decode(s.png_b64.value_or(""), bytes));
    EXPECT_EQ(shot["bytes"], bytes.size());

    // Every listed centre lands on its element in a fresh read.
    const double scale = shot["scale"];
    int checked = 0;
    for (const auto& e : s.result["elements"]) {
        if (checked >= 12)
            break;
        const nd_core::Point p{static_cast<std::int32_t>(std::lround(e[3].get<double>() * scale)),
            static_cast<std::int32_t>(std::lround(e[4].get<double>() * scale))};
        EXPECT_GE(row_at(w, e[1].get<std::string>(), e[2].get<std::string>(), p), 0) << e.dump() << " does not hold its centre";
        ++checked;
    }

    const auto box = element(s, "check_box", "checkbutton");
    ASSERT_FALSE(box.is_null()) << s.result["elements"].dump();
    const nd_core::Point centre{static_cast<std::int32_t>(std::lround(box[3].get<double>() * scale)),
        static_cast<std::int32_t>(std::lround(box[4].get<double>() * scale))};
    auto snap = read(w);
    const auto row = row_at(w, "check_box", "checkbutton", centre);
    ASSERT_GE(row, 0);
    const auto key = snap->elements[static_cast<std::size_t>(row)].key;
    const bool was = snap->elements[static_cast<std::size_t>(row)].is(nd_core::STATE_CHECKED);
    auto clicked = call("computer_act", {{"action", "click"}, {"element", box[0]}});
    ASSERT_TRUE(clicked.ok) << clicked.error;
    EXPECT_EQ(clicked.result["steps"][0]["how"], "click") << clicked.result.dump();
    EXPECT_TRUE(clicked.png_b64.has_value()) << "the new screenshot follows";
    EXPECT_TRUE(wait_for(w, key, [&](const nd_core::Element& e) { return e.is(nd_core::STATE_CHECKED) != was; }))
        << "the check button did not toggle";
}

TEST_F(Vision, ScreenshotPixelsMapByTheScaleAt512AndAtFullSize)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto screen = call("screen");
    ASSERT_TRUE(screen.ok) << screen.error;
    auto s = state({{"max_edge", 512}, {"query", "checkbutton"}});
    ASSERT_TRUE(s.ok) << s.error;
    const auto& shot = s.result["screenshot"];
    EXPECT_EQ(std::max(shot["width"].get<int>(), shot["height"].get<int>()), 512);
    const auto scale = call("computer_scale");
    ASSERT_TRUE(scale.ok) << scale.error;
    EXPECT_NEAR(scale.result["scale"].get<double>(), shot["scale"].get<double>(), 1e-3);
    EXPECT_NEAR(scale.result["scale"].get<double>(), s.result["screen"][0].get<double>() / shot["width"].get<double>(), 1e-3);
    for (const auto& e : s.result["elements"])
        EXPECT_EQ(e[2], "checkbutton") << "query keeps the matching elements only";

    // A click at the element's x,y in 512-pixel space toggles it.
    const auto box = element(s, "check_box", "checkbutton");
    ASSERT_FALSE(box.is_null());
    const double k = shot["scale"];
    const nd_core::Point centre{static_cast<std::int32_t>(std::lround(box[3].get<double>() * k)),
        static_cast<std::int32_t>(std::lround(box[4].get<double>() * k))};
    const auto row = row_at(w, "check_box", "checkbutton", centre);
    ASSERT_GE(row, 0);
    auto snap = read(w);
    const auto key = snap->elements[static_cast<std::size_t>(row)].key;
    const bool was = snap->elements[static_cast<std::size_t>(row)].is(nd_core::STATE_CHECKED);
    auto clicked = call("computer_act", {{"action", "left_click"}, {"x", box[3]}, {"y", box[4]}, {"max_edge", 512}});
    ASSERT_TRUE(clicked.ok) << clicked.error;
    EXPECT_TRUE(wait_for(w, key, [&](const nd_core::Element& e) { return e.is(nd_core::STATE_CHECKED) != was; }))
        << "a click at the 512-pixel point did not land on the check button";

    // max_edge 0: the full screen, one screenshot pixel a screen pixel.
    auto full = state({{"max_edge", 0}});
    ASSERT_TRUE(full.ok) << full.error;
    EXPECT_EQ(full.result["screenshot"]["scale"], 1.0);
    EXPECT_EQ(full.result["screenshot"]["width"], full.result["screen"][0]);
    const auto img = decode_jpeg(full);
    EXPECT_EQ(img.width, full.result["screen"][0]);
    // An explicit scale maps by the screenshot the caller saw, not the session's latest: the
    // 512-pixel point again, after a full-size state, with scale toggles the box back.
    auto back = call("computer_act", {{"action", "click"}, {"x", box[3]}, {"y", box[4]}, {"scale", k}});
    ASSERT_TRUE(back.ok) << back.error;
    EXPECT_TRUE(wait_for(w, key, [&](const nd_core::Element& e) { return e.is(nd_core::STATE_CHECKED) == was; }))
        << "scale did not map the point by the 512-pixel screenshot";
}

TEST_F(Vision, AnActionListTypesIntoAFieldAndPressesAButton)
{
    auto w = start({"zenity", "--entry", "--title", "Vision entry", "--text", "Your name"}, 3);
    auto s = state({{"pid", w.pid}});
    ASSERT_TRUE(s.ok) << s.error;
    json field = element(s, "text");
    json ok = element(s, "push_button", "OK");
    ASSERT_FALSE(field.is_null()) << s.result["elements"].dump();
    ASSERT_FALSE(ok.is_null()) << s.result["elements"].dump();
    auto done = call("computer_act",
        {{"actions", {{{"action", "triple_click"}, {"element", field[0]}}, {{"action", "type"}, {"text", "Ada Lovelace"}},
                         {{"action", "click"}, {"element", ok[0]}}}}});
    ASSERT_TRUE(done.ok) << done.error;
    const auto& steps = done.result["steps"];
    ASSERT_EQ(steps.size(), 3u) << done.result.dump();
    EXPECT_EQ(steps[1]["typed"], "typed 12 of 12") << steps.dump();
    EXPECT_FALSE(steps[1].contains("unverified")) << "an entry's text reads back";
    ASSERT_TRUE(steps[2].contains("closed")) << steps.dump();
    EXPECT_EQ(steps[2]["closed"][0]["title"], "Vision entry");
    EXPECT_TRUE(done.png_b64.has_value());
}

TEST_F(Vision, TypedCountsWhatLandedAndAStepFailureStopsTheList)
{
    auto w = start({"zenity", "--entry", "--title", "Typed count", "--text", "Name"}, 3);
    auto s = state({{"pid", w.pid}});
    ASSERT_TRUE(s.ok) << s.error;
    json field = element(s, "text");
    ASSERT_FALSE(field.is_null());
    // The second step fails (a point off the screen): the third never runs, the error says which.
    auto failed = call("computer_act", {{"actions", {{{"action", "click"}, {"element", field[0]}},
                                                        {{"action", "click"}, {"x", 99999}, {"y", 5}},
                                                        {{"action", "type"}, {"text", "never"}}}}});
    ASSERT_FALSE(failed.ok);
    EXPECT_NE(failed.error.find("step 2 of 3 (click) failed"), std::string::npos) << failed.error;
    EXPECT_NE(failed.error.find("off the screen"), std::string::npos) << failed.error;
    auto snap = read(w);
    const auto row = find(*snap, "text", {}, nd_core::STATE_SHOWING);
    ASSERT_GE(row, 0);
    EXPECT_EQ(value_of(w, snap->elements[static_cast<std::size_t>(row)]), "") << "the third step ran";
    auto typed = call("computer_act", {{"action", "type"}, {"text", "h\xC3\xA9llo"}});
    ASSERT_TRUE(typed.ok) << typed.error;
    EXPECT_EQ(typed.result["steps"][0]["typed"], "typed 5 of 5") << typed.result.dump();
}

TEST_F(Vision, LaunchAppNamesTheWindowItOpened)
{
    auto s = state();
    ASSERT_TRUE(s.ok) << s.error;
    auto launched = call("computer_act", {{"action", "launch_app"}, {"app", "gtk3-demo"}});
    ASSERT_TRUE(launched.ok) << launched.error;
    const auto pid = launched.result["steps"][0]["pid"].get<std::int64_t>();
    std::string opened = launched.result["steps"][0].dump();
    EXPECT_TRUE(launched.result["steps"][0].contains("opened")) << opened;
    bool named = false;
    for (const auto& o : launched.result["steps"][0].value("opened", json::array()))
        named = named || o["pid"] == pid;
    EXPECT_TRUE(named) << opened;
    ::kill(static_cast<pid_t>(-pid), SIGTERM);
    ::kill(static_cast<pid_t>(pid), SIGTERM);
}

TEST_F(Vision, OffScreenPointsAndAHiddenButtonAreRefused)
{
    const auto window = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto s = state();
    ASSERT_TRUE(s.ok) << s.error;
    auto off = call("computer_act", {{"action", "click"}, {"x", 5000}, {"y", 10}});
    EXPECT_FALSE(off.ok);
    EXPECT_NE(off.error.find("off the screen"), std::string::npos) << off.error;
    auto negative = call("computer_act", {{"action", "drag"}, {"x", 10}, {"y", 10}, {"to_x", -3}, {"to_y", 10}});
    EXPECT_FALSE(negative.ok);
    EXPECT_NE(negative.error.find("to_x, to_y"), std::string::npos) << negative.error;
    auto unknown = call("computer_act", {{"action", "click"}, {"element", 100000}});
    EXPECT_FALSE(unknown.ok);
    EXPECT_NE(unknown.error.find("no index"), std::string::npos) << unknown.error;

    // The header bar's menu opens a popover; once it is shut again its buttons stay in the tree,
    // hidden: their indexes are refused, never clicked at the points where they showed.
    const auto menu = element(s, "toggle_button", "Menu");
    ASSERT_FALSE(menu.is_null()) << s.result["elements"].dump();
    ASSERT_TRUE(call("computer_act", {{"action", "click"}, {"element", menu[0]}}).ok);
    auto open = state();
    ASSERT_TRUE(open.ok) << open.error;
    std::set<std::string> before;
    for (const auto& e : s.result["elements"])
        before.insert(e[1].get<std::string>() + "|" + e[2].get<std::string>());
    json popover_item;
    for (const auto& e : open.result["elements"])
        if (!before.contains(e[1].get<std::string>() + "|" + e[2].get<std::string>()) && popover_item.is_null())
            popover_item = e;
    ASSERT_FALSE(popover_item.is_null()) << "the popover's items are not listed: " << open.result["elements"].dump();
    ASSERT_TRUE(call("computer_act", {{"action", "key"}, {"key", "Escape"}}).ok);
    // GTK3's popover fades out: until it has, its items still show (and the act would only find
    // another node on top of them). Wait, through the desk's own reads (a computer_state would make
    // new indexes), until the item no longer shows.
    EXPECT_TRUE(nd_test::wait_until(
        [&] {
            auto snap = read(window);
            return snap && find(*snap, popover_item[1].get<std::string>(), popover_item[2].get<std::string>(),
                               nd_core::STATE_SHOWING) < 0;
        },
        5s))
        << "the popover's items still show after Escape";
    auto shut = call("computer_act", {{"action", "click"}, {"element", popover_item[0]}});
    EXPECT_FALSE(shut.ok) << shut.result.dump();
    EXPECT_NE(shut.error.find("not showing now (hidden)"), std::string::npos) << shut.error;
    s = state();
    ASSERT_TRUE(s.ok);

    // Page 1's buttons go with Page 2 of the factory's stack: their indexes are refused too.
    const auto toggle = element(s, "toggle_button", "togglebutton");
    const auto page2 = element(s, "radio_button", "Page 2");
    ASSERT_FALSE(toggle.is_null());
    ASSERT_FALSE(page2.is_null());
    auto switched = call("computer_act", {{"action", "click"}, {"element", page2[0]}});
    ASSERT_TRUE(switched.ok) << switched.error;
    auto hidden = call("computer_act", {{"action", "click"}, {"element", toggle[0]}});
    EXPECT_FALSE(hidden.ok) << hidden.result.dump();
    EXPECT_TRUE(hidden.error.find("not showing") != std::string::npos || hidden.error.find("is gone") != std::string::npos)
        << hidden.error;
}

TEST_F(Vision, APasswordFieldIsBlackInEveryPicture)
{
    auto w = start({"zenity", "--password", "--title", "Vision unlock"}, 3);
    auto snap = read(w);
    const auto pw = find(*snap, "password_text", {}, nd_core::STATE_SHOWING);
    ASSERT_GE(pw, 0);
    const auto f = fresh(w, snap->elements[static_cast<std::size_t>(pw)].key).frame;
    ASSERT_GT(f.w, 8);
    auto s = state({{"pid", w.pid}});
    ASSERT_TRUE(s.ok) << s.error;
    EXPECT_GE(s.result["screenshot"].value("secure_fields_blacked_out", 0), 1) << s.result["screenshot"].dump();
    // Clicking it is allowed (the person may want the focus there); typing into it is not.
    const auto field = element(s, "password_text");
    ASSERT_FALSE(field.is_null()) << s.result["elements"].dump();
    ASSERT_TRUE(call("computer_act", {{"action", "click"}, {"element", field[0]}}).ok);
    auto typed = call("computer_act", {{"action", "type"}, {"text", "hunter2"}});
    EXPECT_FALSE(typed.ok);
    EXPECT_NE(typed.error.find("password field"), std::string::npos) << typed.error;
    auto pasted = call("computer_act", {{"action", "hotkey"}, {"keys", {"ctrl", "v"}}});
    EXPECT_FALSE(pasted.ok);
    EXPECT_NE(pasted.error.find("password field"), std::string::npos) << pasted.error;
    // Refused before the first key (the field's text is never read back, by design).
    EXPECT_NE(typed.error.find("not sent"), std::string::npos) << typed.error;
    EXPECT_NE(typed.error.find("0 of 7"), std::string::npos) << typed.error;
    EXPECT_TRUE(black(decode_jpeg(s), f, s.result["screenshot"]["scale"])) << "computer_state shows the field";
    auto full = state({{"max_edge", 0}});
    ASSERT_TRUE(full.ok);
    EXPECT_TRUE(black(decode_jpeg(full), f, 1.0)) << "the full-size state shows the field";
    auto acted = call("computer_act", {{"action", "wait"}, {"seconds", 0}});
    ASSERT_TRUE(acted.ok) << acted.error;
    EXPECT_TRUE(black(decode_jpeg(acted), f, acted.result["screenshot"]["scale"])) << "computer_act's screenshot shows the field";
    auto looked = call("look");
    ASSERT_TRUE(looked.ok) << looked.error;
    EXPECT_TRUE(black(decode_jpeg(looked), f, looked.result["screenshot"]["scale"])) << "look shows the field";
    // A region of it at full resolution, in screenshot pixels of the session's latest (look's).
    const double k = looked.result["screenshot"]["scale"];
    auto region = call("look", {{"region", {{"x", std::floor((f.x - 10) / k)}, {"y", std::floor((f.y - 10) / k)},
                                               {"w", std::ceil((f.w + 20) / k)}, {"h", std::ceil((f.h + 20) / k)}}}});
    ASSERT_TRUE(region.ok) << region.error;
    const auto origin = region.result["screen_region"];
    const nd_core::Frame in_region{f.x - origin[0].get<int>(), f.y - origin[1].get<int>(), f.w, f.h};
    EXPECT_TRUE(black(decode_jpeg(region), in_region, 1.0)) << "look's region shows the field";
    EXPECT_NEAR(region.result["mapping"]["per_pixel"].get<double>(), 1.0 / k, 1e-3);
}

TEST_F(Vision, TitleAtTellsATitleBarFromAWindowBody)
{
    auto w = start_plain({"xmessage", "-title", "Vision title", "-center", "A window with openbox's title bar"});
    ASSERT_GT(w.decor.top, 0) << "openbox gives the window a title bar (_NET_FRAME_EXTENTS)";
    auto bar = call("title_at", {{"x", w.frame.x + w.frame.w / 2}, {"y", w.frame.y - w.decor.top / 2}});
    ASSERT_TRUE(bar.ok) << bar.error;
    EXPECT_TRUE(bar.result["title"].get<bool>()) << bar.result.dump();
    EXPECT_EQ(bar.result["where"], "title_bar");
    EXPECT_EQ(bar.result["window"]["title"], "Vision title");
    // An app without an accessibility tree still gets its screenshot, without element indexes.
    auto s = state();
    ASSERT_TRUE(s.ok) << s.error;
    EXPECT_EQ(s.result["elements_of"]["window_id"], w.window_id);
    EXPECT_TRUE(s.result["elements"].empty());
    EXPECT_NE(s.result.value("elements_error", "").find("act on it by x, y"), std::string::npos) << s.result.dump();
    EXPECT_TRUE(s.png_b64.has_value());
    auto body = call("title_at", {{"x", w.frame.x + w.frame.w / 2}, {"y", w.frame.y + w.frame.h / 2}});
    ASSERT_TRUE(body.ok) << body.error;
    EXPECT_FALSE(body.result["title"].get<bool>());
    EXPECT_EQ(body.result["where"], "window");
}

TEST_F(Vision, TitleAtReadsAPanelsTaskButtons)
{
    auto w = start_plain({"xmessage", "-title", "Panel task", "-center", "A window the panel lists"});
    m_apps.push_back(std::make_unique<nd_test::OwnedApp>(
        std::vector<std::string>{std::string(NISH_SOURCE_DIR) + "/fixtures/apps/task_panel.py", "Panel task"}));
    // The panel's button, once the panel shows and reads.
    nd_core::Element button;
    nd_core::Element clock;
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            std::vector<nd_core::WindowInfo> panels;
            {
                auto lock = m_desk->lock_backend();
                auto listed = m_backend->windows()->list_panels();
                if (!listed)
                    return false;
                panels = *listed;
            }
            for (const auto& panel : panels) {
                auto snap = m_desk->read(panel);
                if (!snap)
                    continue;
                const auto framed = framed_all(**snap);
                for (const auto& e : framed) {
                    if (e.role == "push_button" && e.name == "Panel task" && e.has_frame)
                        button = e;
                    if (e.role == "label" && e.name == "12:45" && e.has_frame)
                        clock = e;
                }
            }
            return button.has_frame && clock.has_frame;
        },
        20s))
        << "the panel never read";
    const auto centre = [](const nd_core::Frame& f) { return json{{"x", f.x + f.w / 2}, {"y", f.y + f.h / 2}}; };
    auto on_button = call("title_at", centre(button.frame));
    ASSERT_TRUE(on_button.ok) << on_button.error;
    EXPECT_TRUE(on_button.result["title"].get<bool>()) << on_button.result.dump();
    EXPECT_EQ(on_button.result["where"], "panel");
    EXPECT_EQ(on_button.result["window"]["title"], "Panel task");
    EXPECT_EQ(on_button.result["window"]["pid"], w.pid);
    auto on_clock = call("title_at", centre(clock.frame));
    ASSERT_TRUE(on_clock.ok) << on_clock.error;
    EXPECT_FALSE(on_clock.result["title"].get<bool>()) << on_clock.result.dump();
    EXPECT_EQ(on_clock.result["where"], "panel");
}

TEST_F(Vision, AnEndedSessionIsRefusedForGood)
{
    start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    ASSERT_TRUE(state({{"session", "s1"}}).ok);
    auto ended = call("computer_end", {{"session", "s1"}});
    ASSERT_TRUE(ended.ok) << ended.error;
    EXPECT_TRUE(ended.result["had_state"].get<bool>());
    auto again = state({{"session", "s1"}});
    EXPECT_FALSE(again.ok);
    EXPECT_NE(again.error.find("was ended"), std::string::npos) << again.error;

    // The default session: ended, the next call without session opens a new one, whose element
    // action needs a new computer_state.
    ASSERT_TRUE(state().ok);
    ASSERT_TRUE(call("computer_end", {{"session", "agent:test"}}).ok);
    auto stale = call("computer_act", {{"action", "click"}, {"element", 0}});
    EXPECT_FALSE(stale.ok);
    EXPECT_NE(stale.error.find("call computer_state"), std::string::npos) << stale.error;
    auto fresh_state = state();
    ASSERT_TRUE(fresh_state.ok);
    EXPECT_EQ(fresh_state.result["session"], "agent:test#2");
}

TEST_F(Vision, TheAllowlistTheTakeoverAndASafetyStopHold)
{
    start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    // The takeover lock: no vision input while another driver holds the display.
    {
        auto lock = nd_linux::DisplayLock::take("");
        ASSERT_TRUE(lock) << lock.error().text();
        auto key = call("computer_act", {{"action", "key"}, {"key", "Tab"}});
        EXPECT_FALSE(key.ok);
        EXPECT_NE(key.error.find("another driver holds the takeover"), std::string::npos) << key.error;
        lock->release();
    }
    // A safety stop ends a long wait at once.
    auto waiting = std::async(std::launch::async, [&] { return call("computer_act", {{"action", "wait"}, {"seconds", 20}}); });
    std::this_thread::sleep_for(300ms);
    m_desk->safety_stop().stop();
    ASSERT_EQ(waiting.wait_for(5s), std::future_status::ready) << "the wait did not end on the stop";
    EXPECT_FALSE(waiting.get().ok);
    m_desk->safety_stop().resume();

    // With an app allowlist every vision verb is refused.
    nd_desk::DeskConfig only_zenity;
    only_zenity.allow = {"zenity"};
    m_desk = std::make_unique<nd_desk::Desk>(*m_backend, only_zenity);
    for (const char* verb : {"computer_state", "look", "computer_scale"}) {
        auto r = call(verb);
        EXPECT_FALSE(r.ok) << verb;
        EXPECT_NE(r.error.find("app allowlist"), std::string::npos) << r.error;
    }
    auto act = call("computer_act", {{"action", "wait"}, {"seconds", 0}});
    EXPECT_NE(act.error.find("app allowlist"), std::string::npos) << act.error;
    EXPECT_NE(call("title_at", {{"x", 1}, {"y", 1}}).error.find("app allowlist"), std::string::npos);
}

TEST_F(Vision, AChromiumPagesElementsAreListedAndClickedByIndex)
{
    std::string profile = (std::filesystem::temp_directory_path() / "nish-vision-chromium-XXXXXX").string();
    ASSERT_NE(::mkdtemp(profile.data()), nullptr);
    const auto page = std::filesystem::absolute(std::string(NISH_SOURCE_DIR) + "/fixtures/web/controls.html");
    auto w = start(nd_test::chromium_argv(profile, "file://" + page.string(), "1000,800"), 30);
    json box;
    Reply s;
    // The page's rows arrive after the window: poll the state until the check box is listed.
    nd_test::wait_until(
        [&] {
            s = state({{"pid", w.pid}, {"query", "Subscribe"}});
            box = s.ok ? element(s, "check_box") : json();
            return !box.is_null();
        },
        20s);
    ASSERT_FALSE(box.is_null()) << s.error << s.result.dump();
    auto clicked = call("computer_act", {{"action", "click"}, {"element", box[0]}});
    ASSERT_TRUE(clicked.ok) << clicked.error;
    const bool checked = nd_test::wait_until(
        [&] {
            auto snap = read(w);
            if (!snap)
                return false;
            for (const auto& e : snap->elements)
                if (e.role == "check_box" && e.name.find("Subscribe") != std::string::npos)
                    return e.is(nd_core::STATE_CHECKED);
            return false;
        },
        5s);
    EXPECT_TRUE(checked) << "the page's check box did not check: " << clicked.result.dump();
    m_apps.clear();
    std::error_code ec;
    std::filesystem::remove_all(profile, ec);
}

} // namespace

namespace {

// The screen captures on an X connection of its own, so a capture runs while another thread reads
// a window's tree under the backend lock, and both come out whole; and a round trip to an app
// (the settle's barrier) is answered by a live app and runs out on a stopped one.
TEST_F(Vision, TheScreenCapturesBesideATreeReadAndTheSettleReachesTheApp)
{
    auto w = start({"zenity", "--entry", "--title", "Beside a read", "--text", "Name"}, 3);
    auto* screen = m_backend->screen();
    ASSERT_NE(screen, nullptr);
    ASSERT_TRUE(screen->captures_apart());
    // The backend lock is held through all the reads: were the capture to need it, none would be
    // done until the reads end.
    std::atomic<int> captured{0};
    std::atomic<bool> reading{true};
    auto captures = std::async(std::launch::async, [&] {
        while (reading.load()) {
            auto image = nd_desk::capture_screen(*m_desk, {0, 0, 320, 200});
            if (!image || image->width != 320)
                return false;
            ++captured;
        }
        return true;
    });
    {
        auto lock = m_desk->lock_backend();
        for (int i = 0; i < 200 && captured.load() < 5; ++i) {
            auto snap = m_desk->read(w);
            if (!snap) {
                ADD_FAILURE() << snap.error().message; // no ASSERT: the thread must be told to end
                break;
            }
        }
        EXPECT_GE(captured.load(), 5) << "captures waited for the backend lock";
        reading = false;
    }
    EXPECT_TRUE(captures.get());

    auto lock = m_desk->lock_backend();
    auto* trees = m_backend->trees();
    EXPECT_TRUE(trees->sync_app(w, 2s)) << "a live app answers the ping";
    ASSERT_EQ(::kill(static_cast<pid_t>(w.pid), SIGSTOP), 0);
    const auto t0 = std::chrono::steady_clock::now();
    auto stopped = trees->sync_app(w, 300ms);
    const auto waited = std::chrono::steady_clock::now() - t0;
    ::kill(static_cast<pid_t>(w.pid), SIGCONT);
    EXPECT_FALSE(stopped) << "a stopped app cannot answer: the ping really goes to it";
    EXPECT_LT(waited, 2s) << "the round trip keeps its deadline";
}

} // namespace

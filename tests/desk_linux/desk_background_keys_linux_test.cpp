// Key and button events sent to a window, per toolkit, on the virtual desktop
// (core/model/background_routes.h is the table this measures): with zenity's window active, key
// events sent to a Qt5 window (the codeeditor example) land in its focused editor, read back, with
// the person's active window, stacking and pointer unchanged; GTK3 (a zenity entry) and xterm drop
// such events, so background key refuses them, naming the toolkit, and auto sends the keys in the
// foreground instead (the text arrives). A drag sent as button events moves a Qt5 slider behind
// the person's window; GTK3 (behind another window) and GTK4 drop them, so the drag is refused and
// auto drags in the foreground.

#include "desk_linux/background_fixture.h"
#include "desk/desk_geometry.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace {

using namespace std::chrono_literals;

class DeskBackgroundKeys : public nd_test::DeskBackgroundFixture {
protected:
    // The text of the window's editable elements, read afresh, one after the other.
    std::string field_texts(const nd_core::WindowInfo& w)
    {
        auto snap = read(w);
        std::string out;
        for (const auto& e : snap->elements)
            if (e.is(nd_core::STATE_EDITABLE))
                out += e.value;
        return out;
    }
};

TEST_F(DeskBackgroundKeys, QtTakesKeysSentToItsWindowAndTheyReadBack)
{
    with_mode(Mode::background);
    auto editor = start({nd_test::qt5_example("widgets/widgets/codeeditor/codeeditor")}, 3);
    const auto before_text = field_texts(editor);
    in_front();
    const auto before = person_view();
    // desk_windows lists each window's routes where background input is on.
    auto listed = call("windows", nlohmann::json::object());
    ASSERT_TRUE(listed.ok) << listed.error;
    for (const auto& w : listed.result["windows"]) {
        if (w["pid"] == editor.pid) {
            EXPECT_EQ(w["background"], nlohmann::json({"actions", "text", "value", "keys", "buttons"})) << w.dump();
        } else if (w["app"] == "zenity") {
            EXPECT_EQ(w["background"], nlohmann::json({"actions", "text", "value"})) << w.dump();
        }
    }
    auto keyed = call("key", {{"keys", "q"}, {"pid", editor.pid}});
    ASSERT_TRUE(keyed.ok) << keyed.error;
    EXPECT_EQ(keyed.result["input"], "background");
    EXPECT_FALSE(keyed.result.contains("unverified")) << keyed.result.dump();
    auto shifted = call("key", {{"keys", "shift+z"}, {"pid", editor.pid}});
    ASSERT_TRUE(shifted.ok) << shifted.error;
    EXPECT_TRUE(nd_test::wait_until([&] { return field_texts(editor) == before_text + "qZ"; }, 3s)) << field_texts(editor);
    // A key that edits nothing shows no effect on the field: unverified, with the way to check.
    auto home = call("key", {{"keys", "ctrl+Home"}, {"pid", editor.pid}});
    ASSERT_TRUE(home.ok) << home.error;
    EXPECT_TRUE(home.result.contains("unverified")) << home.result.dump();
    EXPECT_EQ(person_view(), before) << "the active window, the stacking and the pointer are the person's";
}

TEST_F(DeskBackgroundKeys, GtkDropsThemSoBackgroundRefusesAndAutoSendsThemInTheForeground)
{
    with_mode(Mode::background);
    auto entry = start({"zenity", "--entry", "--title", "Keys", "--text", "keys here"}, 3);
    in_front();
    auto refused = call("key", {{"keys", "a"}, {"pid", entry.pid}});
    EXPECT_NE(refused.error.find("background_refused"), std::string::npos) << refused.error;
    EXPECT_NE(refused.error.find("GTK3"), std::string::npos) << refused.error;
    EXPECT_NE(refused.error.find("desk_type"), std::string::npos) << "it points at the route GTK has: " << refused.error;
    EXPECT_EQ(field_texts(entry), "");

    with_mode(Mode::automatic);
    auto sent = call("key", {{"keys", "b"}, {"pid", entry.pid}});
    ASSERT_TRUE(sent.ok) << sent.error;
    EXPECT_EQ(sent.result["input"], "foreground");
    EXPECT_TRUE(sent.result.contains("background_refused"));
    EXPECT_TRUE(nd_test::wait_until([&] { return field_texts(entry) == "b"; }, 3s)) << field_texts(entry);
}

// A drag from a quarter to three quarters of the slider, in pixels of its window's shot.
nlohmann::json slider_drag(const nd_core::WindowInfo& w, const nd_core::Element& slider)
{
    const auto y = slider.frame.y + slider.frame.h / 2 - w.frame.y;
    return {{"x", slider.frame.x + slider.frame.w / 4 - w.frame.x}, {"y", y},
        {"to_x", slider.frame.x + slider.frame.w * 3 / 4 - w.frame.x}, {"to_y", y}, {"pid", w.pid}};
}

class DeskBackgroundDrag : public DeskBackgroundKeys {
protected:
    // The window's first slider, read afresh.
    nd_core::Element slider_of(const nd_core::WindowInfo& w)
    {
        auto snap = read(w);
        const auto row = find(*snap, "slider");
        EXPECT_GE(row, 0) << w.title;
        return row < 0 ? nd_core::Element{} : snap->elements[static_cast<std::size_t>(row)];
    }
};

TEST_F(DeskBackgroundDrag, QtTakesADragSentToItsWindowAndItReadsBack)
{
    with_mode(Mode::background);
    auto sliders = start({nd_test::qt5_example("widgets/widgets/sliders/sliders")}, 5);
    in_front();
    const auto before = person_view();
    const auto slider = slider_of(sliders);
    ASSERT_TRUE(slider.has_frame);
    auto dragged = call("drag", slider_drag(sliders, slider));
    ASSERT_TRUE(dragged.ok) << dragged.error;
    EXPECT_EQ(dragged.result["input"], "background");
    EXPECT_FALSE(dragged.result.contains("unverified")) << dragged.result.dump();
    EXPECT_NE(dragged.result.value("effect", "").find("value changed"), std::string::npos) << dragged.result.dump();
    EXPECT_NE(slider_of(sliders).value, slider.value);
    // Qt asks to be activated when pressed while unfocused, and gives up its focus after 400 ms:
    // look after that too.
    std::this_thread::sleep_for(600ms);
    EXPECT_EQ(person_view(), before) << "the active window, the stacking and the pointer are the person's";
}

TEST_F(DeskBackgroundDrag, GtkDropsButtonEventsSoADragIsRefusedAndAutoDragsInTheForeground)
{
    with_mode(Mode::background);
    auto calculator = start({"gnome-calculator"}, 10);
    auto scale = start({"zenity", "--scale", "--title", "Scale", "--value", "10"}, 3);
    in_front();
    const auto before = person_view();
    // GTK4: over the calculator's display, which a drag leaves as it is.
    auto gtk4 = call("drag", {{"x", 100}, {"y", 100}, {"to_x", 200}, {"to_y", 100}, {"pid", calculator.pid}});
    EXPECT_NE(gtk4.error.find("background_refused"), std::string::npos) << gtk4.error;
    EXPECT_NE(gtk4.error.find("GTK4"), std::string::npos) << gtk4.error;
    const auto slider = slider_of(scale);
    ASSERT_TRUE(slider.has_frame);
    auto gtk3 = call("drag", slider_drag(scale, slider));
    EXPECT_NE(gtk3.error.find("background_refused"), std::string::npos) << gtk3.error;
    EXPECT_NE(gtk3.error.find("GTK3"), std::string::npos) << gtk3.error;
    EXPECT_EQ(slider_of(scale).value, slider.value) << "nothing was sent";
    EXPECT_EQ(person_view(), before);

    with_mode(Mode::automatic);
    auto sent = call("drag", slider_drag(scale, slider));
    ASSERT_TRUE(sent.ok) << sent.error;
    EXPECT_EQ(sent.result["input"], "foreground");
    EXPECT_TRUE(sent.result.contains("background_refused"));
    EXPECT_TRUE(nd_test::wait_until([&] { return slider_of(scale).value != slider.value; }, 3s)) << "the scale moved";
}

TEST_F(DeskBackgroundDrag, ADragFromAPasswordFieldIsRefused)
{
    with_mode(Mode::background);
    auto password = start({"zenity", "--password", "--title", "Secret"}, 3);
    in_front();
    auto snap = read(password);
    const auto row = find(*snap, "password_text");
    ASSERT_GE(row, 0);
    const auto& field = snap->elements[static_cast<std::size_t>(row)];
    ASSERT_TRUE(field.has_frame);
    const auto c = nd_desk::centre_of(field.frame);
    auto refused = call("drag", {{"x", c.x - password.frame.x}, {"y", c.y - password.frame.y}, {"to_x", 2}, {"to_y", 2},
                                    {"pid", password.pid}});
    EXPECT_NE(refused.error.find("secure_field_refused"), std::string::npos) << refused.error;
}

TEST_F(DeskBackgroundKeys, XtermRefusesSentEventsAndIsReportedAsSuch)
{
    const auto dir = std::filesystem::temp_directory_path() / ("nish-xterm-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string out = (dir / "line").string();
    with_mode(Mode::background);
    // xterm has no AT-SPI: its window is found by its process alone.
    m_apps.push_back(std::make_unique<nd_test::OwnedApp>(
        std::vector<std::string>{"xterm", "-title", "nish xterm", "-e", "sh", "-c", "read line; echo \"$line\" > " + out}));
    nd_core::WindowInfo term;
    ASSERT_TRUE(nd_test::wait_until([&] {
        auto all = m_desk->all_windows();
        for (const auto& w : all ? *all : std::vector<nd_core::WindowInfo>{})
            if (m_apps.back()->owns(static_cast<pid_t>(w.pid)))
                term = w;
        return term.window_id != 0;
    }, 30s));
    in_front();
    auto refused = call("key", {{"keys", "x"}, {"window", term.title}});
    EXPECT_NE(refused.error.find("background_refused"), std::string::npos) << refused.error;
    EXPECT_NE(refused.error.find("xterm refuses"), std::string::npos) << refused.error;

    // Auto sends it in the foreground. (A printable key is refused there too: xterm cannot be read
    // to rule out a password prompt. Return makes no text.)
    with_mode(Mode::automatic);
    auto sent = call("key", {{"keys", "Return"}, {"window", term.title}});
    ASSERT_TRUE(sent.ok) << sent.error;
    EXPECT_EQ(sent.result["input"], "foreground");
    EXPECT_TRUE(nd_test::wait_until([&] {
        std::ifstream f(out);
        std::stringstream s;
        s << f.rdbuf();
        return s.str() == "\n";
    }, 3s)) << "the foreground Return reached xterm's read";
    std::filesystem::remove_all(dir);
}

} // namespace

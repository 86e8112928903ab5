// Background input on the real Linux backend, on the virtual desktop (scripts/test-desktop): type
// into a gtk3 entry of gtk3-widget-factory while zenity's window is the active one, read back from
// the app, with the active window, the stacking order and the pointer unchanged afterwards; a
// window whose field is not named refused in background mode and sent in the foreground by auto
// (marked so), as are the verbs without a background route yet; a password field never typed
// into, whatever the mode; a click on a check box covered by another window toggles it (read
// back, no unverified) and one on a dialog's button that closes it is unverified.

#include "desk_linux/background_fixture.h"

#include "desk/desk_geometry.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace {

using namespace std::chrono_literals;

constexpr std::size_t FACTORY_ELEMENTS = 200;

class DeskBackground : public nd_test::DeskBackgroundFixture {
protected:
    // gtk3-widget-factory's entry holding "entry", in `snap`.
    static std::int32_t entry_of(const nd_core::Snapshot& snap)
    {
        for (std::int32_t i = 0; i < snap.size(); ++i) {
            const auto& e = snap.elements[static_cast<std::size_t>(i)];
            if (e.role == "text" && e.value == "entry" && e.is(nd_core::STATE_EDITABLE) && e.is(nd_core::STATE_SHOWING) &&
                e.is(nd_core::STATE_ENABLED))
                return i;
        }
        return -1;
    }
};

TEST_F(DeskBackground, TypeWritesIntoAnEntryOfAWindowBehindWithoutTouchingThePersonsFocus)
{
    with_mode(Mode::background);
    auto factory = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto snap = read(factory);
    const auto entry = entry_of(*snap);
    ASSERT_GE(entry, 0);
    const auto key = snap->elements[static_cast<std::size_t>(entry)].key;
    // Another app in front: the person's window.
    auto front = start({"zenity", "--info", "--title", "In front", "--text", "the person's window"}, 3);
    ASSERT_TRUE(nd_test::wait_until([&] { return person_view().active == front.window_id; }, 3s));
    const auto before = person_view();

    auto typed = call("type", {{"text", " nish"}, {"id", id(*snap, entry)}});
    ASSERT_TRUE(typed.ok) << typed.error;
    EXPECT_EQ(typed.result["input"], "background");
    EXPECT_EQ(typed.result["typed"], 5);
    EXPECT_FALSE(typed.result.contains("unverified")) << "GTK3's entry reads back: " << typed.result.dump();
    const auto value = value_of(factory, fresh(factory, key));
    EXPECT_EQ(value.size(), 10u) << value;
    EXPECT_NE(value.find(" nish"), std::string::npos) << value;
    EXPECT_EQ(person_view(), before) << "the active window, the stacking and the pointer are the person's";

    // Named by its window alone: the factory has many text fields, none focused while it is behind.
    auto unnamed = call("type", {{"text", "x"}, {"window", factory.title}});
    EXPECT_FALSE(unnamed.ok);
    EXPECT_NE(unnamed.error.find("background_refused"), std::string::npos) << unnamed.error;
    EXPECT_NE(unnamed.error.find("name the field with id"), std::string::npos) << unnamed.error;
    // Without any target, background input has none to write into.
    auto nowhere = call("type", {{"text", "x"}});
    EXPECT_NE(nowhere.error.find("background_refused"), std::string::npos) << nowhere.error;
    // Verbs without a background route yet are refused, and send nothing.
    auto keys = call("key", {{"keys", "BackSpace"}, {"window", factory.title}});
    EXPECT_NE(keys.error.find("background_refused"), std::string::npos) << keys.error;
    auto drag = call("drag", {{"x", 5}, {"y", 5}, {"to_x", 50}, {"to_y", 5}});
    EXPECT_NE(drag.error.find("background_refused"), std::string::npos) << "a drag needs its window: " << drag.error;
    EXPECT_EQ(value_of(factory, fresh(factory, key)), value) << "nothing more was typed";
    EXPECT_EQ(person_view(), before);
}

TEST_F(DeskBackground, AutoSendsARefusedTypeInTheForegroundAndSaysSo)
{
    with_mode(Mode::automatic);
    auto entry_window = start({"zenity", "--entry", "--title", "Only field", "--text", "one"}, 3);
    auto front = start({"zenity", "--info", "--title", "In front", "--text", "the person's window"}, 3);
    ASSERT_TRUE(nd_test::wait_until([&] { return person_view().active == front.window_id; }, 3s));
    // The window's only text field: background, read back.
    auto quiet = call("type", {{"text", "abc"}, {"window", entry_window.title}});
    ASSERT_TRUE(quiet.ok) << quiet.error;
    EXPECT_EQ(quiet.result["input"], "background");
    EXPECT_EQ(person_view().active, front.window_id);
    // A target background input cannot write into (no window, no field): the foreground, marked.
    auto loud = call("type", {{"text", "d"}});
    ASSERT_TRUE(loud.ok) << loud.error;
    EXPECT_EQ(loud.result["input"], "foreground");
    EXPECT_TRUE(loud.result.contains("background_refused")) << loud.result.dump();
    EXPECT_EQ(loud.result["typed"], 1);
    // A verb without a background route: the foreground, marked.
    auto key = call("key", {{"keys", "BackSpace"}});
    ASSERT_TRUE(key.ok) << key.error;
    EXPECT_EQ(key.result["input"], "foreground");
}

TEST_F(DeskBackground, APasswordFieldIsNeverTypedIntoInAnyMode)
{
    auto pw_window = start({"zenity", "--password", "--title", "Unlock"}, 3);
    auto snap = read(pw_window);
    const auto pw = find(*snap, "password_text", {}, nd_core::STATE_SHOWING);
    ASSERT_GE(pw, 0);
    for (const auto mode : {Mode::background, Mode::automatic}) {
        with_mode(mode);
        snap = read(pw_window);
        auto by_id = call("type", {{"text", "hunter2"}, {"id", id(*snap, pw)}});
        EXPECT_NE(by_id.error.find("secure_field_refused"), std::string::npos) << by_id.error;
        auto by_window = call("type", {{"text", "hunter2"}, {"window", pw_window.title}});
        EXPECT_FALSE(by_window.ok);
        EXPECT_EQ(by_window.error.find("background_refused: the window"), std::string::npos) << by_window.error;
        EXPECT_NE(by_window.error.find("secure_field_refused"), std::string::npos) << by_window.error;
    }
}

// A line break ending the typed text is the Enter a person presses after typing: into GTK's entry,
// its "activate" runs after the text goes in, and zenity answers with the text. The reply names
// the action that was the Enter.
TEST_F(DeskBackground, ALineBreakEndingTheTextIsTheEntrysEnter)
{
    with_mode(Mode::background);
    const std::string out = testing::TempDir() + "nish_desk_entry_" + std::to_string(::getpid()) + ".out";
    auto ask = start({"sh", "-c", "exec zenity --entry --title=Ask --text=Name > \"$0\"", out}, 3);
    auto snap = read(ask);
    const auto field = find(*snap, "text", "Name");
    ASSERT_GE(field, 0);
    auto typed = call("type", {{"text", "Ada\n"}, {"id", id(*snap, field)}});
    ASSERT_TRUE(typed.ok) << typed.error;
    EXPECT_EQ(typed.result["input"], "background");
    EXPECT_EQ(typed.result["enter"], "Activate") << typed.result.dump();
    EXPECT_EQ(typed.result["typed"], 4);
    EXPECT_FALSE(typed.result.contains("unverified")) << typed.result.dump();
    std::string said;
    EXPECT_TRUE(nd_test::wait_until(
        [&] {
            std::ifstream in(out);
            std::getline(in, said);
            return said == "Ada";
        },
        3s))
        << "zenity said \"" << said << "\"";
    std::remove(out.c_str());
}

TEST_F(DeskBackground, ClickRunsTheActionOfTheElementAtThePointAndSaysWhetherItsEffectShowed)
{
    with_mode(Mode::background);
    auto factory = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto snap = read(factory);
    const auto box = find(*snap, "check_box");
    ASSERT_GE(box, 0);
    const auto key = snap->elements[static_cast<std::size_t>(box)].key;
    const auto was = fresh(factory, key);
    ASSERT_TRUE(was.has_frame);
    // The person's dialog in front, over the middle of the screen.
    auto front = start({"zenity", "--question", "--title", "In front", "--text", "the person's window"}, 3);
    ASSERT_TRUE(nd_test::wait_until([&] { return person_view().active == front.window_id; }, 3s));
    const auto before = person_view();

    // x, y in pixels of the factory's own shot: its check box, whatever covers it on the screen.
    const auto c = nd_desk::centre_of(was.frame);
    auto clicked = call("click", {{"x", c.x - factory.frame.x}, {"y", c.y - factory.frame.y}, {"window", factory.title}});
    ASSERT_TRUE(clicked.ok) << clicked.error;
    EXPECT_EQ(clicked.result["input"], "background");
    EXPECT_EQ(clicked.result["element"]["role"], "check_box");
    EXPECT_FALSE(clicked.result.contains("unverified")) << clicked.result.dump();
    EXPECT_NE(clicked.result.value("effect", "").find("checked"), std::string::npos) << clicked.result.dump();
    EXPECT_NE(fresh(factory, key).is(nd_core::STATE_CHECKED), was.is(nd_core::STATE_CHECKED)) << "read back: it toggled";
    EXPECT_EQ(person_view(), before) << "the active window, the stacking and the pointer are the person's";

    // Only a single left click has this route.
    auto right = call("click", {{"x", c.x - factory.frame.x}, {"y", c.y - factory.frame.y}, {"window", factory.title},
                                   {"button", "right"}});
    EXPECT_NE(right.error.find("background_refused"), std::string::npos) << right.error;

    // The dialog's No button (the window under the point): it closes the dialog, which the button
    // itself cannot show, so the result is unverified.
    auto dialog = read(front);
    const auto no = find(*dialog, "push_button", "No");
    ASSERT_GE(no, 0);
    const auto nf = fresh(front, dialog->elements[static_cast<std::size_t>(no)].key).frame;
    const auto nc = nd_desk::centre_of(nf);
    auto pressed = call("click", {{"x", nc.x}, {"y", nc.y}});
    ASSERT_TRUE(pressed.ok) << pressed.error;
    EXPECT_EQ(pressed.result["element"]["name"], "No");
    EXPECT_TRUE(pressed.result.contains("unverified")) << pressed.result.dump();
    EXPECT_TRUE(nd_test::wait_until([&] { return !m_apps.back()->running(); }, 3s)) << "the dialog closed";
}

TEST_F(DeskBackground, ScrollMovesTheScrollBarOfAListBehindAndReadsItBack)
{
    with_mode(Mode::background);
    std::vector<std::string> argv{"zenity", "--list", "--title", "Long list", "--column", "Item"};
    for (int i = 0; i < 60; ++i)
        argv.push_back("row " + std::to_string(i));
    auto list = start(argv, 20);
    auto front = start({"zenity", "--info", "--title", "In front", "--text", "the person's window"}, 3);
    ASSERT_TRUE(nd_test::wait_until([&] { return person_view().active == front.window_id; }, 3s));
    const auto before = person_view();

    auto down = call("scroll", {{"direction", "down"}, {"amount", 3}, {"window", list.title}});
    ASSERT_TRUE(down.ok) << down.error;
    EXPECT_EQ(down.result["input"], "background");
    EXPECT_FALSE(down.result.contains("unverified")) << down.result.dump();
    EXPECT_GT(down.result.value("to", 0.0), down.result.value("from", 0.0)) << down.result.dump();
    // Back up to the top; a second step up finds the bar at its end, which it says.
    auto up = call("scroll", {{"direction", "up"}, {"amount", 50}, {"window", list.title}});
    ASSERT_TRUE(up.ok) << up.error;
    EXPECT_EQ(up.result.value("to", -1.0), 0.0) << up.result.dump();
    auto again = call("scroll", {{"direction", "up"}, {"window", list.title}});
    ASSERT_TRUE(again.ok) << again.error;
    EXPECT_TRUE(again.result.contains("unverified")) << again.result.dump();
    EXPECT_EQ(person_view(), before) << "the active window, the stacking and the pointer are the person's";
    // A window with nothing to scroll, and a scroll that names no window.
    auto none = call("scroll", {{"direction", "down"}, {"window", front.title}});
    EXPECT_NE(none.error.find("background_refused"), std::string::npos) << none.error;
    auto unnamed = call("scroll", {{"direction", "down"}});
    EXPECT_NE(unnamed.error.find("background_refused"), std::string::npos) << unnamed.error;
}

} // namespace

// The allowlist gates named background input by its target app (the named window's, the node's),
// not by the window on top at the point: with only zenity allowed, the factory behind it takes no
// background type, click or scroll, and nothing reaches it; zenity's own window still does.
TEST_F(DeskBackground, TheAllowlistGatesBackgroundInputByItsTargetApp)
{
    nd_desk::DeskConfig config;
    config.input_mode = Mode::background;
    config.allow = {"zenity"};
    use_config(std::move(config));
    auto factory = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto snap = read(factory); // the test's own read; the verbs' reads would refuse the app
    const auto entry = entry_of(*snap);
    ASSERT_GE(entry, 0);
    const auto key = snap->elements[static_cast<std::size_t>(entry)].key;
    const auto token = id(*snap, entry);
    const auto value = value_of(factory, fresh(factory, key));
    auto front = start({"zenity", "--entry", "--title", "Allowed", "--text", "allowed app"}, 3);

    auto typed = call("type", {{"text", "x"}, {"id", token}});
    EXPECT_NE(typed.error.find("app_out_of_scope"), std::string::npos) << typed.error;
    auto clicked = call("click", {{"x", 20}, {"y", 20}, {"window", factory.title}});
    EXPECT_FALSE(clicked.ok);
    auto scrolled = call("scroll", {{"direction", "down"}, {"window", factory.title}});
    EXPECT_FALSE(scrolled.ok);
    for (const auto* refused : {&clicked, &scrolled})
        EXPECT_TRUE(refused->error.find("app_out_of_scope") != std::string::npos ||
                    refused->error.find("window_target_not_found") != std::string::npos) << refused->error;
    EXPECT_EQ(value_of(factory, fresh(factory, key)), value) << "nothing reached the factory";

    // The allowed app's window takes it.
    auto allowed = call("type", {{"text", "ok"}, {"window", front.title}});
    ASSERT_TRUE(allowed.ok) << allowed.error;
    EXPECT_EQ(allowed.result["input"], "background");
}

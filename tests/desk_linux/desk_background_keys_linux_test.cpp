// Background keys per toolkit, on the virtual desktop (core/model/background_routes.h is the table
// this measures): with zenity's window active, key events sent to a Qt5 window (the codeeditor
// example) land in its focused editor, read back, with the person's active window, stacking and
// pointer unchanged; GTK3 (a zenity entry) and xterm drop such events, so background key refuses
// them, naming the toolkit, and auto sends the keys in the foreground instead (the text arrives).

#include "desk_linux/background_fixture.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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
            EXPECT_EQ(w["background"], nlohmann::json({"actions", "text", "value", "keys"})) << w.dump();
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
    EXPECT_NE(refused.error.find("GTK"), std::string::npos) << refused.error;
    EXPECT_NE(refused.error.find("desk_type"), std::string::npos) << "it points at the route GTK has: " << refused.error;
    EXPECT_EQ(field_texts(entry), "");

    with_mode(Mode::automatic);
    auto sent = call("key", {{"keys", "b"}, {"pid", entry.pid}});
    ASSERT_TRUE(sent.ok) << sent.error;
    EXPECT_EQ(sent.result["input"], "foreground");
    EXPECT_TRUE(sent.result.contains("background_refused"));
    EXPECT_TRUE(nd_test::wait_until([&] { return field_texts(entry) == "b"; }, 3s)) << field_texts(entry);
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

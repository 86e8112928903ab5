// GTK 4 (Debian 12's 4.8) answers every GetExtents relative to the surface its object lies on and
// marks nothing below its window showing: the driver places its frames on the screen, by the
// window's X origin and the popovers' own surfaces (atspi_toolkit.h). Checked where a wrong place
// shows: a foreground click lands where the frame says, after the window was moved away from the
// screen's corner, and a screenshot blacks the password field out where it is.

#include "tool_test_support.h"
#include "x11_test_support.h"

#include "support/temp_dir.h"
#include "../tools/png_decode.h"

#include <climits>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace nd_test {
namespace {

class Gtk4Surfaces : public TakeoverAppTest {
protected:
    void SetUp() override {} // each test opens its app (open_in_takeover sets the driver up)

    // Moves the window from outside the driver (GTK 4's own frames would not change) and waits
    // until the driver lists it elsewhere (the window manager keeps it on the screen).
    void move_window(int x, int y)
    {
        const auto id = std::to_string(m_window["window_id"].get<std::int64_t>());
        ASSERT_EQ(run_command({"xdotool", "windowmove", id, std::to_string(x), std::to_string(y)}), 0);
        ASSERT_TRUE(wait_until(
            [&] {
                const auto list = call("list_windows");
                for (const auto& w : list.s["windows"])
                    if (w["window_id"] == m_window["window_id"] && w["frame"]["x"] != m_window["frame"]["x"]) {
                        m_window = w;
                        return true;
                    }
                return false;
            },
            std::chrono::seconds(3)))
            << "the window did not move";
    }

    // The app in a headless session (no takeover needed).
    void open_headless(std::vector<std::string> argv, const std::string& app_name, int min_elements)
    {
        LinuxToolTest::SetUp();
        if (HasFatalFailure() || IsSkipped())
            return;
        m_app = std::make_unique<OwnedApp>(std::move(argv));
        m_window = wait_for_window(*m_app, app_name, min_elements, std::chrono::seconds(30));
        ASSERT_FALSE(m_window.is_null());
    }

    static bool inside(const json& frame, const json& outer)
    {
        const int x = frame["x"], y = frame["y"], ox = outer["x"], oy = outer["y"];
        return x >= ox && y >= oy && x + frame["w"].get<int>() <= ox + outer["w"].get<int>() &&
               y + frame["h"].get<int>() <= oy + outer["h"].get<int>();
    }

    // Clicks the menu bar item in the foreground and waits until its popover shows the item named
    // `name`, read into `item`.
    void open_menu(const json& menu, const std::string& name, json& item)
    {
        auto opened = call("click", {{"element_token", menu["element_token"]}, {"delivery_mode", "foreground"}});
        ASSERT_FALSE(opened.is_error) << opened.text;
        ASSERT_TRUE(wait_until([&] { return !(item = find_row(read_all(m_window), "menu_item", name)).is_null(); },
                               std::chrono::seconds(3)))
            << "the " << menu.value("name", "") << " popover did not open";
    }

    json window_titled(const std::string& title)
    {
        const auto list = call("list_windows");
        for (const auto& w : list.s["windows"])
            if (w.value("title", "") == title && m_app->owns(w["pid"].get<pid_t>()))
                return w;
        return nullptr;
    }
};

TEST_F(Gtk4Surfaces, APopoverMenuItemIsClickedWhereItShows)
{
    open_in_takeover({"gtk4-print-editor"}, "gtk4-print-editor", 10);
    if (HasFatalFailure() || IsSkipped())
        return;
    move_window(300, 200);
    auto read = read_all(m_window);
    auto file = find_row(read, "menu_item", "File");
    ASSERT_FALSE(file.is_null()) << read.dump().substr(0, 2000);
    ASSERT_TRUE(has_state(file, "showing")) << "GTK 4's visible stands for showing: " << file.dump();
    ASSERT_TRUE(inside(file["frame"], m_window["frame"])) << file.dump() << " not in " << m_window["frame"].dump();
    // GTK 4.8's menu bar items offer no action: the takeover's click is the way (it was refused:
    // the item had no frame).
    json open_item;
    open_menu(file, "Open", open_item);
    if (HasFatalFailure())
        return;
    // The popover lies on a surface of its own, below the menu bar, not where GTK answers it.
    EXPECT_GT(open_item["frame"]["y"].get<int>(), file["frame"]["y"].get<int>() + file["frame"]["h"].get<int>())
        << open_item.dump();
    auto clicked = call("click", {{"element_token", open_item["element_token"]}, {"delivery_mode", "foreground"}});
    ASSERT_FALSE(clicked.is_error) << clicked.text;
    EXPECT_TRUE(wait_until([&] { return !window_titled("Select file").is_null(); }, std::chrono::seconds(5)))
        << "the click on Open did not open the file chooser; Open read at " << open_item["frame"].dump();
}

// A popover may reach past its window's edge, on its own surface: a row there is clicked where it
// shows, not refused as lying outside the window. The window is made too short for the File menu.
TEST_F(Gtk4Surfaces, APopoverRowPastTheWindowsEdgeIsClickedOnItsPopup)
{
    open_in_takeover({"gtk4-print-editor"}, "gtk4-print-editor", 10);
    if (HasFatalFailure() || IsSkipped())
        return;
    const auto id = std::to_string(m_window["window_id"].get<std::int64_t>());
    ASSERT_EQ(run_command({"xdotool", "windowsize", id, "360", "90"}), 0);
    move_window(300, 200);
    auto file = find_row(read_all(m_window), "menu_item", "File");
    ASSERT_FALSE(file.is_null());
    json setup;
    open_menu(file, "Page Setup", setup);
    if (HasFatalFailure())
        return;
    const auto& f = setup["frame"];
    const int bottom = m_window["frame"]["y"].get<int>() + m_window["frame"]["h"].get<int>();
    ASSERT_GT(f["y"].get<int>() + f["h"].get<int>() / 2, bottom) << "Page Setup lies inside the window: " << setup.dump();
    auto clicked = call("click", {{"element_token", setup["element_token"]}, {"delivery_mode", "foreground"}});
    ASSERT_FALSE(clicked.is_error) << clicked.text;
    EXPECT_TRUE(wait_until([&] { return !window_titled("Page Setup").is_null(); }, std::chrono::seconds(5)))
        << "the click on Page Setup did not open its dialog; read at " << f.dump();
}

TEST_F(Gtk4Surfaces, FramesFollowTheWindowAndThePasswordFieldIsBlackedOutWhereItShows)
{
    open_in_takeover({"gtk4-widget-factory"}, "gtk4-widget-factory", 500);
    if (HasFatalFailure() || IsSkipped())
        return;
    move_window(120, 90);
    auto read = read_all(m_window);
    const auto& root = read["elements"][0];
    ASSERT_TRUE(inside(root["frame"], m_window["frame"])) << root.dump() << " not in " << m_window["frame"].dump();
    auto pw = find_row(read, "password_text");
    ASSERT_FALSE(pw.is_null()) << read.dump().substr(0, 2000);
    ASSERT_TRUE(pw["frame"].is_object()) << "the password field has no frame: " << pw.dump();
    ASSERT_TRUE(inside(pw["frame"], m_window["frame"])) << pw.dump();
    ASSERT_FALSE(has_state(pw, "focused"));

    // A click where the frame says focuses the field: the frame is where the field shows.
    auto clicked = call("click", {{"element_token", pw["element_token"]}, {"delivery_mode", "foreground"}});
    ASSERT_FALSE(clicked.is_error) << clicked.text;
    EXPECT_TRUE(wait_until([&] { return has_state(find_row(read_all(m_window), "password_text"), "focused"); },
                           std::chrono::seconds(3)))
        << "a click at " << pw["frame"].dump() << " did not focus the password field";

    auto shot = call("get_window_state", {{"window_id", m_window["window_id"]}, {"include_screenshot", true}});
    ASSERT_FALSE(shot.is_error) << shot.text;
    ASSERT_FALSE(shot.image.empty()) << shot.s.dump().substr(0, 500);
    Pixels px;
    ASSERT_TRUE(decode_png(base64_decode(shot.image), px));
    const auto& wf = shot.s["window"]["frame"];
    const auto& f = pw["frame"];
    const int x0 = f["x"].get<int>() - wf["x"].get<int>(), y0 = f["y"].get<int>() - wf["y"].get<int>();
    int checked = 0;
    for (int y = y0; y < y0 + f["h"].get<int>(); y += 2)
        for (int x = x0; x < x0 + f["w"].get<int>(); x += 5) {
            ASSERT_TRUE(x >= 0 && y >= 0 && x < px.width && y < px.height) << "the field lies outside the capture";
            const auto* p = px.at(x, y);
            ASSERT_TRUE(p[0] == 0 && p[1] == 0 && p[2] == 0) << "pixel " << x << "," << y << " of the password field";
            ++checked;
        }
    EXPECT_GT(checked, 100);
}

// GTK 4 keeps a stack's hidden pages visible, at the place they last had: the app's own hit test
// tells the page shown, and the rows of the others are neither showing nor placed. Switched both
// ways, since a page shown before keeps its old place when hidden.
TEST_F(Gtk4Surfaces, OnlyTheStackPageShownShows)
{
    open_headless({"gtk4-widget-factory"}, "gtk4-widget-factory", 500);
    if (HasFatalFailure() || IsSkipped())
        return;
    auto tab = [&](const json& read, const std::string& name) { return find_row(read, "page_tab", name); };
    auto shows = [&](const json& row) {
        return has_state(row, "showing") && !has_state(row, "hidden") && row["frame"].is_object();
    };
    auto hidden = [&](const json& row) {
        return !has_state(row, "showing") && has_state(row, "hidden") && row["frame"].is_null();
    };
    auto read = read_all(m_window);
    // Sunset is a tab on the first page, News one on the second.
    ASSERT_FALSE(tab(read, "Sunset").is_null() || tab(read, "News").is_null()) << read.dump().substr(0, 2000);
    EXPECT_TRUE(shows(tab(read, "Sunset"))) << tab(read, "Sunset").dump();
    EXPECT_TRUE(hidden(tab(read, "News"))) << tab(read, "News").dump();
    // The stack switcher's tabs (notebooks on the pages have tabs of the same names, without actions).
    auto switcher = [&](const json& read, const std::string& name) {
        return find_row(read, "page_tab", name, [](const json& row) { return !row["actions"].empty(); });
    };
    for (const char* page : {"Page 2", "Page 1", "Page 2"}) {
        auto switched = call("click", {{"element_token", switcher(read_all(m_window), page)["element_token"]}});
        ASSERT_FALSE(switched.is_error) << switched.text;
        const bool second = std::string(page) == "Page 2";
        EXPECT_TRUE(wait_until(
            [&] {
                read = read_all(m_window);
                return second ? shows(tab(read, "News")) && hidden(tab(read, "Sunset"))
                              : shows(tab(read, "Sunset")) && hidden(tab(read, "News"));
            },
            std::chrono::seconds(3)))
            << "after " << page << ": Sunset " << tab(read, "Sunset").dump() << ", News " << tab(read, "News").dump();
    }
}

// A page the app switches by itself (a timer, an answer from the network; here a signal), with no
// switcher whose selection would announce it: GTK 4 sends the pages' state changes, and each read,
// warm ones included, shows the page shown now.
TEST_F(Gtk4Surfaces, APageTheAppSwitchesByItselfShowsInTheNextRead)
{
    open_headless({"/usr/bin/python3", std::string(NISH_SOURCE_DIR) + "/fixtures/apps/gtk4_pages.py"}, "gtk4_pages.py", 6);
    if (HasFatalFailure() || IsSkipped())
        return;
    auto button = [&](const json& read, const std::string& page) { return find_row(read, "push_button", page + " page button"); };
    auto showing = [&](const json& read) {
        const auto first = button(read, "First"), second = button(read, "Second");
        if (first.is_null() || second.is_null())
            return std::string("?");
        const bool a = has_state(first, "showing") && first["frame"].is_object();
        const bool b = has_state(second, "showing") && second["frame"].is_object();
        return a == b ? std::string("both or neither") : a ? std::string("First") : std::string("Second");
    };
    auto read = read_all(m_window);
    ASSERT_EQ(showing(read), "First") << read.dump().substr(0, 2000);
    // Past the second the app needs to learn of the event listeners, reads are warm; each switch
    // follows a read of the unchanged window, which the driver answers from what it holds.
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    for (const char* expected : {"Second", "First", "Second"}) {
        ASSERT_EQ(showing(read_all(m_window)), expected == std::string("First") ? "Second" : "First");
        ASSERT_EQ(::kill(m_app->pid(), SIGUSR1), 0);
        EXPECT_TRUE(wait_until([&] { return showing(read = read_all(m_window)) == expected; }, std::chrono::seconds(3)))
            << "expected the " << expected << " page; read " << showing(read);
    }
}

// GTK 4 marks what it folds away visible (an info bar, a revealer's child) and gives it no size: it
// reads hidden, with no line in a full read's text and no row in the skeleton, until the app
// unfolds it; then it shows in the next read, warm ones included, and goes again when folded.
TEST_F(Gtk4Surfaces, WhatTheAppFoldsAwayIsHiddenUntilItUnfolds)
{
    open_headless({"/usr/bin/python3", std::string(NISH_SOURCE_DIR) + "/fixtures/apps/gtk4_pages.py"}, "gtk4_pages.py", 6);
    if (HasFatalFailure() || IsSkipped())
        return;
    const auto id = m_window["window_id"];
    struct Seen {
        json retry;
        std::string text;
    };
    auto look = [&] {
        auto whole = call("get_window_state", {{"window_id", id}, {"max_elements", 5000}, {"max_depth", 200}});
        EXPECT_FALSE(whole.is_error) << whole.text;
        return Seen{find_row(whole.s, "push_button", "Retry upload"), whole.text};
    };
    auto folded = [](const Seen& s) {
        return !s.retry.is_null() && has_state(s.retry, "hidden") && !has_state(s.retry, "showing") &&
               s.retry["frame"].is_null() && s.text.find("Retry upload") == std::string::npos &&
               s.text.find("Upload failed") == std::string::npos && s.text.find("First page button") != std::string::npos;
    };
    auto unfolded = [](const Seen& s) {
        return !s.retry.is_null() && !has_state(s.retry, "hidden") && has_state(s.retry, "showing") &&
               s.retry["frame"].is_object() && s.text.find("push_button \"Retry upload\"") != std::string::npos &&
               s.text.find("Upload failed") != std::string::npos;
    };
    auto seen = look();
    ASSERT_TRUE(folded(seen)) << seen.retry.dump() << "\n" << seen.text;
    auto skeleton = call("get_window_state", {{"window_id", id}, {"skeleton", true}});
    ASSERT_FALSE(skeleton.is_error) << skeleton.text;
    EXPECT_EQ(skeleton.text.find("Upload failed"), std::string::npos) << skeleton.text;
    // Past the second the app needs to learn of the event listeners, reads are warm.
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    for (const bool unfold : {true, false, true}) {
        ASSERT_EQ(::kill(m_app->pid(), SIGUSR2), 0);
        EXPECT_TRUE(wait_until([&] { return unfold ? unfolded(seen = look()) : folded(seen = look()); },
                               std::chrono::seconds(3)))
            << (unfold ? "unfolded" : "folded") << ": " << seen.retry.dump() << "\n" << seen.text;
    }
    // The button acts where it shows.
    auto clicked = call("click", {{"element_token", seen.retry["element_token"]}});
    EXPECT_FALSE(clicked.is_error) << clicked.text;
}

// GNOME's apps set their window class to their application id ("org.gnome.Nautilus"), which no
// person asks for: a session for the id's last part, for the process's executable, or for the name
// the process was started under (a launcher's symlink, as Thunderbird's "thunderbird" is to its
// thunderbird-bin) sees the window; a session for another name does not.
TEST_F(Gtk4Surfaces, AnAppWhoseClassIsItsIdIsFoundByItsShortNameExecutableOrStartName)
{
    TempDir dir("nish-start-name");
    const auto launcher = std::filesystem::path(dir.path) / "pages-launcher";
    std::filesystem::create_symlink("/usr/bin/python3", launcher);
    open_headless({launcher.string(), std::string(NISH_SOURCE_DIR) + "/fixtures/apps/gtk4_pages.py", "--id-class"},
                  "StackPages", 6);
    if (HasFatalFailure() || IsSkipped())
        return;
    EXPECT_EQ(m_window.value("app", ""), "org.nish.StackPages");
    char resolved[PATH_MAX];
    ASSERT_NE(::realpath("/usr/bin/python3", resolved), nullptr);
    const std::string executable = std::filesystem::path(resolved).filename();
    auto listed = [&](const std::string& app) {
        call("end_session");
        auto started = call("start_session", {{"apps", {app}}});
        EXPECT_FALSE(started.is_error) << started.text;
        auto list = call("list_windows");
        EXPECT_FALSE(list.is_error) << list.text;
        for (const auto& w : list.s["windows"])
            if (w["window_id"] == m_window["window_id"])
                return true;
        return false;
    };
    EXPECT_TRUE(listed(executable)) << executable;
    EXPECT_TRUE(listed("pages-launcher")) << "the name it was started under";
    EXPECT_FALSE(listed("pages")) << "a part of it";
    EXPECT_TRUE(listed("org.nish.StackPages"));
    EXPECT_FALSE(listed("nish"));
    EXPECT_FALSE(listed("stack"));
    // The short name reads the window, and targets it as app.
    ASSERT_TRUE(listed("stackpages"));
    auto read = call("get_window_state", {{"app", "StackPages"}, {"max_elements", 5}});
    EXPECT_FALSE(read.is_error) << read.text;
}

} // namespace
} // namespace nd_test

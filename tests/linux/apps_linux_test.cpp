// The contract tools on the real Linux backend with toolkits beyond GTK3, each from its Debian
// package: gtk4-widget-factory (gtk-4-examples), a Qt5 widget example (qtbase5-examples) and
// Chromium on a dense local page (fixtures/web/dense.html, about 10,000 accessible nodes, more
// than the engine's 5,000-element read budget).

#include "browser_acts.h"

#include "core/model/labels.h"
#include "support/temp_dir.h"

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <thread>

namespace {

using nd_test::json;
using nd_test::OwnedApp;

constexpr auto APP_START = std::chrono::seconds(20);

// ---- GTK4 --------------------------------------------------------------------------------------

class Gtk4 : public nd_test::LinuxToolTest {
protected:
    // gnome-calculator's window once its keypad reads (the keys come a moment after the window),
    // with that read in `all`; null, with a failure, when it does not.
    json open_calculator(OwnedApp& app, json& all)
    {
        auto window = wait_for_window(app, "gnome-calculator", 40, APP_START);
        if (window.is_null())
            return window;
        if (!nd_test::wait_until([&] { all = read_all(window); return !find_row(all, "push_button", "7").is_null(); },
                std::chrono::seconds(10))) {
            ADD_FAILURE() << "no button 7";
            return nullptr;
        }
        return window;
    }
};

TEST_F(Gtk4, WidgetFactoryReadsWithToolkitRoles)
{
    OwnedApp app({"gtk4-widget-factory"});
    auto window = wait_for_window(app, "gtk4-widget-factory", 500, APP_START);
    ASSERT_FALSE(window.is_null());
    auto all = read_all(window);
    ASSERT_GT(all["total_elements"].get<int>(), 500);
    EXPECT_FALSE(all["budget_truncated"].get<bool>());
    EXPECT_EQ(all["element_count"], all["total_elements"]);
    EXPECT_EQ(all["elements"][0]["role"], "frame");
    EXPECT_EQ(all["elements"][0]["name"], "GTK Widget Factory");

    std::map<std::string, int> roles;
    const std::regex snake("[a-z][a-z_]*");
    for (const auto& row : all["elements"]) {
        const auto role = row["role"].get<std::string>();
        ++roles[role];
        EXPECT_TRUE(std::regex_match(role, snake)) << role;
        EXPECT_NE(role, "unknown") << row.dump();
    }
    EXPECT_GE(roles["push_button"], 20);
    EXPECT_GE(roles["check_box"], 5);
    EXPECT_GE(roles["radio_button"], 5);
    EXPECT_GE(roles["page_tab"], 3);
    EXPECT_GE(roles["page_tab_list"], 1);
    EXPECT_GE(roles["slider"], 1);
    EXPECT_GE(roles["spin_button"], 1);
    EXPECT_GE(roles["text"], 5);
    EXPECT_GE(roles["label"], 50);

    // GtkPasswordEntry: secure, its value never read.
    auto pw = find_row(all, "password_text");
    ASSERT_FALSE(pw.is_null());
    EXPECT_TRUE(has_state(pw, "secure"));
    EXPECT_EQ(pw["value_redacted"], true);
    EXPECT_FALSE(pw.contains("value"));

    auto skeleton = call("get_window_state", {{"window_id", window["window_id"]}, {"skeleton", true}});
    ASSERT_FALSE(skeleton.is_error) << skeleton.text;
    EXPECT_LE(skeleton.s["elements"].size(), 60u);
    EXPECT_GE(skeleton.s["elements"].size(), 10u);
    EXPECT_EQ(skeleton.s["snapshot_id"], all["snapshot_id"]);
    for (const auto& row : skeleton.s["elements"]) {
        const auto& same = row_at(all, row);
        EXPECT_EQ(same["element_token"], row["element_token"]);
        EXPECT_EQ(same["role"], row["role"]);
    }
}

// GTK4 names unlabelled widgets by their class (GtkButton, GtkImage, GtkMenuButton). Every view
// shows a label a person reads instead (core/model/labels.h): the raw read has dozens of class names, the
// driver's read none, and buttons named by class read by their child label.
TEST_F(Gtk4, ClassNamesGiveWayToLabelsAPersonReads)
{
    OwnedApp app({"gtk4-widget-factory"});
    auto window = wait_for_window(app, "gtk4-widget-factory", 500, APP_START);
    ASSERT_FALSE(window.is_null());
    auto all = read_all(window);
    nd_core::WindowInfo info;
    auto listed = backend().windows()->list_windows();
    ASSERT_TRUE(listed);
    for (const auto& w : *listed)
        if (w.window_id == window["window_id"].get<std::int64_t>())
            info = w;
    // The factory animates (a spinner, progress bars): read until two reads hold the same rows.
    auto raw = backend().trees()->read_window(info, {5000, 200, std::chrono::seconds(10)});
    for (int attempt = 0; attempt < 10 && raw && raw->elements.size() != all["elements"].size(); ++attempt) {
        all = read_all(window);
        raw = backend().trees()->read_window(info, {5000, 200, std::chrono::seconds(10)});
    }
    ASSERT_TRUE(raw) << raw.error().message;
    ASSERT_EQ(raw->elements.size(), all["elements"].size()) << "the window changed between the two reads";

    // GTK 4 leaves mnemonic marks in names ("_Inform Inform", a stack's "Page _1"): none is read.
    const std::regex marked("(^|[^_])_[^_ ]");
    int class_named = 0, relabelled = 0, mnemonics = 0;
    for (std::size_t i = 0; i < raw->elements.size(); ++i) {
        const auto& row = all["elements"][i];
        const auto shown = row.value("name", "");
        EXPECT_FALSE(nd_core::is_class_name(shown)) << row.dump();
        if (std::regex_search(raw->elements[i].name, marked)) {
            ++mnemonics;
            EXPECT_FALSE(std::regex_search(shown, marked)) << raw->elements[i].name << " read as " << row.dump();
        }
        if (!nd_core::is_class_name(raw->elements[i].name))
            continue;
        ++class_named;
        if (!shown.empty() && row["role"] == "push_button")
            ++relabelled;
    }
    std::printf("gtk4-widget-factory: %d class names read, %d buttons relabelled by their child label, "
        "%d names with mnemonic marks\n", class_named, relabelled, mnemonics);
    EXPECT_GE(class_named, 50);
    EXPECT_GE(relabelled, 3);
    EXPECT_GE(mnemonics, 5);
    EXPECT_FALSE(find_row(all, "push_button", "Inform").is_null());
    EXPECT_FALSE(find_row(all, "page_tab", "Page 1").is_null());
    EXPECT_FALSE(find_row(all, "panel", "Page 1").is_null());
    // The skeleton shows the same labels.
    auto skeleton = call("get_window_state", {{"window_id", window["window_id"]}, {"skeleton", true}});
    ASSERT_FALSE(skeleton.is_error) << skeleton.text;
    for (const auto& row : skeleton.s["elements"])
        EXPECT_FALSE(nd_core::is_class_name(row.value("label", ""))) << row.dump();
}

// gnome-calculator (GTK4 and libadwaita) names its digit buttons "7 7" and its menu buttons
// "GtkMenuButton"; a person reads "7" and the tooltip "Primary menu".
TEST_F(Gtk4, CalculatorButtonsReadAsAPersonReadsThem)
{
    OwnedApp app({"gnome-calculator"});
    json all;
    auto window = open_calculator(app, all);
    ASSERT_FALSE(window.is_null());
    EXPECT_FALSE(find_row(all, "push_button", "Primary menu").is_null());
    EXPECT_FALSE(find_row(all, "push_button", "=").is_null());
    for (const auto& row : all["elements"]) {
        const auto name = row.value("name", "");
        EXPECT_FALSE(nd_core::is_class_name(name)) << row.dump();
        EXPECT_NE(name, "7 7");
    }
}

// gnome-calculator names none of its containers: its skeleton was the window and two scroll panes.
// Its header bar and its keypad are groups of controls: rows of the skeleton, whose drill-downs
// hold the header's "Primary menu" and the keypad's "=".
TEST_F(Gtk4, CalculatorSkeletonShowsItsHeaderBarAndKeypad)
{
    OwnedApp app({"gnome-calculator"});
    json all;
    auto window = open_calculator(app, all);
    ASSERT_FALSE(window.is_null());
    auto sk = call("get_window_state", {{"window_id", window["window_id"]}, {"skeleton", true}});
    ASSERT_FALSE(sk.is_error) << sk.text;
    auto holds = [&](const char* name) {
        for (const auto& row : sk.s["elements"]) {
            if (row["element_index"] == 0)
                continue;
            auto down = call("get_window_state", {{"root", row["element_token"]}, {"max_elements", 200}});
            if (!down.is_error && !find_row(down.s, "push_button", name).is_null())
                return true;
        }
        return false;
    };
    EXPECT_TRUE(holds("Primary menu")) << sk.text;
    EXPECT_TRUE(holds("=")) << sk.text;
    EXPECT_LE(sk.s["elements"].size(), 60u);
    std::printf("gnome-calculator skeleton:\n%s\n", sk.text.c_str());
}

// A GTK 4 menu button ("Primary menu") has no actions of its own: the toggle button inside it takes
// a person's click. A click on the menu button (the outer row, as a model picks it) opens its menu.
TEST_F(Gtk4, AMenuButtonOpensItsMenuOnAClick)
{
    OwnedApp app({"gnome-calculator"});
    json all;
    auto window = open_calculator(app, all);
    ASSERT_FALSE(window.is_null());
    auto button = find_row(all, "push_button", "Primary menu");
    ASSERT_FALSE(button.is_null());
    ASSERT_TRUE(button["actions"].empty()) << "the outer button acts itself now: " << button.dump();
    auto r = call("click", {{"element_token", button["element_token"]}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(r.s["path"], "semantic");
    EXPECT_TRUE(nd_test::wait_until([&] { return !find_row(read_all(window), "menu_item", "New Window").is_null(); },
        std::chrono::seconds(3)))
        << "no menu after the click: " << r.text;
    EXPECT_TRUE(has_state(find_row(read_all(window), "push_button", "Primary menu"), "expanded"));
}

// GTK4 runs a button's AT-SPI Click as a person's activation: the button shows pressed for 250 ms
// before its handler runs. Each key's effect on the display must still confirm its click, not
// answer "dispatched" with a takeover escalation (the settle's quiet time, docs/tokens.md).
TEST_F(Gtk4, CalculatorKeysAreConfirmedByTheDisplay)
{
    OwnedApp app({"gnome-calculator"});
    json all;
    auto window = open_calculator(app, all);
    ASSERT_FALSE(window.is_null());
    ASSERT_FALSE(find_row(all, "push_button", "=").is_null()) << "no button =";
    for (const char* key : {"7", "+", "8", "="}) {
        auto r = call("click", {{"element_token", find_row(read_all(window), "push_button", key)["element_token"]}});
        ASSERT_FALSE(r.is_error) << key << ": " << r.text;
        EXPECT_EQ(r.s["effect"], "confirmed") << key << ": " << r.text;
        EXPECT_TRUE(r.s["escalation"].is_null()) << key << ": " << r.text;
    }
    // The display is the window's text field that holds the sum (the other is empty).
    std::string shown;
    EXPECT_TRUE(nd_test::wait_until(
        [&] {
            shown.clear();
            const auto now = read_all(window);
            for (const auto& row : now["elements"])
                if (row["role"] == "text")
                    shown += "[" + row.value("value", "") + "]";
            return shown.find("[15]") != std::string::npos;
        },
        std::chrono::seconds(2)))
        << "the text fields show " << shown;
}

TEST_F(Gtk4, ClickTogglesACheckBoxAndReReadShowsIt)
{
    OwnedApp app({"gtk4-widget-factory"});
    auto window = wait_for_window(app, "gtk4-widget-factory", 500, APP_START);
    ASSERT_FALSE(window.is_null());
    // GTK 4.8 gives a check box an action only when it is a GtkSwitch ("Toggle"); see the next test.
    // Its accessible name is its class name, which a read shows as no name (core/model/labels.h).
    auto box = find_row(read_all(window), "check_box", "", [](const json& row) {
        return has_state(row, "enabled") && !row["actions"].empty();
    });
    ASSERT_FALSE(box.is_null());
    const bool was = has_state(box, "checked");
    for (bool expect : {!was, was}) {
        auto r = call("click", {{"element_token", box["element_token"]}});
        ASSERT_FALSE(r.is_error) << r.text;
        EXPECT_EQ(r.s["path"], "semantic");
        // The switch slides for about 110 ms before its state flips; the act's settle may end
        // before that (then the effect is "dispatched"), so the re-read is what decides.
        EXPECT_TRUE(r.s["effect"] == "confirmed" || r.s["effect"] == "dispatched") << r.text;
        json after;
        const bool flipped = nd_test::wait_until(
            [&] {
                after = row_at(read_all(window), box);
                return has_state(after, "checked") == expect;
            },
            std::chrono::seconds(2));
        EXPECT_TRUE(flipped) << after.dump();
        EXPECT_EQ(after["name"], box["name"]);
        EXPECT_EQ(after["element_token"], box["element_token"]);
    }
}

TEST_F(Gtk4, CheckButtonWithoutAnActionFailsCleanlyAndChangesNothing)
{
    OwnedApp app({"gtk4-widget-factory"});
    auto window = wait_for_window(app, "gtk4-widget-factory", 500, APP_START);
    ASSERT_FALSE(window.is_null());
    // GTK 4.8's GtkCheckButton has the Action interface with no action in it.
    auto box = find_row(read_all(window), "check_box", "checkbutton",
                        [](const json& row) { return has_state(row, "enabled") && row["actions"].empty(); });
    ASSERT_FALSE(box.is_null());
    auto r = call("click", {{"element_token", box["element_token"]}});
    ASSERT_TRUE(r.is_error) << r.text;
    EXPECT_EQ(r.code(), "action_not_offered") << r.text;
    EXPECT_EQ(r.s["error"]["disposition"]["retry"], "never");
    auto after = row_at(read_all(window), box);
    EXPECT_EQ(after["element_token"], box["element_token"]);
    EXPECT_EQ(has_state(after, "checked"), has_state(box, "checked"));
}

// ---- Qt5 ---------------------------------------------------------------------------------------

class Qt5 : public nd_test::LinuxToolTest {
protected:
    static std::string example(const std::string& name)
    {
        return nd_test::qt5_example("widgets/widgets/" + name + "/" + name);
    }
};

// Qt5's AT-SPI adaptor takes Properties.GetAll for Get and crashed on the read's second argument
// (SIGSEGV in QVariant::toString): the reader asks apps without an item cache, Qt among them,
// one property at a time (WalkOptions::property_gets). This reads and presses the calculator.
TEST_F(Qt5, CalculatorReadsAndPressesButtons)
{
    OwnedApp app({example("calculator")});
    auto window = wait_for_window(app, "calculator", 20, APP_START);
    ASSERT_FALSE(window.is_null());
    auto all = read_all(window);
    EXPECT_EQ(all["elements"][0]["name"], "Calculator");
    auto display = find_row(all, "text");
    ASSERT_FALSE(display.is_null()) << all.dump().substr(0, 2000);
    EXPECT_EQ(display.value("value", ""), "0");
    for (const auto* digit : {"0", "1", "2", "5", "7", "9"})
        EXPECT_FALSE(find_row(all, "push_button", digit).is_null()) << digit;

    auto press = [&](const std::string& name, const std::string& shown) {
        auto button = find_row(all, "push_button", name);
        ASSERT_FALSE(button.is_null()) << name;
        auto r = call("click", {{"element_token", button["element_token"]}});
        ASSERT_FALSE(r.is_error) << name << ": " << r.text;
        EXPECT_EQ(r.s["path"], "semantic");
        all = read_all(window);
        EXPECT_EQ(row_at(all, display).value("value", ""), shown) << "after " << name;
    };
    press("7", "7");
    press("+", "7");
    press("5", "5");
    press("=", "12");
    EXPECT_TRUE(app.running()) << "the calculator died";
}

// FeatherPad's search bar: icon buttons and check boxes that Qt leaves unnamed, with their
// tooltips in the description. They read by their tooltips (docs/tokens.md, "Labels"), and the
// check box so named is clicked headless and reads checked. Before, five unnamed controls read
// `push_button ""` and `check_box ""`, which no model could tell apart.
TEST_F(Qt5, IconControlsReadTheirTooltipsAndActUnderThem)
{
    // Its settings go to a home of its own, so a person's FeatherPad settings play no part.
    const std::string home = std::filesystem::temp_directory_path() / ("nish-featherpad-" + std::to_string(::getpid()));
    std::filesystem::create_directories(home);
    OwnedApp app({"env", "HOME=" + home, "XDG_CONFIG_HOME=" + home + "/.config", "featherpad"});
    auto window = wait_for_window(app, "featherpad", 100, APP_START);
    ASSERT_FALSE(window.is_null());
    auto all = read_all(window);
    for (const auto* name : {"Next (F3)", "Previous (F4)"})
        EXPECT_FALSE(find_row(all, "push_button", name).is_null()) << name << "\n" << all.dump().substr(0, 3000);
    auto match_case = find_row(all, "check_box", "Match Case (F5)");
    ASSERT_FALSE(match_case.is_null()) << all.dump().substr(0, 3000);
    EXPECT_FALSE(has_state(match_case, "checked"));
    auto r = call("click", {{"element_token", match_case["element_token"]}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_TRUE(nd_test::wait_until([&] { return has_state(row_at(read_all(window), match_case), "checked"); },
                                    std::chrono::seconds(5)));
    std::error_code ignored;
    std::filesystem::remove_all(home, ignored);
}

// Qt keeps a tab widget's other pages in the tree, neither visible nor showing: Qt 5's tab dialog
// read as its General page and, with it, the Permissions page's check boxes and the Applications
// page's list of 30 programs, all in the skeleton too. A hidden page is now one line of the text
// that says so and how much lies below it, and no row of the skeleton; choosing its tab shows it.
TEST_F(Qt5, ATabWidgetsOtherPagesAreHiddenUntilTheirTabIsChosen)
{
    OwnedApp app({nd_test::qt5_example("widgets/dialogs/tabdialog/tabdialog")});
    auto window = wait_for_window(app, "tabdialog", 20, APP_START);
    ASSERT_FALSE(window.is_null());
    auto whole = [&] {
        auto r = call("get_window_state", {{"window_id", window["window_id"]}, {"max_elements", 5000}, {"max_depth", 200}});
        EXPECT_FALSE(r.is_error) << r.text;
        return r;
    };
    auto r = whole();
    auto readable = find_row(r.s, "check_box", "Readable");
    ASSERT_FALSE(readable.is_null()) << r.text;
    EXPECT_TRUE(has_state(readable, "hidden"));
    EXPECT_EQ(r.text.find("\"Readable\""), std::string::npos) << r.text;
    EXPECT_EQ(r.text.find("\"Application 1\""), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("(hidden) descendants="), std::string::npos) << r.text;
    EXPECT_NE(r.text.find(" hidden, empty or repeated not listed)"), std::string::npos) << r.text.substr(0, 200);
    EXPECT_NE(r.text.find("\"File Name:\""), std::string::npos) << "the page that shows\n" << r.text;
    auto skeleton = call("get_window_state", {{"window_id", window["window_id"]}, {"skeleton", true}});
    ASSERT_FALSE(skeleton.is_error) << skeleton.text;
    EXPECT_EQ(skeleton.text.find("\"Permissions\""), std::string::npos) << skeleton.text;
    EXPECT_EQ(skeleton.text.find("\"Ownership\""), std::string::npos) << skeleton.text;

    auto tab = find_row(r.s, "page_tab", "Permissions");
    ASSERT_FALSE(tab.is_null()) << r.text;
    auto clicked = call("click", {{"element_token", tab["element_token"]}});
    ASSERT_FALSE(clicked.is_error) << clicked.text;
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            r = whole();
            auto row = find_row(r.s, "check_box", "Readable");
            return !row.is_null() && !has_state(row, "hidden");
        },
        std::chrono::seconds(5)))
        << r.text;
    EXPECT_NE(r.text.find("\"Readable\""), std::string::npos) << r.text;
    EXPECT_EQ(r.text.find("\"File Name:\""), std::string::npos) << "the General page is hidden now\n" << r.text;
    skeleton = call("get_window_state", {{"window_id", window["window_id"]}, {"skeleton", true}});
    EXPECT_NE(skeleton.text.find("panel \"Permissions\""), std::string::npos) << skeleton.text;
}

// ---- A document viewer ----------------------------------------------------------------------------

using DocumentViewer = nd_test::LinuxToolTest;

// Evince (GTK 3) shows each page of a PDF as a `page` with Text. It extracts a page's text when
// first asked, and it crashed (SIGSEGV in libevview3) when the pages it had not rendered were asked
// one after another, as a whole read asked them: a PDF of 80 pages crashed it at the first read.
// A page that is not on screen is read without its text: Evince lives through reads, and the
// page on screen reads as its text.
TEST_F(DocumentViewer, EvinceLivesThroughReadsAndThePageOnScreenReadsAsItsText)
{
    nd_test::TempDir dir("nish-evince");
    const std::string pdf = dir.path + "/book.pdf";
    const std::string make = "/usr/bin/python3 " + std::string(NISH_SOURCE_DIR) + "/fixtures/apps/book_pdf.py 80 " + pdf;
    ASSERT_EQ(std::system(make.c_str()), 0) << make;
    // Its settings and its documents' metadata go to a home of its own.
    OwnedApp app({"env", "HOME=" + dir.path, "XDG_CONFIG_HOME=" + dir.path + "/.config",
                  "XDG_DATA_HOME=" + dir.path + "/.local/share", "evince", pdf});
    auto window = wait_for_window(app, "evince", 100, APP_START);
    ASSERT_FALSE(window.is_null());
    auto with_text = [](const json& read) {
        int n = 0;
        for (const auto& row : read["elements"])
            n += row["role"] == "page" && !row.value("value", "").empty() ? 1 : 0;
        return n;
    };
    // Read after read (each a whole read and a skeleton) until Evince has drawn the page on screen
    // and it reads as its text; then two more.
    json all;
    const bool drawn = nd_test::wait_until(
        [&] {
            all = read_all(window);
            auto skeleton = call("get_window_state", {{"window_id", window["window_id"]}, {"skeleton", true}});
            return (with_text(all) > 0 && !skeleton.is_error) || !app.running();
        },
        std::chrono::seconds(20));
    for (int i = 0; i < 2 && app.running(); ++i)
        all = read_all(window);
    std::this_thread::sleep_for(std::chrono::seconds(1));
    ASSERT_TRUE(app.running()) << "Evince crashed";
    std::string first_pages;
    for (const auto& row : all["elements"])
        if (row["role"] == "page" && first_pages.size() < 1500)
            first_pages += row.dump() + "\n";
    EXPECT_TRUE(drawn) << "no page read as its text; the first pages read:\n" << first_pages;
    int pages = 0;
    for (const auto& row : all["elements"]) {
        if (row["role"] != "page")
            continue;
        ++pages;
        const auto value = row.value("value", "");
        if (value.empty())
            continue;
        EXPECT_TRUE(has_state(row, "showing")) << "a page off screen was asked for its text: " << value.substr(0, 40);
        EXPECT_EQ(value.rfind("Chapter ", 0), 0u) << value.substr(0, 80);
    }
    EXPECT_EQ(pages, 80);
    EXPECT_GE(with_text(all), 1) << "the page on screen reads as its text";
    EXPECT_LT(with_text(all), 10);
}

// ---- An app without accessibility -------------------------------------------------------------

using NoAccessibility = nd_test::LinuxToolTest;

// xterm (Xt) draws a window and joins no accessibility bus, like a GTK 2 app without its bridge
// module: a read says so, with what to do next, instead of sending the model to list_windows for a
// window it just listed.
TEST_F(NoAccessibility, AReadOfAnAppThatShowsNoTreeSaysSo)
{
    OwnedApp app({"xterm", "-title", "nish-no-accessibility"});
    ASSERT_GT(app.pid(), 0) << app.error();
    auto session = call("start_session", {{"apps", {"xterm"}}});
    ASSERT_FALSE(session.is_error) << session.text;
    json window;
    std::string listed;
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            auto list = call("list_windows");
            listed = list.text;
            for (const auto& w : list.s["windows"])
                if (app.owns(w["pid"].get<pid_t>()))
                    window = w;
            return !window.is_null();
        },
        std::chrono::seconds(60))) // xterm's first start on a machine builds its font caches
        << listed;
    auto read = call("get_window_state", {{"window_id", window["window_id"]}});
    ASSERT_TRUE(read.is_error) << read.text;
    EXPECT_EQ(read.code(), "app_not_accessible") << read.text;
    EXPECT_EQ(read.s["error"]["disposition"]["retry"], "after_refresh");
    EXPECT_NE(read.s["error"]["message"].get<std::string>().find("no app on the AT-SPI bus"), std::string::npos);
    EXPECT_FALSE(read.s["error"]["suggestion"].get<std::string>().empty());
    auto skeleton = call("get_window_state", {{"window_id", window["window_id"]}, {"skeleton", true}});
    EXPECT_EQ(skeleton.code(), "app_not_accessible") << skeleton.text;
}

// ---- Chromium ----------------------------------------------------------------------------------

constexpr const char* SECRET = "not-for-the-model"; // the password field's value in dense.html

class Chromium : public nd_test::LinuxToolTest {
protected:
    void SetUp() override
    {
        nd_test::LinuxToolTest::SetUp();
        if (IsSkipped() || HasFatalFailure())
            return;
        std::string dir = (std::filesystem::temp_directory_path() / "nish-chromium-XXXXXX").string();
        ASSERT_NE(::mkdtemp(dir.data()), nullptr) << std::strerror(errno);
        m_profile = dir;
        const auto page = std::filesystem::absolute(std::string(NISH_SOURCE_DIR) + "/fixtures/web/dense.html");
        ASSERT_TRUE(std::filesystem::exists(page)) << page;
        // --disable-crashpad-for-testing would keep Chromium's crash handlers in the process group but
        // crashes the network service (nd_test::chromium_argv).
        m_app = std::make_unique<OwnedApp>(nd_test::chromium_argv(m_profile, "file://" + page.string(), "1200,900"));
        // The page's 10,000 nodes are there once the read is cut at the budget.
        m_window = wait_for_window(*m_app, "chromium", 4000, std::chrono::seconds(30));
        ASSERT_FALSE(m_window.is_null());
    }

    void TearDown() override
    {
        if (m_app)
            m_app->stop();
        if (!m_profile.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(m_profile, ec);
            EXPECT_FALSE(ec) << "could not remove " << m_profile << ": " << ec.message();
        }
    }

    // Every output the model would see of a call: the structured result and the text.
    void expect_no_secret(const nd_test::ToolReply& r, const std::string& what)
    {
        EXPECT_EQ(r.s.dump().find(SECRET), std::string::npos) << what;
        EXPECT_EQ(r.text.find(SECRET), std::string::npos) << what;
    }

    std::string m_profile;
    std::unique_ptr<OwnedApp> m_app;
    json m_window;
};

TEST_F(Chromium, DensePageIsReadWithinTheBudgetAndDrilledInto)
{
    auto whole = call("get_window_state",
                      {{"window_id", m_window["window_id"]}, {"max_elements", 5000}, {"max_depth", 200}});
    ASSERT_FALSE(whole.is_error) << whole.text;
    expect_no_secret(whole, "the whole read");
    const auto& all = whole.s;
    EXPECT_EQ(all["total_elements"], 5000);
    EXPECT_EQ(all["element_count"], 5000);
    EXPECT_TRUE(all["budget_truncated"].get<bool>());
    EXPECT_NE(whole.text.find("(window over the read budget)"), std::string::npos);
    EXPECT_EQ(all["elements"][0]["role"], "frame");
    auto document = find_row(all, "document_web", "Dense fixture");
    ASSERT_FALSE(document.is_null());
    auto messages = find_row(all, "list", "Messages");
    ASSERT_FALSE(messages.is_null());
    int replies = 0;
    for (const auto& row : all["elements"])
        replies += row["role"] == "push_button" && row["name"] == "Reply";
    EXPECT_GT(replies, 100);

    auto skeleton = call("get_window_state", {{"window_id", m_window["window_id"]}, {"skeleton", true}});
    ASSERT_FALSE(skeleton.is_error) << skeleton.text;
    expect_no_secret(skeleton, "the skeleton");
    EXPECT_LE(skeleton.s["elements"].size(), 60u);
    EXPECT_EQ(skeleton.s["snapshot_id"], all["snapshot_id"]);
    EXPECT_FALSE(find_row(skeleton.s, "document_web").is_null()) << skeleton.text;
    EXPECT_FALSE(find_row(skeleton.s, "list", "Messages").is_null()) << skeleton.text;
    for (const auto& row : skeleton.s["elements"])
        EXPECT_EQ(row_at(all, row)["element_token"], row["element_token"]);

    // Drill-down: rows under the root only, numbered as in the whole read.
    for (const auto& root : {document, messages}) {
        auto drill = call("get_window_state", {{"root", root["element_token"]}, {"max_elements", 120}});
        ASSERT_FALSE(drill.is_error) << drill.text;
        expect_no_secret(drill, "a drill-down");
        EXPECT_EQ(drill.s["root"], root["element_token"]);
        const auto& rows = drill.s["elements"];
        ASSERT_EQ(rows.size(), 120u);
        EXPECT_TRUE(drill.s["truncated"].get<bool>());
        const auto first = root["element_index"].get<int>();
        const auto last = first + root["descendant_count"].get<int>();
        EXPECT_EQ(rows[0]["element_index"], first);
        for (const auto& row : rows) {
            const auto i = row["element_index"].get<int>();
            EXPECT_GE(i, first);
            EXPECT_LE(i, last);
            EXPECT_EQ(row_at(all, row)["element_token"], row["element_token"]);
            EXPECT_EQ(row_at(all, row)["role"], row["role"]);
        }
        EXPECT_FALSE(find_row(drill.s, "push_button", root == document ? "Sign in" : "Reply").is_null())
            << drill.text;
    }
}

TEST_F(Chromium, PasswordFieldIsSecureAndItsValueNeverShown)
{
    auto whole = call("get_window_state",
                      {{"window_id", m_window["window_id"]}, {"max_elements", 5000}, {"max_depth", 200}});
    ASSERT_FALSE(whole.is_error) << whole.text;
    expect_no_secret(whole, "the whole read");
    auto pw = find_row(whole.s, "password_text", "Password");
    ASSERT_FALSE(pw.is_null());
    EXPECT_TRUE(has_state(pw, "secure"));
    EXPECT_EQ(pw["value_redacted"], true);
    EXPECT_FALSE(pw.contains("value"));
    EXPECT_NE(whole.text.find("password_text \"Password\" (editable, secure)"), std::string::npos);

    // The form around it, read every way.
    auto form = find_row(whole.s, "landmark", "Sign in");
    ASSERT_FALSE(form.is_null());
    auto drill = call("get_window_state", {{"root", form["element_token"]}});
    ASSERT_FALSE(drill.is_error) << drill.text;
    expect_no_secret(drill, "a drill-down");
    EXPECT_EQ(find_row(drill.s, "password_text", "Password")["value_redacted"], true) << drill.text;
    auto skeleton =
        call("get_window_state", {{"window_id", m_window["window_id"]}, {"skeleton", true}, {"max_depth", 25}});
    expect_no_secret(skeleton, "a deep skeleton");
    EXPECT_TRUE(find_row(skeleton.s, "password_text").is_null());

    for (const auto* tool : {"type_text", "set_value"}) {
        auto r = call(tool, {{"element_token", pw["element_token"]}, {"text", "hunter2"}, {"value", "hunter2"}});
        EXPECT_EQ(r.code(), "secure_field_refused") << tool << ": " << r.text;
        expect_no_secret(r, tool);
    }
    auto shot = call("get_window_state", {{"root", form["element_token"]}, {"include_screenshot", true}});
    ASSERT_FALSE(shot.is_error) << shot.text;
    // A secure field past the budget could not be masked: a window cut at the budget is not captured.
    EXPECT_TRUE(shot.image.empty());
    EXPECT_EQ(shot.s["screenshot_error"]["code"], "secure_field_refused") << shot.s.dump().substr(0, 300);
    expect_no_secret(shot, "a read with a screenshot");
}

// Chromium's GetActions leaves the names empty ("press" is only in Action.GetName): click asks the
// element for them (more controls in chromium_acts_test.cpp).
TEST_F(Chromium, ClickPressesButtonsInsideTheBudget)
{
    auto all = read_all(m_window);
    auto sign_in = find_row(all, "push_button", "Sign in");
    ASSERT_FALSE(sign_in.is_null());
    auto r = call("click", {{"element_token", sign_in["element_token"]}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(r.s["path"], "semantic");
    bool signed_in = nd_test::wait_until(
        [&] {
            all = read_all(m_window);
            auto status = find_row(all, "status_bar");
            return !status.is_null() &&
                   all["elements"][status["element_index"].get<std::size_t>() + 1].value("name", "") == "Signed in";
        },
        std::chrono::seconds(3));
    EXPECT_TRUE(signed_in) << "the status did not change to Signed in";

    // A Reply button well inside the budget: its own name becomes "Replied".
    json reply;
    int seen = 0;
    for (const auto& row : all["elements"])
        if (row["role"] == "push_button" && row["name"] == "Reply" && ++seen == 20)
            reply = row;
    ASSERT_FALSE(reply.is_null());
    r = call("click", {{"element_token", reply["element_token"]}});
    ASSERT_FALSE(r.is_error) << r.text;
    all = read_all(m_window);
    std::vector<int> replied;
    for (const auto& row : all["elements"])
        if (row["role"] == "push_button" && row["name"] == "Replied")
            replied.push_back(row["element_index"].get<int>());
    EXPECT_EQ(replied, std::vector<int>{reply["element_index"].get<int>()});
}

} // namespace

// The read verbs of the desk (docs/desk-verbs-read.md) on the real Linux backend with real apps,
// inside scripts/test-desktop: windows, snapshot (ids, a password field without value, keys,
// bounds), find and read, at, wait (a window opens, the timeout, a halt), focus and close, launch
// (with every toolkit's accessibility on), a read of an app without accessibility, unanswered (all
// well, and a stopped app), and the allowlist.

#include "../linux/atspi_test_app.h"
#include "../linux/tool_test_support.h"
#include "backend/linux/linux_backend.h"
#include "desk/desk.h"
#include "desk/verbs/verbs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <optional>
#include <thread>

using nlohmann::json;
using namespace std::chrono_literals;

namespace {

class DeskReadLinux : public ::testing::Test {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_DESKTOP();
        auto backend = nd_linux::LinuxBackend::open();
        ASSERT_TRUE(backend.ok()) << backend.error().text();
        m_backend = std::move(backend).value();
        open_desk({});
    }

    void open_desk(std::vector<std::string> allow)
    {
        nd_desk::DeskConfig config;
        config.allow = std::move(allow);
        m_desk = std::make_unique<nd_desk::Desk>(*m_backend, config);
    }

    struct Reply {
        bool ok = false;
        json result;
        std::string error;
    };

    Reply call(std::string_view verb, const json& args = json::object())
    {
        const auto* def = nd_desk::find_verb("desk_" + std::string(verb));
        EXPECT_NE(def, nullptr) << verb;
        if (!def)
            return {};
        nd_desk::CallScope scope{"test", nd_desk::SafetyStopToken(m_desk->safety_stop(), nullptr)};
        auto reply = nd_desk::call_verb(*m_desk, *def, scope, args);
        if (!reply)
            return {false, {}, reply.error().message};
        return {true, reply->result, {}};
    }

    json windows_now() { return call("windows").result["windows"]; }

    // The desk_windows entry of a window of `pid`, once listed (null after `timeout`).
    json window_of_pid(pid_t pid, std::chrono::milliseconds timeout = 20s)
    {
        json found;
        nd_test::wait_until(
            [&] {
                auto r = call("windows");
                if (r.ok)
                    for (const auto& w : r.result["windows"])
                        if (w["pid"] == pid)
                            found = w;
                return !found.is_null();
            },
            timeout);
        return found;
    }

    // Starts gtk3-widget-factory and waits until its tree reads whole.
    json start_factory()
    {
        std::string error;
        m_factory = nd_test::TestApp::spawn({"gtk3-widget-factory"}, error);
        EXPECT_NE(m_factory, nullptr) << error;
        if (!m_factory)
            return {};
        auto window = window_of_pid(m_factory->pid());
        EXPECT_FALSE(window.is_null()) << "gtk3-widget-factory shows no window";
        if (window.is_null())
            return {};
        nd_test::wait_until(
            [&] {
                auto snap = call("snapshot", {{"id", window["id"]}});
                return snap.ok && snap.result["nodes"].size() > 200;
            },
            20s);
        return window;
    }

    std::unique_ptr<nd_linux::LinuxBackend> m_backend;
    std::unique_ptr<nd_desk::Desk> m_desk;
    std::unique_ptr<nd_test::TestApp> m_factory;
};

TEST_F(DeskReadLinux, WindowsListsTheWidgetFactoryWithIdPidAndApp)
{
    auto window = start_factory();
    ASSERT_FALSE(window.is_null());
    EXPECT_EQ(window["pid"], m_factory->pid());
    const std::string id = window["id"];
    ASSERT_FALSE(id.empty());
    EXPECT_EQ(id.find_first_not_of("0123456789"), std::string::npos) << id;
    EXPECT_EQ(window["role"], "window");
    ASSERT_TRUE(window.contains("app"));
    EXPECT_EQ(window["app"], "gtk3-widget-factory") << "the executable, whole (comm would cut it at 15 characters)";
    EXPECT_TRUE(window["active"].is_boolean());
    EXPECT_FALSE(window.contains("modal"));
    EXPECT_FALSE(window.contains("shell")) << "openbox owns no panel here";
}

TEST_F(DeskReadLinux, SnapshotGivesIdsBoundsKeysAndNoPasswordValue)
{
    auto window = start_factory();
    ASSERT_FALSE(window.is_null());
    auto snap = call("snapshot", {{"id", window["id"]}, {"bounds", true}, {"keys", true}});
    ASSERT_TRUE(snap.ok) << snap.error;
    const std::string sid = snap.result["snapshot_id"];
    const auto& nodes = snap.result["nodes"];
    std::size_t with_bounds = 0, with_keys = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        EXPECT_EQ(nodes[i]["id"], sid + ":" + std::to_string(i));
        with_bounds += nodes[i].contains("bounds");
        with_keys += nodes[i].contains("keys");
    }
    EXPECT_GT(with_bounds, 50u);
    EXPECT_GT(with_keys, 0u) << "the widget factory's buttons and menu items have key bindings";

    nd_test::AppProcess dialog({"zenity", "--password", "--title", "Unlock"});
    auto unlock = window_of_pid(dialog.pid());
    ASSERT_FALSE(unlock.is_null());
    json password;
    nd_test::wait_until(
        [&] {
            auto r = call("snapshot", {{"pid", dialog.pid()}});
            if (r.ok)
                for (const auto& n : r.result["nodes"])
                    if (n["role"] == "password_text")
                        password = n;
            return !password.is_null();
        },
        20s);
    ASSERT_FALSE(password.is_null());
    EXPECT_FALSE(password.contains("value"));
    auto read = call("read", {{"id", password["id"]}, {"text", true}});
    ASSERT_TRUE(read.ok) << read.error;
    EXPECT_FALSE(read.result.contains("value"));
    auto text = call("snapshot", {{"pid", dialog.pid()}, {"text", true}});
    ASSERT_TRUE(text.ok) << text.error;
    EXPECT_NE(text.result["text"].get<std::string>().find("password_text"), std::string::npos);
}

TEST_F(DeskReadLinux, FindFindsAButtonWhoseIdReadResolvesAndAtHitsItsCentre)
{
    auto window = start_factory();
    ASSERT_FALSE(window.is_null());
    auto found = call("find", {{"name", "sans REG"}, {"role", "push_button"}, {"pid", m_factory->pid()}});
    ASSERT_TRUE(found.ok) << found.error;
    ASSERT_EQ(found.result["nodes"].size(), 1u) << found.result.dump();
    const auto& button = found.result["nodes"][0];
    EXPECT_EQ(button["name"], "Sans Regular");
    auto read = call("read", {{"id", button["id"]}});
    ASSERT_TRUE(read.ok) << read.error;
    EXPECT_EQ(read.result["name"], "Sans Regular");
    EXPECT_EQ(read.result["role"], "push_button");
    ASSERT_TRUE(read.result.contains("bounds"));

    // Front the window so nothing covers it, then hit the button's centre.
    auto focus = call("focus", {{"window", window["title"]}, {"pid", m_factory->pid()}});
    ASSERT_TRUE(focus.ok) << focus.error;
    const auto& b = read.result["bounds"];
    const int cx = b["x"].get<int>() + b["w"].get<int>() / 2, cy = b["y"].get<int>() + b["h"].get<int>() / 2;
    auto at = call("at", {{"x", cx}, {"y", cy}});
    ASSERT_TRUE(at.ok) << at.error;
    EXPECT_EQ(at.result["pid"], m_factory->pid());
    EXPECT_EQ(at.result["window"]["id"], window["id"]);
    // The button itself, or a label inside it.
    const bool hit = at.result["node"]["id"] == button["id"] ||
        std::any_of(at.result["ancestors"].begin(), at.result["ancestors"].end(), [&](const json& a) { return a["id"] == button["id"]; });
    EXPECT_TRUE(hit) << at.result.dump();
    EXPECT_FALSE(at.result.contains("covered")) << at.result.dump();

    auto stale = call("read", {{"id", "s99999:1"}});
    ASSERT_FALSE(stale.ok);
    EXPECT_NE(stale.error.find("desk_snapshot"), std::string::npos) << stale.error;
}

// A Qt item view makes its cells anew each time they are asked for; their keys name where they
// sit (positional keys), and a search must hand out the ids of the read's own rows for them.
TEST_F(DeskReadLinux, FindFindsAQtTreeViewsCellAndItsIdReads)
{
    // With the session bus: Qt 5 finds the AT-SPI bus there.
    nd_test::OwnedApp app({nd_test::qt5_example("widgets/itemviews/editabletreemodel/editabletreemodel")});
    ASSERT_GT(app.pid(), 0) << app.error();
    auto window = window_of_pid(app.pid());
    ASSERT_FALSE(window.is_null()) << "editabletreemodel shows no window";
    Reply found;
    nd_test::wait_until(
        [&] {
            found = call("find", {{"name", "getting start"}, {"role", "table_cell"}, {"pid", app.pid()}});
            return found.ok && !found.result["nodes"].empty();
        },
        20s);
    ASSERT_TRUE(found.ok) << found.error;
    ASSERT_EQ(found.result["nodes"].size(), 1u) << found.result.dump();
    EXPECT_FALSE(found.result.contains("outside_read")) << found.result.dump();
    const auto& cell = found.result["nodes"][0];
    EXPECT_EQ(cell["name"], "Getting Started");
    EXPECT_TRUE(cell.contains("bounds")) << cell.dump();
    auto read = call("read", {{"id", cell["id"]}});
    ASSERT_TRUE(read.ok) << read.error;
    EXPECT_EQ(read.result["name"], "Getting Started");
    EXPECT_EQ(read.result["role"], "table_cell");
}

// A search answers with names as the snapshot shows them (docs/tokens.md, "Labels a person reads"):
// GTK4 names each notebook tab "Tab" and shows "page 2" in the label inside it, so a search for the
// tab by role and shown name finds it, and one for the placeholder does not.
TEST_F(DeskReadLinux, FindMatchesTheNamesASnapshotShows)
{
    nd_test::OwnedApp app({"gtk4-widget-factory"});
    ASSERT_GT(app.pid(), 0) << app.error();
    const auto pid = app.pid();
    auto window = window_of_pid(pid);
    ASSERT_FALSE(window.is_null()) << "gtk4-widget-factory shows no window";
    Reply found;
    nd_test::wait_until(
        [&] {
            found = call("find", {{"name", "page 2"}, {"role", "page_tab"}, {"pid", pid}});
            return found.ok && !found.result["nodes"].empty();
        },
        20s);
    ASSERT_TRUE(found.ok) << found.error;
    ASSERT_FALSE(found.result["nodes"].empty()) << found.result.dump();
    // Without case: the factory has "page 2" and "Page 2" tabs.
    for (const auto& node : found.result["nodes"]) {
        EXPECT_EQ(node["role"], "page_tab") << node.dump();
        std::string name = node["name"];
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
        EXPECT_EQ(name, "page 2") << node.dump();
        // Bounds exactly when the tab shows (these sit on pages the factory does not show).
        const auto& states = node["states"];
        const bool shows = std::find(states.begin(), states.end(), "showing") != states.end();
        EXPECT_EQ(node.contains("bounds"), shows) << node.dump();
    }
    auto snap = call("snapshot", {{"pid", pid}});
    ASSERT_TRUE(snap.ok) << snap.error;
    const auto id = found.result["nodes"][0]["id"];
    bool listed = false;
    for (const auto& node : snap.result["nodes"])
        listed = listed || (node["id"] == id && node["name"] == found.result["nodes"][0]["name"]);
    EXPECT_TRUE(listed) << "the snapshot does not list " << id << " by the name the search gave";
    auto placeholder = call("find", {{"name", "Tab"}, {"role", "page_tab"}, {"pid", pid}});
    ASSERT_TRUE(placeholder.ok) << placeholder.error;
    EXPECT_TRUE(placeholder.result["nodes"].empty()) << placeholder.result.dump();
}

TEST_F(DeskReadLinux, AtSaysWhenAnotherWindowCoversThePoint)
{
    auto window = start_factory();
    ASSERT_FALSE(window.is_null());
    nd_test::AppProcess dialog({"zenity", "--info", "--text", "on top"});
    auto info = window_of_pid(dialog.pid());
    ASSERT_FALSE(info.is_null());
    ASSERT_TRUE(call("focus", {{"window", info["title"]}, {"pid", dialog.pid()}}).ok);
    // The dialog's centre, read in the factory's window, which lies under it.
    auto listed = windows_now();
    json d, f;
    for (const auto& w : listed) {
        if (w["id"] == info["id"])
            d = w;
        if (w["id"] == window["id"])
            f = w;
    }
    ASSERT_FALSE(d.is_null());
    auto snap = call("snapshot", {{"id", info["id"]}, {"bounds", true}});
    ASSERT_TRUE(snap.ok) << snap.error;
    const auto& root = snap.result["nodes"][0]["bounds"];
    const int cx = root["x"].get<int>() + root["w"].get<int>() / 2, cy = root["y"].get<int>() + root["h"].get<int>() / 2;
    auto at = call("at", {{"x", cx}, {"y", cy}, {"pid", m_factory->pid()}});
    if (!at.ok && at.error.find("outside") != std::string::npos)
        GTEST_SKIP() << "the dialog opened beside the factory: " << at.error;
    ASSERT_TRUE(at.ok) << at.error;
    ASSERT_TRUE(at.result.contains("covered")) << at.result.dump();
    EXPECT_EQ(at.result["covered"]["pid"], dialog.pid());
}

TEST_F(DeskReadLinux, WaitSeesAWindowOpenAndTimesOutOtherwise)
{
    auto window = start_factory();
    ASSERT_FALSE(window.is_null());
    auto since = call("windows").result;
    auto quiet = call("wait", {{"since", since}, {"timeout_ms", 400}});
    ASSERT_TRUE(quiet.ok) << quiet.error;
    EXPECT_EQ(quiet.result["changed"], false);
    EXPECT_EQ(quiet.result["windows"], since["windows"]);

    std::unique_ptr<nd_test::AppProcess> dialog;
    std::thread opener([&] {
        std::this_thread::sleep_for(300ms);
        dialog = std::make_unique<nd_test::AppProcess>(std::vector<std::string>{"zenity", "--info", "--text", "new"});
    });
    const auto start = std::chrono::steady_clock::now();
    auto changed = call("wait", {{"since", since}, {"timeout_ms", 5000}});
    opener.join();
    ASSERT_TRUE(changed.ok) << changed.error;
    EXPECT_EQ(changed.result["changed"], true);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 4900ms);
    bool listed = false;
    for (const auto& w : changed.result["windows"])
        listed = listed || w["pid"] == dialog->pid();
    // The list changes when the window maps; its pid is then known from X-Resource.
    EXPECT_TRUE(listed) << changed.result.dump();
}

TEST_F(DeskReadLinux, AHaltEndsALongWaitAtOnce)
{
    auto since = call("windows").result;
    std::thread halter([&] {
        std::this_thread::sleep_for(300ms);
        m_desk->safety_stop().stop();
    });
    const auto start = std::chrono::steady_clock::now();
    auto r = call("wait", {{"since", since}, {"timeout_ms", 5000}});
    halter.join();
    EXPECT_FALSE(r.ok);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1500ms);
}

TEST_F(DeskReadLinux, FocusAndCloseARealWindow)
{
    nd_test::AppProcess one({"zenity", "--info", "--title", "First one", "--text", "one"});
    nd_test::AppProcess two({"zenity", "--info", "--title", "Second one", "--text", "two"});
    ASSERT_FALSE(window_of_pid(one.pid()).is_null());
    auto second = window_of_pid(two.pid());
    ASSERT_FALSE(second.is_null());
    for (const char* title : {"First one", "Second one", "First one"}) {
        auto focus = call("focus", {{"window", title}});
        ASSERT_TRUE(focus.ok) << focus.error;
        bool active = false;
        for (const auto& w : windows_now())
            if (w["title"] == title)
                active = w["active"].get<bool>();
        EXPECT_TRUE(active) << title;
    }
    auto close = call("close", {{"window", "Second one"}});
    ASSERT_TRUE(close.ok) << close.error;
    EXPECT_EQ(close.result["closed"], true);
    for (const auto& w : windows_now())
        EXPECT_NE(w["id"], second["id"]);
    auto again = call("focus", {{"window", "Second one"}});
    ASSERT_FALSE(again.ok);
    EXPECT_NE(again.error.find("desk_windows"), std::string::npos) << again.error;
}

TEST_F(DeskReadLinux, LaunchStartsAnAppAndAnswersItsPid)
{
    // A session bus that leads nowhere: the launched factory runs on its own, as in the other tests.
    ::setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/nish-test-no-session-bus", 1);
    auto r = call("launch", {{"app", "gtk3-widget-factory"}});
    ASSERT_TRUE(r.ok) << r.error;
    const auto pid = r.result["pid"].get<pid_t>();
    ASSERT_GT(pid, 0);
    EXPECT_TRUE(r.result["scoped"].is_boolean());
    EXPECT_EQ(::getpgid(pid), pid) << "the app leads a process group of its own";
    auto window = window_of_pid(pid);
    EXPECT_FALSE(window.is_null()) << "the launched app shows its window";
    ::kill(-pid, SIGTERM);
}

// A launched app joins AT-SPI whatever the daemon's environment says (launch/launch_env.h): a GTK 2
// app loads its bridge only when GTK_MODULES names it, and NO_AT_BRIDGE=1 would keep GTK 3's off.
TEST_F(DeskReadLinux, LaunchTurnsAccessibilityOnForGtk2AndGtk3)
{
    std::optional<std::string> modules;
    if (const char* value = std::getenv("GTK_MODULES"))
        modules = value;
    std::vector<pid_t> pids;
    // Whatever happens below, the test's environment comes back and the apps it started end.
    struct Restore {
        std::function<void()> run;
        ~Restore() { run(); }
    } restore{[&] {
        ::unsetenv("NO_AT_BRIDGE");
        if (modules)
            ::setenv("GTK_MODULES", modules->c_str(), 1);
        for (const auto pid : pids)
            ::kill(-pid, SIGTERM);
    }};
    ::unsetenv("GTK_MODULES");
    ::setenv("NO_AT_BRIDGE", "1", 1);
    for (const std::string app : {"gtk-demo", "gtk3-widget-factory"}) {
        auto r = call("launch", {{"app", app}});
        ASSERT_TRUE(r.ok) << app << ": " << r.error;
        pids.push_back(r.result["pid"].get<pid_t>());
    }
    for (std::size_t i = 0; i < pids.size(); ++i) {
        const auto window = window_of_pid(pids[i]);
        EXPECT_FALSE(window.is_null()) << "app " << i << " shows no window";
        Reply snap;
        nd_test::wait_until(
            [&] {
                snap = call("snapshot", {{"pid", pids[i]}});
                return snap.ok && snap.result["nodes"].size() > 20;
            },
            20s);
        EXPECT_TRUE(snap.ok) << "app " << i << ": " << snap.error;
        EXPECT_GT(snap.result["nodes"].size(), 20u) << snap.result.dump().substr(0, 2000);
    }
    // gtk-demo's list of demos, read through GTK 2's bridge.
    auto found = call("find", {{"name", "Button Boxes"}, {"pid", pids[0]}});
    ASSERT_TRUE(found.ok) << found.error;
    EXPECT_FALSE(found.result["nodes"].empty()) << "gtk-demo's demo list does not read";
}

// An app started elsewhere without accessibility (xterm stands for a GTK 2 app started without its
// bridge): the desk's read says what to do next, desk_launch and desk_shot among it.
TEST_F(DeskReadLinux, AReadOfAnAppWithoutAccessibilityNamesTheWaysOn)
{
    nd_test::OwnedApp app({"xterm", "-title", "nish-desk-no-accessibility"});
    ASSERT_GT(app.pid(), 0) << app.error();
    // xterm's first start on a machine builds its font caches.
    ASSERT_FALSE(window_of_pid(app.pid(), 60s).is_null()) << "xterm shows no window";
    auto snap = call("snapshot", {{"pid", app.pid()}});
    ASSERT_FALSE(snap.ok) << snap.result.dump().substr(0, 500);
    EXPECT_NE(snap.error.find("no app on the AT-SPI bus"), std::string::npos) << snap.error;
    EXPECT_NE(snap.error.find("desk_launch"), std::string::npos) << snap.error;
    EXPECT_NE(snap.error.find("desk_shot"), std::string::npos) << snap.error;
}

TEST_F(DeskReadLinux, UnansweredIsNullWhenAllIsWellAndNamesAStoppedApp)
{
    auto window = start_factory();
    ASSERT_FALSE(window.is_null());
    ASSERT_TRUE(call("focus", {{"window", window["title"]}, {"pid", m_factory->pid()}}).ok);
    auto fine = call("unanswered");
    ASSERT_TRUE(fine.ok) << fine.error;
    EXPECT_TRUE(fine.result.is_null()) << fine.result.dump();

    m_factory->signal(SIGSTOP);
    auto stopped = call("unanswered");
    m_factory->signal(SIGCONT);
    ASSERT_TRUE(stopped.ok) << stopped.error;
    ASSERT_TRUE(stopped.result.is_object()) << stopped.result.dump();
    EXPECT_EQ(stopped.result["id"], "");
    EXPECT_EQ(stopped.result["pid"], m_factory->pid());
    EXPECT_EQ(stopped.result["title"], window["title"]);
}

TEST_F(DeskReadLinux, TheAllowlistRefusesAWindowOfAnotherApp)
{
    auto window = start_factory();
    ASSERT_FALSE(window.is_null());
    open_desk({"zenity"});
    auto snap = call("snapshot", {{"pid", m_factory->pid()}});
    ASSERT_FALSE(snap.ok);
    EXPECT_NE(snap.error.find("allowlist"), std::string::npos) << snap.error;
    for (const auto& w : windows_now())
        EXPECT_NE(w["pid"], m_factory->pid());
    auto launch = call("launch", {{"app", "gtk3-widget-factory"}});
    ASSERT_FALSE(launch.ok);
    EXPECT_NE(launch.error.find("allowlist"), std::string::npos) << launch.error;
}

} // namespace

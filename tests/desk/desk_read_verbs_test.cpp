// The read verbs of the desk (docs/desk-verbs-read.md) on the mock backend: windows and the
// allowlist, snapshot (ids, secure fields, text), find and read, at and covered, wait (changes,
// timeout, a halt), unanswered, launch's checks; and the pure rules of windows' modal and at's
// covered.

#include "backend/mock/mock_backend.h"
#include "desk/desk.h"
#include "desk/desk_read_json.h"
#include "desk/desk_read_launch.h"
#include "desk/verbs/verbs.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <thread>

using nlohmann::json;
using namespace std::chrono_literals;

namespace {

constexpr std::int64_t GROCERIES = 41943112, SETTINGS = 52428801, CALCULATOR = 62914561;

class DeskReadTest : public ::testing::Test {
protected:
    void SetUp() override { open({}); }

    void open(std::vector<std::string> allow)
    {
        m_desk.reset();
        auto backend = nd_mock::MockBackend::load(nd_mock::MockBackend::default_fixture_dir());
        ASSERT_TRUE(backend.ok()) << backend.error().text();
        m_backend = std::move(backend).value();
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

    static const json* window_titled(const json& windows, std::string_view title)
    {
        for (const auto& w : windows)
            if (w["title"] == title)
                return &w;
        return nullptr;
    }

    std::unique_ptr<nd_mock::MockBackend> m_backend;
    std::unique_ptr<nd_desk::Desk> m_desk;
};

TEST_F(DeskReadTest, AllTenReadVerbsAreRegistered)
{
    for (auto name : {"windows", "unanswered", "wait", "snapshot", "find", "read", "at", "focus", "close", "launch"})
        EXPECT_NE(nd_desk::find_verb(std::string("desk_") + name), nullptr) << name;
}

TEST_F(DeskReadTest, WindowsListsEveryWindowWithIdTitleRolePidApp)
{
    auto r = call("windows");
    ASSERT_TRUE(r.ok) << r.error;
    const auto& list = r.result["windows"];
    ASSERT_EQ(list.size(), 5u) << list.dump();
    const auto* notes = window_titled(list, "Notes — Groceries");
    ASSERT_NE(notes, nullptr);
    EXPECT_EQ((*notes)["id"], std::to_string(GROCERIES));
    EXPECT_EQ((*notes)["pid"], 5120);
    EXPECT_EQ((*notes)["app"], "Notes");
    EXPECT_EQ((*notes)["role"], "window");
    EXPECT_TRUE((*notes)["active"].is_boolean());
    // Facts the mock does not know are left out, not guessed.
    EXPECT_FALSE(notes->contains("modal"));
    EXPECT_FALSE(notes->contains("shell"));
}

TEST_F(DeskReadTest, TheAllowlistFiltersWindowsAndRefusesOthers)
{
    open({"notes"});
    auto r = call("windows");
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(r.result["windows"].size(), 2u) << r.result.dump();
    for (const auto& w : r.result["windows"])
        EXPECT_EQ(w["app"], "Notes");
    auto refused = call("snapshot", {{"id", std::to_string(SETTINGS)}});
    ASSERT_FALSE(refused.ok);
    EXPECT_NE(refused.error.find("allowlist"), std::string::npos) << refused.error;
    auto by_title = call("at", {{"x", 300}, {"y", 300}, {"window", "Settings"}});
    EXPECT_FALSE(by_title.ok);
    EXPECT_NE(by_title.error.find("\"Settings\""), std::string::npos) << by_title.error;
    auto launch = call("launch", {{"app", "true"}});
    ASSERT_FALSE(launch.ok);
    EXPECT_NE(launch.error.find("allowlist"), std::string::npos) << launch.error;
}

// An app's window is allowed by its executable, its own name (the window's class) or the name its
// process was started under: "thunderbird" runs the executable thunderbird-bin through a symlink
// and names its windows' class "thunderbird-default".
TEST_F(DeskReadTest, TheAllowlistKnowsAnAppByEachOfItsNames)
{
    open({"thunderbird"});
    nd_core::WindowInfo w{1, 10, "thunderbird-default", "Inbox", {0, 0, 800, 600}, false};
    w.executable = "thunderbird-bin";
    EXPECT_FALSE(m_desk->allows(w));
    w.process = "thunderbird";
    EXPECT_TRUE(m_desk->allows(w));
    w.process = "thunderbird-bin";
    w.app = "Thunderbird";
    EXPECT_TRUE(m_desk->allows(w)) << "its own name, without case";
    w.app = "thunderbird-default";
    w.executable = "thunderbird";
    EXPECT_TRUE(m_desk->allows(w));
}

TEST_F(DeskReadTest, SnapshotGivesNodesWithIdsAndNeverASecureValue)
{
    auto r = call("snapshot", {{"id", std::to_string(SETTINGS)}, {"bounds", true}});
    ASSERT_TRUE(r.ok) << r.error;
    const auto& nodes = r.result["nodes"];
    ASSERT_GT(nodes.size(), 5u);
    const std::string sid = r.result["snapshot_id"];
    EXPECT_EQ(nodes[0]["id"], sid + ":0");
    EXPECT_FALSE(nodes[0].contains("parent"));
    bool saw_password = false;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        EXPECT_EQ(nodes[i]["ref"], i);
        EXPECT_EQ(nodes[i]["id"], sid + ":" + std::to_string(i));
        if (i > 0) {
            ASSERT_TRUE(nodes[i].contains("parent"));
            EXPECT_EQ(nodes[i]["depth"], nodes[nodes[i]["parent"].get<std::size_t>()]["depth"].get<int>() + 1);
        }
        if (nodes[i]["role"] == "password_text") {
            saw_password = true;
            EXPECT_FALSE(nodes[i].contains("value")) << nodes[i].dump();
            EXPECT_TRUE(nodes[i].contains("bounds"));
        }
    }
    EXPECT_TRUE(saw_password);
    EXPECT_EQ(r.result.dump().find("correct-horse"), std::string::npos);
    // Without bounds: true, no bounds.
    auto plain = call("snapshot", {{"id", std::to_string(SETTINGS)}});
    ASSERT_TRUE(plain.ok);
    for (const auto& n : plain.result["nodes"])
        EXPECT_FALSE(n.contains("bounds"));
}

TEST_F(DeskReadTest, SnapshotTextIsAnOutlineCappedAtMaxChars)
{
    auto r = call("snapshot", {{"window", "Groceries"}, {"text", true}});
    ASSERT_TRUE(r.ok) << r.error;
    const std::string text = r.result["text"];
    EXPECT_NE(text.find("push_button \"Bold\""), std::string::npos) << text;
    EXPECT_NE(text.find("\n  "), std::string::npos) << "children are indented";
    EXPECT_FALSE(r.result.contains("nodes"));
    auto small = call("snapshot", {{"window", "Groceries"}, {"text", true}, {"max_chars", 60}});
    ASSERT_TRUE(small.ok) << small.error;
    EXPECT_LE(small.result["text"].get<std::string>().size(), 60u);
    EXPECT_EQ(small.result["cut"], true);
}

TEST_F(DeskReadTest, SnapshotRefusesBadInputSayingWhatToDo)
{
    auto unknown = call("snapshot", {{"id", "12345"}});
    ASSERT_FALSE(unknown.ok);
    EXPECT_NE(unknown.error.find("desk_windows"), std::string::npos) << unknown.error;
    auto typed = call("snapshot", {{"pid", "x"}});
    ASSERT_FALSE(typed.ok);
    EXPECT_EQ(typed.error.rfind("desk_snapshot: pid:", 0), 0u) << typed.error;
}

TEST_F(DeskReadTest, AHungAppGivesAnErrorThatSaysWhatToDo)
{
    ASSERT_TRUE(m_backend->set_hung(SETTINGS, true));
    auto snap = call("snapshot", {{"id", std::to_string(SETTINGS)}});
    ASSERT_FALSE(snap.ok);
    EXPECT_NE(snap.error.find("wait a little"), std::string::npos) << snap.error;
    auto find = call("find", {{"name", "Password"}, {"window", "Settings"}});
    ASSERT_FALSE(find.ok);
    EXPECT_NE(find.error.find("desk_unanswered"), std::string::npos) << find.error;
}

TEST_F(DeskReadTest, FindAnswersIdsThatReadResolves)
{
    auto r = call("find", {{"name", "bold"}, {"window", "Groceries"}});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.result["window"]["id"], std::to_string(GROCERIES));
    ASSERT_EQ(r.result["nodes"].size(), 1u) << r.result.dump();
    const std::string id = r.result["nodes"][0]["id"];
    auto read = call("read", {{"id", id}});
    ASSERT_TRUE(read.ok) << read.error;
    EXPECT_EQ(read.result["name"], "Bold");
    EXPECT_EQ(read.result["role"], "push_button");
    EXPECT_EQ(read.result["window"]["title"], "Notes — Groceries");
    EXPECT_TRUE(read.result.contains("bounds"));
}

TEST_F(DeskReadTest, FindWithoutWindowSearchesTheAllowedWindows)
{
    auto r = call("find", {{"name", "Password"}, {"role", "password_text"}});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.result["window"]["id"], std::to_string(SETTINGS));
    ASSERT_EQ(r.result["nodes"].size(), 1u);
    auto none = call("find", {{"name", "no such thing anywhere"}});
    ASSERT_TRUE(none.ok) << none.error;
    EXPECT_TRUE(none.result["window"].is_null());
    EXPECT_TRUE(none.result["nodes"].empty());
    open({"calculator"});
    auto scoped = call("find", {{"name", "Password"}});
    ASSERT_TRUE(scoped.ok) << scoped.error;
    EXPECT_TRUE(scoped.result["window"].is_null()) << "the Settings window is outside the allowlist" << scoped.result.dump();
}

TEST_F(DeskReadTest, ReadGivesTextAndRefusesUnknownIds)
{
    auto snap = call("snapshot", {{"window", "Groceries"}});
    ASSERT_TRUE(snap.ok) << snap.error;
    std::string text_id;
    for (const auto& n : snap.result["nodes"])
        if (n["role"] == "text")
            text_id = n["id"];
    ASSERT_FALSE(text_id.empty());
    auto read = call("read", {{"id", text_id}, {"text", true}});
    ASSERT_TRUE(read.ok) << read.error;
    EXPECT_EQ(read.result["value"], "Milk\nEggs\nBread");
    EXPECT_NE(read.result["text"].get<std::string>().find("Milk"), std::string::npos);
    auto bad = call("read", {{"id", "s999999:3"}});
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(bad.error.find("desk_snapshot"), std::string::npos) << bad.error;
    auto garbage = call("read", {{"id", "nonsense"}});
    ASSERT_FALSE(garbage.ok);
    EXPECT_NE(garbage.error.find("desk_snapshot"), std::string::npos) << garbage.error;
    auto typed = call("read", {{"id", 7}});
    ASSERT_FALSE(typed.ok);
    EXPECT_EQ(typed.error.rfind("desk_read: id:", 0), 0u) << typed.error;
}

TEST_F(DeskReadTest, ReadOfAClosedWindowSaysSo)
{
    auto find = call("find", {{"name", "Bold"}, {"window", "Groceries"}});
    ASSERT_TRUE(find.ok) << find.error;
    const std::string id = find.result["nodes"][0]["id"];
    ASSERT_TRUE(m_backend->close_window(GROCERIES));
    auto read = call("read", {{"id", id}});
    ASSERT_FALSE(read.ok);
    EXPECT_NE(read.error.find("closed"), std::string::npos) << read.error;
}

TEST_F(DeskReadTest, AtFindsTheNodeAtAPointAndItsAncestors)
{
    // Calculator is the topmost window in the fixtures' stack; its first button's centre.
    auto snap = call("snapshot", {{"id", std::to_string(CALCULATOR)}, {"bounds", true}});
    ASSERT_TRUE(snap.ok) << snap.error;
    const json* button = nullptr;
    for (const auto& n : snap.result["nodes"])
        if (n["role"] == "push_button" && n.contains("bounds") && !button)
            button = &n;
    ASSERT_NE(button, nullptr);
    const int cx = (*button)["bounds"]["x"].get<int>() + (*button)["bounds"]["w"].get<int>() / 2;
    const int cy = (*button)["bounds"]["y"].get<int>() + (*button)["bounds"]["h"].get<int>() / 2;
    auto at = call("at", {{"x", cx}, {"y", cy}, {"window", "Calculator"}});
    ASSERT_TRUE(at.ok) << at.error;
    EXPECT_EQ(at.result["node"]["id"], (*button)["id"]);
    EXPECT_EQ(at.result["pid"], 7001);
    ASSERT_FALSE(at.result["ancestors"].empty());
    EXPECT_EQ(at.result["ancestors"].back()["id"], snap.result["snapshot_id"].get<std::string>() + ":0");
    auto outside = call("at", {{"x", 5}, {"y", 5}, {"window", "Calculator"}});
    ASSERT_FALSE(outside.ok);
    EXPECT_NE(outside.error.find("outside"), std::string::npos) << outside.error;
}

TEST_F(DeskReadTest, AtNamesTheWindowOnTopAsCovered)
{
    // (150, 150) is inside both Notes windows and Chatter; Chatter is named, another is on top there.
    ASSERT_TRUE(m_backend->raise(41943113));
    auto at = call("at", {{"x", 150}, {"y", 150}, {"window", "Chatter"}});
    ASSERT_TRUE(at.ok) << at.error;
    ASSERT_TRUE(at.result.contains("covered")) << at.result.dump();
    EXPECT_EQ(at.result["covered"]["title"], "Notes — Ideas");
    EXPECT_EQ(at.result["covered"]["pid"], 5120);
    // Without a window: the topmost window there, never covered.
    auto top = call("at", {{"x", 150}, {"y", 150}});
    ASSERT_TRUE(top.ok) << top.error;
    EXPECT_EQ(top.result["window"]["title"], "Notes — Ideas");
    EXPECT_FALSE(top.result.contains("covered"));
}

TEST(DeskReadRules, CoveredCountsTheTargetsOwnWindows)
{
    nd_core::WindowInfo a{1, 10, "app", "Doc", {}, false}, b{2, 10, "app", "Doc", {}, false}, c{3, 10, "app", "Other", {}, false},
        d{4, 20, "x", "Doc", {}, false};
    EXPECT_TRUE(nd_desk::counts_as_own(a, a, {a, d}));
    EXPECT_TRUE(nd_desk::counts_as_own(c, a, {c, d})) << "the process's only window";
    EXPECT_TRUE(nd_desk::counts_as_own(b, a, {b, c, d})) << "that process's one window titled as the target";
    EXPECT_FALSE(nd_desk::counts_as_own(c, a, {a, c, d})) << "another window of the same process";
    EXPECT_FALSE(nd_desk::counts_as_own(b, a, {a, b, c})) << "two windows share the title";
    EXPECT_FALSE(nd_desk::counts_as_own(d, a, {a, d}));
}

TEST(DeskReadRules, ModalDialogsTheScreenDoesNotShowSayWhy)
{
    nd_core::WindowInfo owner{1, 10, "app", "Editor", {0, 0, 800, 600}, false};
    nd_core::WindowInfo dialog{2, 10, "app", "Save?", {300, 200, 200, 100}, false};
    dialog.modal = dialog.dialog = true;
    dialog.transient_for = 1;
    nd_core::WindowInfo cover{3, 20, "other", "Browser", {0, 0, 1280, 1024}, true};
    const nd_core::ScreenSize screen{1280, 1024};
    EXPECT_EQ(nd_desk::modal_reason(dialog, {dialog, owner}, screen), std::nullopt) << "shown";
    EXPECT_EQ(nd_desk::modal_reason(dialog, {cover, dialog, owner}, screen), "behind \"Browser\"");
    auto off = dialog;
    off.frame = {1400, 200, 200, 100};
    EXPECT_EQ(nd_desk::modal_reason(off, {off, owner}, screen), "off the screen");
    auto hidden = dialog;
    hidden.hidden = true;
    EXPECT_EQ(nd_desk::modal_reason(hidden, {hidden}, screen), "hidden");
    auto plain = dialog;
    plain.modal = false;
    EXPECT_EQ(nd_desk::modal_reason(plain, {cover, plain}, screen), std::nullopt) << "only modal dialogs";

    owner.executable = "editor-bin";
    auto list = nd_desk::windows_json({cover, dialog, owner}, {cover, dialog, owner}, screen);
    ASSERT_EQ(list.size(), 3u);
    EXPECT_EQ(list[2]["app"], "editor-bin") << "the executable where the backend knows it";
    EXPECT_EQ(list[1]["app"], "app") << "else the app name the window gives";
    EXPECT_EQ(list[1]["role"], "dialog");
    EXPECT_EQ(list[1]["modal"], "behind \"Browser\"");
    EXPECT_EQ(list[1]["blocks"], "Editor");
    EXPECT_FALSE(list[0].contains("modal"));
    auto shell = owner;
    shell.shell = true;
    EXPECT_EQ(nd_desk::windows_json({shell}, {shell}, screen)[0]["shell"], true);
}

TEST_F(DeskReadTest, WaitAnswersAtOnceWhenTheListAlreadyDiffers)
{
    auto since = call("windows").result;
    since["windows"].erase(since["windows"].begin());
    const auto start = std::chrono::steady_clock::now();
    auto r = call("wait", {{"since", since}, {"timeout_ms", 3000}});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.result["changed"], true);
    EXPECT_EQ(r.result["windows"].size(), 5u);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
}

TEST_F(DeskReadTest, WaitTimesOutWithTheSameList)
{
    auto since = call("windows").result;
    const auto start = std::chrono::steady_clock::now();
    auto r = call("wait", {{"since", since}, {"timeout_ms", 300}});
    const auto took = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.result["changed"], false) << since.dump() << "\n" << r.result.dump();
    EXPECT_EQ(r.result["windows"], since["windows"]);
    EXPECT_GE(took, 300ms);
    EXPECT_LT(took, 1500ms);
}

TEST_F(DeskReadTest, WaitSeesAWindowClose)
{
    auto since = call("windows").result;
    std::thread closer([&] {
        std::this_thread::sleep_for(200ms);
        m_backend->close_window(CALCULATOR);
    });
    const auto start = std::chrono::steady_clock::now();
    auto r = call("wait", {{"since", since}, {"timeout_ms", 4000}});
    closer.join();
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.result["changed"], true);
    EXPECT_EQ(r.result["windows"].size(), 4u);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
}

TEST_F(DeskReadTest, WaitComparesAfterTheAllowlist)
{
    open({"notes"});
    // A since taken without the allowlist: windows of other apps do not count as a difference.
    nd_desk::DeskConfig none;
    nd_desk::Desk open_desk(*m_backend, none);
    const auto* def = nd_desk::find_verb("desk_windows");
    nd_desk::CallScope scope{"test", nd_desk::SafetyStopToken(open_desk.safety_stop(), nullptr)};
    auto everything = nd_desk::call_verb(open_desk, *def, scope, json::object());
    ASSERT_TRUE(everything.ok());
    auto r = call("wait", {{"since", everything->result}, {"timeout_ms", 200}});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.result["changed"], false) << r.result.dump();
    EXPECT_EQ(r.result["windows"].size(), 2u);
}

TEST_F(DeskReadTest, AHaltEndsALongWaitAtOnce)
{
    auto since = call("windows").result;
    std::thread halter([&] {
        std::this_thread::sleep_for(200ms);
        m_desk->safety_stop().stop();
    });
    const auto start = std::chrono::steady_clock::now();
    auto r = call("wait", {{"since", since}, {"timeout_ms", 5000}});
    halter.join();
    EXPECT_FALSE(r.ok);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
}

TEST_F(DeskReadTest, WaitRefusesASinceThatIsNoWindowsResult)
{
    auto r = call("wait", {{"since", {{"nothing", 1}}}, {"timeout_ms", 10}});
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("desk_windows"), std::string::npos) << r.error;
    auto missing = call("wait", {{"since", {{"windows", json::array()}}}});
    ASSERT_FALSE(missing.ok);
    EXPECT_EQ(missing.error.rfind("desk_wait: timeout_ms:", 0), 0u) << missing.error;
}

TEST_F(DeskReadTest, UnansweredNamesTheActiveWindowOfAHungApp)
{
    ASSERT_TRUE(m_backend->raise(SETTINGS));
    auto fine = call("unanswered");
    ASSERT_TRUE(fine.ok) << fine.error;
    EXPECT_TRUE(fine.result.is_null()) << fine.result.dump();
    ASSERT_TRUE(m_backend->set_hung(SETTINGS, true));
    auto hung = call("unanswered");
    ASSERT_TRUE(hung.ok) << hung.error;
    ASSERT_TRUE(hung.result.is_object()) << hung.result.dump();
    EXPECT_EQ(hung.result["id"], "");
    EXPECT_EQ(hung.result["title"], "Settings");
    EXPECT_EQ(hung.result["pid"], 6001);
    EXPECT_EQ(hung.result["app"], "Settings");
    open({"notes"});
    ASSERT_TRUE(m_backend->raise(SETTINGS));
    ASSERT_TRUE(m_backend->set_hung(SETTINGS, true));
    auto outside = call("unanswered");
    ASSERT_TRUE(outside.ok) << outside.error;
    EXPECT_TRUE(outside.result.is_null()) << "outside the allowlist";
}

TEST_F(DeskReadTest, FocusAndCloseNeedAWindowManager)
{
    auto focus = call("focus", {{"window", "Calculator"}});
    ASSERT_FALSE(focus.ok);
    EXPECT_NE(focus.error.find("window manager"), std::string::npos) << focus.error;
    auto missing = call("close", json::object());
    ASSERT_FALSE(missing.ok);
    EXPECT_EQ(missing.error.rfind("desk_close: window:", 0), 0u) << missing.error;
    auto unknown = call("focus", {{"window", "No such window"}});
    ASSERT_FALSE(unknown.ok);
    EXPECT_NE(unknown.error.find("desk_windows"), std::string::npos) << unknown.error;
}

TEST_F(DeskReadTest, LaunchChecksTheNameAndStartsAProgram)
{
    auto slash = call("launch", {{"app", "/bin/true"}});
    ASSERT_FALSE(slash.ok);
    EXPECT_EQ(slash.error.rfind("app:", 0), 0u) << slash.error;
    auto missing = call("launch", {{"app", "no-such-program-anywhere"}});
    ASSERT_FALSE(missing.ok);
    EXPECT_NE(missing.error.find("PATH"), std::string::npos) << missing.error;
    auto started = call("launch", {{"app", "sleep"}});
    ASSERT_TRUE(started.ok) << started.error;
    EXPECT_GT(started.result["pid"].get<int>(), 0);
    EXPECT_TRUE(started.result["scoped"].is_boolean());
    // Its own process group: the launch never shares the daemon's.
    const auto pid = started.result["pid"].get<pid_t>();
    const auto group = ::getpgid(pid);
    if (group >= 0) { // it may already have exited (sleep without an argument fails at once)
        EXPECT_EQ(group, pid);
    }
}

TEST(DeskReadLaunch, FindOnPathTakesOnlyAbsoluteDirectoriesAndExecutables)
{
    EXPECT_EQ(nd_desk::find_on_path("sh", "/nonexistent:/bin:/usr/bin").substr(0, 1), "/");
    EXPECT_EQ(nd_desk::find_on_path("sh", ":relative:."), "");
    EXPECT_EQ(nd_desk::find_on_path("../sh", "/bin"), "");
    EXPECT_EQ(nd_desk::find_on_path("passwd", "/etc"), "") << "a file that is not executable";
}

} // namespace

// `shuttle desk` on the virtual test desktop never sends input onto nish's own surfaces: with a
// marked window (x11_own_marker.h) over a real app (zenity), `shuttle desk click` at it is refused
// with reserved_for_person and the pointer does not move, also while another driver holds the
// takeover lock (the refusal comes before the lease); `desk at` there reports the surface as
// covering the app, and a point the surface does not cover reports no cover. And the issue's own
// case: with nish-driver's real consent dialog up, `shuttle desk click` on its takeover line and on
// Allow is refused, with and without an app allowlist, and the dialog grants nothing. The daemon is
// the program itself, driven through its CLI.

#include "linux/consent_probe.h"
#include "linux/lsan_fontconfig.h"
#include "linux/own_window.h"
#include "linux/x11_test_support.h"

#include "backend/linux/x11/x11_consent_dialog.h"
#include "backend/linux/x11/x11_display_lock.h"
#include "core/backend/synthetic_input.h"
#include "desk/wire/client.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>

namespace w = nd_desk::wire;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

class DeskOwnSurfaceLinux : public ::testing::Test {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_DESKTOP();
        auto x = nd_linux::X11Display::open();
        ASSERT_TRUE(x.ok()) << x.error().text();
        m_x = std::move(x).value();
        char tmpl[] = "/tmp/desk-own-XXXXXX";
        m_dir = ::mkdtemp(tmpl);
        m_socket = m_dir + "/desk.sock";
        start_daemon("");
    }
    // (Re)starts the daemon with `config` as its config.toml.
    void start_daemon(const std::string& config)
    {
        stop_daemon();
        std::ofstream(m_dir + "/config.toml") << config;
        std::vector<std::string> env;
        for (char** e = environ; *e; ++e)
            if (std::strncmp(*e, "SHUTTLE_", 8) != 0)
                env.emplace_back(*e);
        env.push_back("SHUTTLE_SOCKET=" + m_socket);
        env.push_back("SHUTTLE_CONFIG=" + m_dir + "/config.toml");
        m_daemon = nd_test::spawn_in_own_group({NISH_BIN_DIR "/shuttle", "daemon", "--backend", "linux"}, &env, true);
        ASSERT_GT(m_daemon, 0);
        ASSERT_TRUE(nd_test::wait_until([&] { return w::Client::connect(m_socket).ok(); }, 10s)) << "the daemon did not come up";
    }
    void stop_daemon()
    {
        if (m_daemon > 0) {
            ::kill(-m_daemon, SIGTERM);
            ::waitpid(m_daemon, nullptr, 0);
        }
        m_daemon = -1;
    }
    void TearDown() override
    {
        stop_daemon();
        if (!m_dir.empty())
            std::filesystem::remove_all(m_dir);
    }

    int cli(const std::string& args, std::string& out)
    {
        out = nd_test::command_output("cd " + m_dir + " && SHUTTLE_SOCKET=" + m_socket + " " NISH_BIN_DIR "/shuttle " + args +
                                      " 2>&1; echo \"rc=$?\"");
        const auto at = out.rfind("rc=");
        const int rc = at == std::string::npos ? -1 : std::atoi(out.c_str() + at + 3);
        out.resize(at == std::string::npos ? out.size() : at);
        return rc;
    }

    // The window of `pid` as `desk windows` lists it.
    json zenity_window(pid_t pid, std::string& out)
    {
        json found;
        nd_test::wait_until([&] {
            if (cli("desk windows", out) != 0)
                return false;
            const auto listed = json::parse(out);
            for (const auto& win : listed["windows"])
                if (win.value("pid", 0) == pid)
                    found = win;
            return !found.is_null();
        }, 20s);
        return found;
    }

    nd_core::Point pointer()
    {
        auto where = m_x->wait<xcb_query_pointer_reply_t>(xcb_query_pointer(m_x->connection(), m_x->root()),
            nd_linux::deadline_after(1s));
        EXPECT_TRUE(where.ok() && *where);
        return where.ok() && *where ? nd_core::Point{(*where)->root_x, (*where)->root_y} : nd_core::Point{};
    }

    std::unique_ptr<nd_linux::X11Display> m_x;
    std::string m_dir, m_socket;
    pid_t m_daemon = -1;
};

TEST_F(DeskOwnSurfaceLinux, DeskClickOnOurSurfaceIsRefusedAndAtReportsIt)
{
    nd_test::AppProcess app({"zenity", "--info", "--title", "Under the dialog", "--text", "covered"});
    std::string out;
    const auto window = zenity_window(app.pid(), out);
    ASSERT_FALSE(window.is_null()) << "zenity (" << app.pid() << ") never listed: " << out;
    ASSERT_EQ(cli("desk focus --window 'Under the dialog' --pid " + std::to_string(app.pid()), out), 0) << out;
    // Points of zenity's window, from its root node's bounds.
    ASSERT_EQ(cli("desk snapshot --id " + window["id"].get<std::string>() + " --bounds", out), 0) << out;
    const auto root_bounds = json::parse(out)["nodes"][0]["bounds"];
    ASSERT_TRUE(root_bounds.is_object()) << out;
    const nd_core::Frame app_frame{root_bounds["x"], root_bounds["y"], root_bounds["w"], root_bounds["h"]};
    const nd_core::Point covered{app_frame.x + 30, app_frame.y + 30};
    const nd_core::Point open{app_frame.x + app_frame.w - 10, app_frame.y + app_frame.h - 10};
    const auto xy = [](nd_core::Point p) { return "--x " + std::to_string(p.x) + " --y " + std::to_string(p.y); };

    // Nothing of ours there yet: at reports no cover.
    ASSERT_EQ(cli("desk at " + xy(covered), out), 0) << out;
    EXPECT_FALSE(json::parse(out).contains("covered")) << out;

    nd_test::OwnWindow button(*m_x, nd_linux::SURFACE_CONTINUE, {covered.x - 20, covered.y - 20, 60, 40},
        nd_test::OwnWindow::Kind::override_redirect);
    button.wait_shown();
    const auto before = pointer();
    EXPECT_EQ(cli("desk click " + xy(covered), out), 1) << out;
    EXPECT_NE(out.find("Continue button (continue_button)"), std::string::npos) << out;
    EXPECT_NE(out.find("only the person may answer it"), std::string::npos) << out;
    EXPECT_EQ(pointer(), before) << "the click moved the pointer";
    // The vision verbs are refused the same way, by a point (screen pixels at scale 1) or a drag's end.
    const auto act = [](const json& args) { return "desk computer_act '" + args.dump() + "'"; };
    EXPECT_EQ(cli(act({{"action", "click"}, {"x", covered.x}, {"y", covered.y}, {"scale", 1}}), out), 1) << out;
    EXPECT_NE(out.find("only the person may answer it"), std::string::npos) << out;
    EXPECT_EQ(cli(act({{"action", "drag"}, {"x", open.x}, {"y", open.y}, {"to_x", covered.x}, {"to_y", covered.y}, {"scale", 1}}), out), 1)
        << out;
    EXPECT_NE(out.find("only the person may answer it"), std::string::npos) << out;
    EXPECT_EQ(pointer(), before) << "a vision act moved the pointer";

    // While another driver holds the takeover the answer is the same: the refusal comes first.
    {
        auto lock = nd_linux::DisplayLock::take("");
        ASSERT_TRUE(lock.ok()) << lock.error().text();
        EXPECT_EQ(cli("desk click " + xy(covered), out), 1) << out;
        EXPECT_NE(out.find("only the person may answer it"), std::string::npos) << out;
        EXPECT_EQ(cli("desk click " + xy(open), out), 1) << out;
        EXPECT_NE(out.find("another driver holds the takeover"), std::string::npos) << out;
    }
    EXPECT_EQ(pointer(), before);

    ASSERT_EQ(cli("desk at " + xy(covered), out), 0) << out;
    const auto at = json::parse(out);
    EXPECT_EQ(at["covered"]["surface"], "continue_button") << out;
    EXPECT_EQ(at["covered"]["reserved_for_person"], true) << out;
    EXPECT_EQ(at["pid"], app.pid()) << out;
    ASSERT_EQ(cli("desk at " + xy(open), out), 0) << out;
    EXPECT_FALSE(json::parse(out).contains("covered")) << out;
}

TEST_F(DeskOwnSurfaceLinux, DeskClicksOnTheConsentDialogAreRefusedWithAndWithoutAnAllowlist)
{
    nd_test::AppProcess app({"zenity", "--info", "--title", "Under the consent dialog", "--text", "covered"});
    std::string out;
    ASSERT_FALSE(zenity_window(app.pid(), out).is_null()) << out;
    nd_linux::PressClock clock;
    nd_linux::PersonRule rule("", clock);
    nd_linux::X11ConsentDialog dialog("", rule, 30s);
    const nd_core::ConsentRequest req{{"gtk3-widget-factory"}, true, false, 600};
    const auto layout = nd_linux::X11ConsentDialog::layout(req);
    auto answer = std::async(std::launch::async, [&] { return dialog.ask(req); });
    const auto shown = nd_test::wait_for_consent_dialog(*m_x);
    ASSERT_TRUE(shown) << "the consent dialog did not show";
    const auto xy = [&](const nd_linux::ConsentRect& r) {
        const auto p = nd_test::control_centre(*shown, r);
        return "--x " + std::to_string(p.x) + " --y " + std::to_string(p.y);
    };

    for (const std::string config : {"", "[apps]\nallow = [\"zenity\"]\n"}) {
        start_daemon(config);
        ASSERT_TRUE(nd_test::wait_until([&] { return w::Client::connect(m_socket).ok(); }, 10s));
        const auto before = pointer();
        EXPECT_EQ(cli("desk click " + xy(*layout.takeover_box), out), 1) << out;
        EXPECT_NE(out.find("consent dialog (consent_dialog)"), std::string::npos) << out;
        EXPECT_EQ(cli("desk click " + xy(layout.allow), out), 1) << out;
        EXPECT_NE(out.find("only the person may answer it"), std::string::npos) << out;
        EXPECT_EQ(pointer(), before) << "a click moved the pointer";
    }
    EXPECT_EQ(answer.wait_for(300ms), std::future_status::timeout) << "the dialog was answered";
    EXPECT_EQ(dialog.last_refusal(), "") << "a click reached the dialog";

    // A no may come from anywhere: another program's click on Deny closes it, granting nothing.
    const auto deny = nd_test::control_centre(*shown, layout.deny);
    ASSERT_EQ(nd_test::run_command({"xdotool", "mousemove", std::to_string(deny.x), std::to_string(deny.y), "click", "1"}), 0);
    ASSERT_EQ(answer.wait_for(5s), std::future_status::ready);
    auto grant = answer.get();
    ASSERT_TRUE(grant.ok()) << grant.error().text();
    EXPECT_FALSE(grant->allowed);
    EXPECT_FALSE(grant->takeover);
}

} // namespace

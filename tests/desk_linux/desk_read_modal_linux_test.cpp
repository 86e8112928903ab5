// desk_windows' window-manager facts on the real X server (docs/desk-verbs-read.md): a modal
// dialog the screen does not show says why (modal) and whose window it blocks (blocks); a window
// whose process also owns a dock window is the shell's (shell: true). The windows are the test's
// own, made over xcb with the EWMH properties a toolkit would set, so the facts are known exactly.

#include "../linux/app_process.h"
#include "backend/linux/linux_backend.h"
#include "desk/desk.h"
#include "desk/verbs/verbs.h"

#include <gtest/gtest.h>

#include <xcb/xcb.h>

#include <cstring>
#include <string>
#include <vector>

using nlohmann::json;
using namespace std::chrono_literals;

namespace {

class TestWindows {
public:
    TestWindows() : m_c(xcb_connect(nullptr, nullptr)) {}
    ~TestWindows() { xcb_disconnect(m_c); }
    bool ok() const { return xcb_connection_has_error(m_c) == 0; }

    xcb_atom_t atom(const char* name)
    {
        auto* reply = xcb_intern_atom_reply(m_c, xcb_intern_atom(m_c, 0, static_cast<std::uint16_t>(std::strlen(name)), name), nullptr);
        const xcb_atom_t a = reply ? reply->atom : xcb_atom_t{XCB_ATOM_NONE};
        std::free(reply);
        return a;
    }

    // A top-level window with a title, a window type and states, mapped.
    xcb_window_t make(const std::string& title, int x, int y, int w, int h, const char* type,
        std::vector<const char*> states = {}, xcb_window_t transient_for = XCB_WINDOW_NONE)
    {
        const auto* screen = xcb_setup_roots_iterator(xcb_get_setup(m_c)).data;
        const xcb_window_t window = xcb_generate_id(m_c);
        const std::uint32_t values[] = {screen->white_pixel};
        xcb_create_window(m_c, XCB_COPY_FROM_PARENT, window, screen->root, static_cast<std::int16_t>(x), static_cast<std::int16_t>(y),
            static_cast<std::uint16_t>(w), static_cast<std::uint16_t>(h), 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual,
            XCB_CW_BACK_PIXEL, values);
        xcb_change_property(m_c, XCB_PROP_MODE_REPLACE, window, atom("_NET_WM_NAME"), atom("UTF8_STRING"), 8,
            static_cast<std::uint32_t>(title.size()), title.data());
        const char wm_class[] = "desktest\0DeskTest";
        xcb_change_property(m_c, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 8, sizeof wm_class, wm_class);
        const xcb_atom_t type_atom = atom(type);
        xcb_change_property(m_c, XCB_PROP_MODE_REPLACE, window, atom("_NET_WM_WINDOW_TYPE"), XCB_ATOM_ATOM, 32, 1, &type_atom);
        std::vector<xcb_atom_t> state_atoms;
        for (const char* s : states)
            state_atoms.push_back(atom(s));
        if (!state_atoms.empty())
            xcb_change_property(m_c, XCB_PROP_MODE_REPLACE, window, atom("_NET_WM_STATE"), XCB_ATOM_ATOM, 32,
                static_cast<std::uint32_t>(state_atoms.size()), state_atoms.data());
        if (transient_for != XCB_WINDOW_NONE)
            xcb_change_property(m_c, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_TRANSIENT_FOR, XCB_ATOM_WINDOW, 32, 1, &transient_for);
        xcb_map_window(m_c, window);
        xcb_flush(m_c);
        return window;
    }

    // Asks again: a window manager that was still starting may have missed the first request (the
    // server sends none for a window that is already mapped).
    void map(xcb_window_t window)
    {
        xcb_map_window(m_c, window);
        xcb_flush(m_c);
    }

private:
    xcb_connection_t* m_c;
};

class DeskModalLinux : public ::testing::Test {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_DESKTOP();
        auto backend = nd_linux::LinuxBackend::open();
        ASSERT_TRUE(backend.ok()) << backend.error().text();
        m_backend = std::move(backend).value();
        m_desk = std::make_unique<nd_desk::Desk>(*m_backend, nd_desk::DeskConfig{});
    }

    json call(std::string_view verb, const json& args = json::object())
    {
        const auto* def = nd_desk::find_verb("desk_" + std::string(verb));
        nd_desk::CallScope scope{"test", nd_desk::SafetyStopToken(m_desk->safety_stop(), nullptr)};
        auto reply = nd_desk::call_verb(*m_desk, *def, scope, args);
        EXPECT_TRUE(reply.ok()) << verb << ": " << (reply ? "" : reply.error().message);
        return reply ? reply->result : json();
    }

    json entry(const std::string& title)
    {
        const auto list = call("windows");
        for (const auto& w : list["windows"])
            if (w["title"] == title)
                return w;
        return {};
    }

    std::unique_ptr<nd_linux::LinuxBackend> m_backend;
    std::unique_ptr<nd_desk::Desk> m_desk;
};

TEST_F(DeskModalLinux, AModalDialogBehindAnotherWindowSaysWhyAndWhatItBlocks)
{
    TestWindows x;
    ASSERT_TRUE(x.ok());
    const auto owner = x.make("Desk owner", 100, 100, 500, 400, "_NET_WM_WINDOW_TYPE_NORMAL");
    ASSERT_TRUE(nd_test::wait_until([&] { x.map(owner); return !entry("Desk owner").is_null(); }, 10s)) << call("windows").dump();
    const auto modal = x.make("Desk modal", 200, 200, 200, 120, "_NET_WM_WINDOW_TYPE_DIALOG", {"_NET_WM_STATE_MODAL"}, owner);
    ASSERT_TRUE(nd_test::wait_until([&] { x.map(modal); return !entry("Desk modal").is_null(); }, 10s));
    auto shown = entry("Desk modal");
    EXPECT_EQ(shown["role"], "dialog");
    EXPECT_FALSE(shown.contains("modal")) << "the screen shows it: " << shown.dump();

    // A window over the whole screen, brought to the front, hides the dialog.
    const auto cover = x.make("Desk cover", 0, 0, 1280, 1024, "_NET_WM_WINDOW_TYPE_NORMAL");
    ASSERT_TRUE(nd_test::wait_until([&] { x.map(cover); return !entry("Desk cover").is_null(); }, 10s));
    auto focus = call("focus", {{"window", "Desk cover"}});
    ASSERT_TRUE(focus.is_object());
    json hidden;
    nd_test::wait_until(
        [&] {
            hidden = entry("Desk modal");
            return hidden.contains("modal");
        },
        5s);
    ASSERT_TRUE(hidden.contains("modal")) << call("windows").dump();
    EXPECT_EQ(hidden["modal"], "behind \"Desk cover\"");
    EXPECT_EQ(hidden["blocks"], "Desk owner");
    EXPECT_FALSE(entry("Desk owner").contains("modal"));
    EXPECT_FALSE(entry("Desk owner").contains("shell")) << "this process owns no dock yet";
}

TEST_F(DeskModalLinux, WindowsOfAProcessThatOwnsADockAreTheShells)
{
    TestWindows x;
    ASSERT_TRUE(x.ok());
    const auto window = x.make("Desk shell dialog", 300, 300, 200, 100, "_NET_WM_WINDOW_TYPE_NORMAL");
    const auto panel = x.make("Desk panel", 0, 0, 1280, 30, "_NET_WM_WINDOW_TYPE_DOCK");
    json dialog;
    nd_test::wait_until(
        [&] {
            x.map(window);
            x.map(panel);
            dialog = entry("Desk shell dialog");
            return dialog.contains("shell");
        },
        10s);
    EXPECT_EQ(dialog["shell"], true) << dialog.dump();
    EXPECT_TRUE(entry("Desk panel").is_null()) << "dock windows are never listed";
}

} // namespace

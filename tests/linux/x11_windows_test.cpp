// The X11 window list, display and probe on a real X server. CI runs these inside
// scripts/test-desktop (Xvfb + openbox); each test starts the apps it needs and stops exactly those.

#include "linux/app_process.h"
#include "linux/x11_test_support.h"

#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_probe.h"
#include "backend/linux/x11/x11_properties.h"
#include "backend/linux/x11/x11_windows.h"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <optional>

using namespace std::chrono_literals;
using nd_core::ErrorCode;
using nd_core::WindowInfo;
using nd_linux::X11Display;
using nd_linux::X11WindowSource;
using nd_test::AppProcess;
using nd_test::wait_until;

namespace {

std::unique_ptr<X11Display> open_display()
{
    auto display = X11Display::open();
    EXPECT_TRUE(display.ok()) << (display.ok() ? "" : display.error().text());
    return display.ok() ? std::move(display).value() : nullptr;
}

std::vector<WindowInfo> list(X11WindowSource& source)
{
    auto windows = source.list_windows();
    EXPECT_TRUE(windows.ok()) << (windows.ok() ? "" : windows.error().text());
    return windows.ok() ? windows.value() : std::vector<WindowInfo>{};
}

std::optional<WindowInfo> window_of(X11WindowSource& source, pid_t pid)
{
    for (auto& w : list(source))
        if (w.pid == pid)
            return w;
    return std::nullopt;
}

// Waits for the app's window to be listed (apps take a second or so to map under Xvfb).
WindowInfo wait_for_window(X11WindowSource& source, const AppProcess& app)
{
    std::optional<WindowInfo> found;
    wait_until([&] { return (found = window_of(source, app.pid())).has_value(); }, 15s);
    EXPECT_TRUE(found) << "no window of pid " << app.pid();
    return found.value_or(WindowInfo{});
}

void activate(std::int64_t window_id) { ASSERT_EQ(nd_test::run_command({"xdotool", "windowactivate", "--sync", std::to_string(window_id)}), 0); }

} // namespace

TEST(X11Windows, ListsTheSpawnedAppWithPidTitleAppAndFrame)
{
    REQUIRE_DISPLAY();
    auto display = open_display();
    ASSERT_TRUE(display);
    X11WindowSource source(*display);
    AppProcess app({"gtk3-widget-factory"});
    ASSERT_GT(app.pid(), 0);
    auto w = wait_for_window(source, app);

    EXPECT_EQ(w.pid, app.pid());
    EXPECT_EQ(w.app, "Gtk3-widget-factory");
    EXPECT_FALSE(w.title.empty());
    const auto& screen = display->screen();
    EXPECT_GT(w.frame.w, 100);
    EXPECT_GT(w.frame.h, 100);
    EXPECT_GE(w.frame.x, 0);
    EXPECT_GE(w.frame.y, 0);
    EXPECT_LT(w.frame.x, screen.width_in_pixels);
    EXPECT_LT(w.frame.y, screen.height_in_pixels);
    // The window is an X id the server knows, and no dock or desktop window is listed.
    for (const auto& other : list(source))
        EXPECT_GT(other.window_id, 0);
}

TEST(X11Windows, StackingOrderAndActiveFollowActivation)
{
    REQUIRE_DISPLAY();
    auto display = open_display();
    ASSERT_TRUE(display);
    X11WindowSource source(*display);
    AppProcess factory({"gtk3-widget-factory"});
    auto factory_window = wait_for_window(source, factory);
    AppProcess dialog({"zenity", "--info", "--text", "hi"});
    auto dialog_window = wait_for_window(source, dialog);
    ASSERT_NE(factory_window.window_id, 0);
    ASSERT_NE(dialog_window.window_id, 0);
    EXPECT_EQ(dialog_window.app, "Zenity");

    for (const auto& [raised, other] : {std::pair{factory_window, dialog_window}, std::pair{dialog_window, factory_window}}) {
        activate(raised.window_id);
        auto windows = list(source);
        ASSERT_FALSE(windows.empty());
        EXPECT_EQ(windows.front().window_id, raised.window_id) << "the activated window comes first";
        int active = 0;
        for (const auto& w : windows) {
            active += w.active;
            if (w.window_id == raised.window_id) {
                EXPECT_TRUE(w.active);
            }
            if (w.window_id == other.window_id) {
                EXPECT_FALSE(w.active);
            }
        }
        EXPECT_EQ(active, 1);
    }
}

TEST(X11Windows, AClosedWindowLeavesTheList)
{
    REQUIRE_DISPLAY();
    auto display = open_display();
    ASSERT_TRUE(display);
    X11WindowSource source(*display);
    AppProcess dialog({"zenity", "--info", "--text", "bye"});
    auto w = wait_for_window(source, dialog);
    ASSERT_NE(w.window_id, 0);
    dialog.stop();
    bool gone = wait_until([&] {
        for (const auto& other : list(source))
            if (other.window_id == w.window_id)
                return false;
        return true;
    }, 5s);
    EXPECT_TRUE(gone);
}

TEST(X11Windows, ListingIsFast)
{
    REQUIRE_DISPLAY();
    auto display = open_display();
    ASSERT_TRUE(display);
    X11WindowSource source(*display);
    AppProcess a({"zenity", "--info", "--text", "one"});
    AppProcess b({"zenity", "--info", "--text", "two"});
    AppProcess c({"zenity", "--info", "--text", "three"});
    wait_for_window(source, a);
    wait_for_window(source, b);
    wait_for_window(source, c);

    constexpr int rounds = 50;
    std::size_t count = 0;
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < rounds; ++i)
        count = list(source).size();
    auto per_list = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / rounds;
    std::printf("list_windows: %zu windows in %.0f us\n", count, per_list);
    EXPECT_GE(count, 3u);
    EXPECT_LT(per_list, 20000.0); // generous: one batch is ~0.1-1 ms, but CI machines vary
}

TEST(X11Display, AtomsAreInternedAndCached)
{
    REQUIRE_DISPLAY();
    auto display = open_display();
    ASSERT_TRUE(display);
    auto atom = display->atom("_NET_WM_NAME");
    EXPECT_NE(atom, static_cast<xcb_atom_t>(XCB_ATOM_NONE));
    EXPECT_EQ(display->atom("_NET_WM_NAME"), atom);
    EXPECT_EQ(display->atom("WM_NAME"), static_cast<xcb_atom_t>(XCB_ATOM_WM_NAME));
    EXPECT_FALSE(display->name().empty());
}

TEST(X11Probe, ReportsTheTestDisplay)
{
    REQUIRE_DISPLAY();
    auto probe = nd_linux::probe_x11();
    EXPECT_TRUE(probe.reachable) << probe.error;
    EXPECT_TRUE(probe.local);
    EXPECT_EQ(probe.display, std::getenv("DISPLAY"));
    EXPECT_TRUE(probe.error.empty());
    EXPECT_TRUE(probe.extensions.xtest);
    EXPECT_TRUE(probe.extensions.xinput2_1);
    EXPECT_TRUE(probe.extensions.xres);
    EXPECT_TRUE(probe.extensions.composite);
    EXPECT_TRUE(probe.extensions.shm);
    EXPECT_TRUE(probe.extensions.shape);
}

TEST(X11Probe, AMissingDisplayIsUnreachableAtOnce)
{
    auto start = std::chrono::steady_clock::now();
    auto probe = nd_linux::probe_x11(":987");
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
    EXPECT_FALSE(probe.reachable);
    EXPECT_EQ(probe.display, ":987");
    EXPECT_FALSE(probe.error.empty());

    auto display = X11Display::open(":987");
    ASSERT_FALSE(display.ok());
    EXPECT_EQ(display.error().code, ErrorCode::backend_unavailable);
    auto garbage = X11Display::open("no display here");
    ASSERT_FALSE(garbage.ok());
    EXPECT_EQ(garbage.error().code, ErrorCode::backend_unavailable);
}

// A server that accepts the connection and then never answers (a hung X server): the connect
// gives up at its deadline instead of hanging. The socket is abstract, so nothing is left on disk.
TEST(X11Probe, AServerThatNeverAnswersTimesOut)
{
    int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(listener, 0);
    int number = -1;
    for (int n = 900; n < 1000 && number < 0; ++n) {
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        auto path = "/tmp/.X11-unix/X" + std::to_string(n);
        std::memcpy(addr.sun_path + 1, path.data(), path.size()); // sun_path[0] == 0: abstract
        auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + path.size());
        if (::bind(listener, reinterpret_cast<sockaddr*>(&addr), len) == 0 && ::listen(listener, 4) == 0)
            number = n;
    }
    ASSERT_GE(number, 0);

    auto start = std::chrono::steady_clock::now();
    auto probe = nd_linux::probe_x11(":" + std::to_string(number), 300ms);
    auto took = std::chrono::steady_clock::now() - start;
    EXPECT_FALSE(probe.reachable);
    EXPECT_NE(probe.error.find("did not finish connecting"), std::string::npos) << probe.error;
    EXPECT_LT(took, 1500ms);
    ::close(listener);
}

TEST(X11Properties, TextIsAlwaysValidUtf8)
{
    EXPECT_EQ(nd_linux::sanitize_utf8("ok \xc3\xa9"), "ok \xc3\xa9");
    EXPECT_EQ(nd_linux::sanitize_utf8("bad \xff!"), "bad \xef\xbf\xbd!");
    EXPECT_EQ(nd_linux::sanitize_utf8(std::string_view("\xc3", 1)), "\xef\xbf\xbd");
    EXPECT_EQ(nd_linux::process_name(-1), "");
    EXPECT_EQ(nd_linux::process_name(getpid()).empty(), false);
}

namespace {

// A GetProperty reply as the server would send it: the 32-byte header, then the value.
std::vector<std::uint32_t> fake_property(xcb_atom_t type, std::uint8_t format, std::string_view value)
{
    std::vector<std::uint32_t> buffer((sizeof(xcb_get_property_reply_t) + value.size() + 3) / 4 + 1, 0);
    auto* reply = reinterpret_cast<xcb_get_property_reply_t*>(buffer.data());
    reply->response_type = 1;
    reply->format = format;
    reply->type = type;
    reply->value_len = static_cast<std::uint32_t>(value.size() / (format / 8));
    std::memcpy(reply + 1, value.data(), value.size());
    return buffer;
}

const xcb_get_property_reply_t* as_reply(const std::vector<std::uint32_t>& buffer)
{
    return reinterpret_cast<const xcb_get_property_reply_t*>(buffer.data());
}

} // namespace

TEST(X11Properties, DecodesTitlesClassesAndLists)
{
    constexpr xcb_atom_t utf8 = 300;
    auto latin1 = fake_property(XCB_ATOM_STRING, 8, "caf\xe9");
    EXPECT_EQ(nd_linux::property_text(as_reply(latin1), utf8), "caf\xc3\xa9");
    auto utf8_title = fake_property(utf8, 8, std::string_view("caf\xc3\xa9\0", 6));
    EXPECT_EQ(nd_linux::property_text(as_reply(utf8_title), utf8), "caf\xc3\xa9");
    auto compound = fake_property(301, 8, "ab\x1b\x80");
    EXPECT_EQ(nd_linux::property_text(as_reply(compound), utf8), "ab\x1b\xef\xbf\xbd");
    auto wrong_format = fake_property(utf8, 32, "abcd");
    EXPECT_EQ(nd_linux::property_text(as_reply(wrong_format), utf8), "");
    EXPECT_EQ(nd_linux::property_text(nullptr, utf8), "");

    auto wm_class = fake_property(XCB_ATOM_STRING, 8, std::string_view("gedit\0Gedit\0", 12));
    auto cls = nd_linux::property_wm_class(as_reply(wm_class));
    EXPECT_EQ(cls.instance, "gedit");
    EXPECT_EQ(cls.class_name, "Gedit");
    auto half = fake_property(XCB_ATOM_STRING, 8, "only");
    EXPECT_EQ(nd_linux::property_wm_class(as_reply(half)).class_name, "");

    std::uint32_t ids[] = {7, 9};
    auto windows = fake_property(XCB_ATOM_WINDOW, 32, std::string_view(reinterpret_cast<const char*>(ids), sizeof ids));
    EXPECT_EQ(nd_linux::property_u32(as_reply(windows)), (std::vector<std::uint32_t>{7, 9}));
    EXPECT_TRUE(nd_linux::property_u32(as_reply(latin1)).empty());
}

// A display of the test's own (Xvfb without a window manager): the list falls back to the root's
// children, and once the server stops answering, reads end with timed_out at their deadline
// instead of hanging.
TEST(X11Display, AStoppedServerGivesTimedOutNotAHang)
{
    REQUIRE_DISPLAY(); // Xvfb is part of the test desktop's packages
    auto own = nd_test::OwnXvfb::start();
    ASSERT_TRUE(own.display) << "could not start an Xvfb of the test's own";
    auto& xvfb = own.process;
    auto& display = own.display;

    // A mapped window of this process, found without any EWMH list.
    auto mine = own.create_window(10, 20, 200, 100, 0x336699);
    X11WindowSource source(*display);
    auto windows = list(source);
    ASSERT_EQ(windows.size(), 1u);
    EXPECT_EQ(windows[0].window_id, mine);
    EXPECT_EQ(windows[0].pid, getpid());
    EXPECT_EQ(windows[0].app, "Probe");
    EXPECT_EQ(windows[0].title, "title");
    EXPECT_EQ(windows[0].frame, (nd_core::Frame{10, 20, 200, 100}));
    EXPECT_FALSE(windows[0].active);

    ASSERT_EQ(::kill(xvfb->pid(), SIGSTOP), 0);
    auto start = std::chrono::steady_clock::now();
    auto stalled = source.list_windows();
    auto took = std::chrono::steady_clock::now() - start;
    ::kill(xvfb->pid(), SIGCONT);
    ASSERT_FALSE(stalled.ok());
    EXPECT_EQ(stalled.error().code, ErrorCode::timed_out);
    EXPECT_GE(took, 900ms);
    EXPECT_LT(took, 3s);

    // The display stays usable once the server answers again (the late replies were discarded).
    EXPECT_EQ(list(source).size(), 1u);
    xvfb->stop();
    wait_until([&] { return display->broken() || !source.list_windows().ok(); }, 3s);
    auto dead = source.list_windows();
    ASSERT_FALSE(dead.ok());
    EXPECT_EQ(dead.error().code, ErrorCode::backend_unavailable);
}

// Twenty windows cost one batch of requests, not twenty round trips each.
TEST(X11Windows, TwentyWindowsListInOneBatch)
{
    REQUIRE_DISPLAY();
    auto own = nd_test::OwnXvfb::start();
    ASSERT_TRUE(own.display);
    for (int i = 0; i < 20; ++i)
        own.create_window(static_cast<std::int16_t>(i * 10), static_cast<std::int16_t>(i * 5), 100, 80, 0x101010u * (i % 15));
    X11WindowSource source(*own.display);
    ASSERT_EQ(list(source).size(), 20u);
    constexpr int rounds = 50;
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < rounds; ++i)
        ASSERT_EQ(list(source).size(), 20u);
    auto per_list = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / rounds;
    std::printf("list_windows: 20 windows in %.0f us\n", per_list);
    EXPECT_LT(per_list, 20000.0); // about 0.5 ms here; generous for slow CI machines
}

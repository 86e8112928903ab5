// The test mark never reaches a shipped program (src/backend/linux/person_mark/person_mark.h).
// Statically: the release binaries hold no trace of NISH_TEST_PERSON_DEVICE while a test executable
// does (so the check can fail). In use: the real `nish-driver mcp --backend linux`, run with the mark
// set, shows its consent dialog; the marked device's click on Allow does nothing there, and its Deny
// denies (a no may come from anywhere).

#include "../tools/pipe_lines.h"
#include "app_process.h"
#include "linux/person_input.h"

#include "backend/linux/x11/x11_consent_dialog.h"
#include "core/session.h"
#include "core/consent.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <functional>
#include <vector>
#include <signal.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>


namespace {

using namespace std::chrono_literals;
using nlohmann::json;

bool file_contains(const std::string& path, std::string_view needle)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    std::vector<char> bytes(static_cast<std::size_t>(std::max<std::streamoff>(0, in.tellg())));
    in.seekg(0);
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    EXPECT_FALSE(bytes.empty() || !in) << path;
    // A skip search: the binaries run to tens of megabytes with debug information.
    const std::boyer_moore_horspool_searcher searcher(needle.begin(), needle.end());
    return std::search(bytes.begin(), bytes.end(), searcher) != bytes.end();
}

std::string self_path()
{
    char buf[4096];
    const auto n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

TEST(ReleasePersonMark, ShippedBinariesCarryNoTestMark)
{
    constexpr std::string_view MARK = "NISH_TEST_PERSON_DEVICE";
    for (const char* program : {"nish-driver", "shuttle"})
        EXPECT_FALSE(file_contains(std::string(NISH_BIN_DIR) + "/" + program, MARK)) << program << " can read the test mark";
    EXPECT_TRUE(file_contains(self_path(), MARK)) << "a test executable carries the mark, so the check above can fail";
}

// nish-driver's MCP on stdio, Linux backend, the person asked for consent in the dialog.
class ReleaseDriver {
public:
    ReleaseDriver()
    {
        // NISH_TEST_PERSON_DEVICE, set by the test, is passed on.
        m_pid = nd_test::spawn_program({std::string(NISH_BIN_DIR) + "/nish-driver", "mcp", "--backend", "linux"},
                                       {{m_stdin.fd[0], 0}, {m_stdout.fd[1], 1}});
        m_stdin.close_read();
        m_stdout.close_write();
    }
    ~ReleaseDriver()
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
    }
    void send(const json& request) { nd_test::write_line(m_stdin.fd[1], request.dump()); }
    json reply(int id, std::chrono::milliseconds deadline)
    {
        for (;;) {
            auto line = m_out.next(deadline);
            if (line.empty())
                return json();
            auto r = json::parse(line, nullptr, false);
            if (!r.is_discarded() && r.value("id", json()) == id)
                return r;
        }
    }
    bool quiet(std::chrono::milliseconds d) { return m_out.quiet(d); }

private:
    nd_test::Pipe m_stdin, m_stdout;
    nd_test::LineIn m_out{m_stdout.fd[0]};
    pid_t m_pid = -1;
};

// The consent dialog's client window and its origin on the root, by its WM_CLASS.
bool find_dialog(nd_linux::X11Display& display, int& x, int& y)
{
    const auto id = nd_test::command_output("xdotool search --onlyvisible --classname nish-driver-consent 2>/dev/null | head -n1");
    if (id.empty())
        return false;
    auto origin = display.wait<xcb_translate_coordinates_reply_t>(
        xcb_translate_coordinates(display.connection(), static_cast<xcb_window_t>(std::stoul(id)), display.root(), 0, 0),
        nd_linux::deadline_after(1s));
    if (!origin.ok() || !*origin)
        return false;
    x = (*origin)->dst_x;
    y = (*origin)->dst_y;
    return true;
}

TEST(ReleasePersonMark, TheShippedDriverIgnoresTheMarkedDevice)
{
    NISH_REQUIRE_DESKTOP();
    auto display = nd_linux::X11Display::open();
    ASSERT_TRUE(display) << display.error().text();
    nd_test::PersonPointer person(**display); // sets the mark in this process's environment
    ASSERT_TRUE(person.ready());
    ReleaseDriver driver;
    driver.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
        {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                       {"clientInfo", {{"name", "release-mark-test"}, {"version", "1"}}}}}});
    ASSERT_TRUE(driver.reply(1, 10s).contains("result"));
    const nd_core::ConsentRequest asked{{"gtk3-widget-factory"}, false, false, nd_core::DEFAULT_LEASE_S};
    driver.send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"},
        {"params", {{"name", "start_session"}, {"arguments", {{"apps", asked.apps}}}}}});
    int x = -1, y = -1;
    ASSERT_TRUE(nd_test::wait_until([&] { return find_dialog(**display, x, y); }, 10s)) << "the consent dialog did not show";
    std::this_thread::sleep_for(2s); // the window manager has placed it; the driver's watch has its history
    ASSERT_TRUE(find_dialog(**display, x, y));
    const auto layout = nd_linux::X11ConsentDialog::layout(asked);
    person.click(x + layout.allow.center_x(), y + layout.allow.center_y());
    EXPECT_TRUE(driver.quiet(1500ms)) << "the shipped driver took the marked device's click on Allow";
    person.click(x + layout.deny.center_x(), y + layout.deny.center_y());
    auto denied = driver.reply(2, 10s);
    ASSERT_TRUE(denied.contains("result")) << denied.dump();
    EXPECT_EQ(denied["result"]["isError"], true) << denied.dump();
    EXPECT_NE(denied.dump().find("consent_denied"), std::string::npos) << denied.dump();
}

} // namespace

#pragma once

// Helpers shared by the X11 backend tests: the skip rule and running a short command to its end.

#include "linux/app_process.h"

#include "backend/linux/x11/x11_display.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <memory>

#include <chrono>
#include <functional>
#include <csignal>
#include <cstdlib>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>

extern char** environ;

// The X11 tests need only an X display; CI always runs them inside scripts/test-desktop.
#define REQUIRE_DISPLAY()                                                      \
    do {                                                                       \
        if (!std::getenv("DISPLAY") || !*std::getenv("DISPLAY"))               \
            GTEST_SKIP() << "needs an X display (scripts/test-desktop run --)"; \
    } while (0)

namespace nd_test {

// Runs a command (xdotool, import) in its own process group and waits for it; a command that
// outlives `timeout` is killed with its group. Returns its exit status, or -1.
inline int run_command(std::vector<std::string> argv, std::chrono::milliseconds timeout = std::chrono::seconds(10))
{
    const pid_t pid = spawn_in_own_group(std::move(argv), nullptr, false);
    if (pid < 0)
        return -1;
    const auto end = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() >= end) {
            ::kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// An Xvfb of the test's own, for what the shared test desktop must not see: a server without a window
// manager, without some extensions, or stopped on purpose. Stopped (and only it) when destroyed.
struct OwnXvfb {
    std::unique_ptr<AppProcess> process;
    std::unique_ptr<nd_linux::X11Display> display;

    static OwnXvfb start(std::vector<std::string> extra_args = {})
    {
        return start_server([&](const std::string& name) {
            std::vector<std::string> argv{"Xvfb", name, "-nolisten", "tcp", "-screen", "0", "640x480x24"};
            argv.insert(argv.end(), extra_args.begin(), extra_args.end());
            return argv;
        });
    }

    // Any X server of the test's own on the first free display from :150; `argv_for(name)` is its
    // command line. No display when it did not come up within 5 s.
    static OwnXvfb start_server(const std::function<std::vector<std::string>(const std::string&)>& argv_for)
    {
        OwnXvfb out;
        for (int n = 150; n < 200 && !out.display; ++n) {
            auto name = ":" + std::to_string(n);
            if (access(("/tmp/.X11-unix/X" + std::to_string(n)).c_str(), F_OK) == 0
                || access(("/tmp/.X" + std::to_string(n) + "-lock").c_str(), F_OK) == 0)
                continue;
            out.process = std::make_unique<AppProcess>(argv_for(name));
            wait_until([&] {
                auto opened = nd_linux::X11Display::open(name, std::chrono::milliseconds(500));
                if (opened.ok())
                    out.display = std::move(opened).value();
                return out.display != nullptr || waitpid(out.process->pid(), nullptr, WNOHANG) != 0;
            }, std::chrono::seconds(5));
        }
        return out;
    }

    // A mapped window of this process with a plain background, WM_CLASS and WM_NAME.
    xcb_window_t create_window(std::int16_t x, std::int16_t y, std::uint16_t w, std::uint16_t h, std::uint32_t background)
    {
        auto* c = display->connection();
        xcb_window_t window = xcb_generate_id(c);
        std::uint32_t values[] = {background};
        xcb_create_window(c, XCB_COPY_FROM_PARENT, window, display->root(), x, y, w, h, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
            display->screen().root_visual, XCB_CW_BACK_PIXEL, values);
        xcb_change_property(c, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 8, 12, "probe\0Probe\0");
        xcb_change_property(c, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, 5, "title");
        xcb_map_window(c, window);
        std::free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nullptr));
        return window;
    }
};

} // namespace nd_test

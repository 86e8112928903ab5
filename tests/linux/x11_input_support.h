#pragma once

// Helpers for the takeover input tests: a plain xcb window on a connection of the test's own (the
// "app" that receives the driver's input), and waiting for its events under a deadline.

#include "linux/app_process.h"

#include "backend/linux/x11/x11_display.h"

#include <gtest/gtest.h>

#include <xcb/xcb.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

namespace nd_test {

struct TestWindow {
    std::unique_ptr<nd_linux::X11Display> display;
    xcb_window_t window = 0;
    std::vector<std::unique_ptr<xcb_generic_event_t, nd_linux::FreeDeleter>> events;

    // Creates and maps a w×h window that listens for keys, buttons and mapping; waits until mapped.
    static TestWindow create(std::uint16_t w = 240, std::uint16_t h = 160)
    {
        TestWindow out;
        auto opened = nd_linux::X11Display::open();
        EXPECT_TRUE(opened.ok());
        if (!opened.ok())
            return out;
        out.display = std::move(opened).value();
        auto* c = out.display->connection();
        out.window = xcb_generate_id(c);
        const std::uint32_t values[] = {out.display->screen().white_pixel,
            XCB_EVENT_MASK_KEY_PRESS | XCB_EVENT_MASK_KEY_RELEASE | XCB_EVENT_MASK_BUTTON_PRESS
                | XCB_EVENT_MASK_BUTTON_RELEASE | XCB_EVENT_MASK_STRUCTURE_NOTIFY};
        xcb_create_window(c, XCB_COPY_FROM_PARENT, out.window, out.display->root(), 100, 100, w, h, 0,
            XCB_WINDOW_CLASS_INPUT_OUTPUT, out.display->screen().root_visual, XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK, values);
        xcb_map_window(c, out.window);
        xcb_flush(c);
        out.wait_for(XCB_MAP_NOTIFY, std::chrono::seconds(5));
        return out;
    }

    ~TestWindow()
    {
        if (display && window) {
            xcb_destroy_window(display->connection(), window);
            xcb_flush(display->connection());
        }
    }
    TestWindow() = default;
    TestWindow(TestWindow&&) = default;

    // Reads every event that has arrived into `events`.
    void drain()
    {
        while (auto* e = xcb_poll_for_event(display->connection()))
            events.emplace_back(e);
    }

    // The first collected event of `type` (taking it out of `events`), waiting up to `timeout`.
    std::unique_ptr<xcb_generic_event_t, nd_linux::FreeDeleter> wait_for(std::uint8_t type, std::chrono::milliseconds timeout)
    {
        const auto end = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            drain();
            for (auto it = events.begin(); it != events.end(); ++it)
                if (((*it)->response_type & 0x7f) == type) {
                    auto out = std::move(*it);
                    events.erase(it);
                    return out;
                }
            if (std::chrono::steady_clock::now() >= end)
                return nullptr;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    }

    // The window's top-left corner in root coordinates.
    nd_linux::Deadline soon() const { return nd_linux::deadline_after(std::chrono::seconds(2)); }
    std::pair<int, int> origin()
    {
        auto* c = display->connection();
        auto reply = display->wait<xcb_translate_coordinates_reply_t>(
            xcb_translate_coordinates(c, window, display->root(), 0, 0), soon());
        if (!reply.ok() || !reply.value())
            return {-1, -1};
        return {reply.value()->dst_x, reply.value()->dst_y};
    }

    xcb_window_t focus()
    {
        auto reply = display->wait<xcb_get_input_focus_reply_t>(xcb_get_input_focus(display->connection()), soon());
        return reply.ok() && reply.value() ? reply.value()->focus : 0;
    }
};

} // namespace nd_test

#pragma once

// "The person" on the test desktop: a second master device (xinput create-master) whose XTEST
// slaves a test drives. Its input comes from a source device other than the core XTEST ones the
// driver uses, as a physical keyboard or mouse would (DESIGN.md), so the watcher counts it.
//
// The approval surfaces (consent dialog, Continue) accept no XTEST device at all, so a test that
// must answer one as the person marks the person's XTEST pointer with NISH_TEST_PERSON_DEVICE, which
// only test executables read (src/backend/linux/person_mark/person_mark.h). PersonPointer does that.

#include "linux/x11_test_support.h"

#include "backend/linux/x11/x11_devices.h"
#include "backend/linux/x11/x11_display.h"

#include <xcb/xinput.h>
#include <xcb/xtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>

namespace nd_test {

struct PersonDevices {
    std::uint16_t keyboard = 0, pointer = 0; // the XTEST slaves of the "person" master
    std::uint16_t master_pointer = 0;        // the "person pointer" master itself
};

inline constexpr const char* PERSON_POINTER_NAME = "person XTEST pointer";

inline PersonDevices find_person(nd_linux::X11Display& display)
{
    PersonDevices out;
    auto devices = nd_linux::list_input_devices(display, nd_linux::deadline_after(std::chrono::seconds(2)));
    if (!devices)
        return out;
    for (const auto& d : *devices) {
        if (d.name == "person XTEST keyboard")
            out.keyboard = d.id;
        if (d.name == PERSON_POINTER_NAME)
            out.pointer = d.id;
        if (d.name == "person pointer")
            out.master_pointer = d.id;
    }
    return out;
}

// A second master device for the test's length, removed (with its slaves) at the end.
struct PersonMaster {
    PersonMaster() { created = nd_test::run_command({"xinput", "create-master", "person"}) == 0; }
    ~PersonMaster()
    {
        if (created)
            nd_test::run_command({"xinput", "remove-master", "person pointer"});
    }
    bool created = false;
};

// Sends one press and release from a device through XTEST, the XInput 1 way: an extension event
// type (DeviceKeyPress / DeviceButtonPress) names the device in the request's deviceid.
inline void person_press(nd_linux::X11Display& display, std::uint16_t device, bool key, std::uint8_t detail)
{
    const auto* xi = xcb_get_extension_data(display.connection(), &xcb_input_id);
    const std::uint8_t press = xi->first_event + (key ? 1 : 3), release = xi->first_event + (key ? 2 : 4);
    auto* c = display.connection();
    xcb_test_fake_input(c, press, detail, XCB_CURRENT_TIME, display.root(), 0, 0, static_cast<std::uint8_t>(device));
    xcb_test_fake_input(c, release, detail, XCB_CURRENT_TIME, display.root(), 0, 0, static_cast<std::uint8_t>(device));
    xcb_flush(c);
}

// The id of the device named `name`; 0 when there is none.
inline std::uint16_t device_id(nd_linux::X11Display& display, std::string_view name)
{
    auto devices = nd_linux::list_input_devices(display, nd_linux::deadline_after(std::chrono::seconds(2)));
    if (devices)
        for (const auto& d : *devices)
            if (d.name == name)
                return d.id;
    return 0;
}

// Waits until the server has handled everything sent so far on `display`.
inline void sync(nd_linux::X11Display& display)
{
    (void)display.wait<xcb_get_input_focus_reply_t>(xcb_get_input_focus(display.connection()),
                                                    nd_linux::deadline_after(std::chrono::seconds(2)));
}

// A left click at a root point from `device` through XTEST, the XInput 1 way, after putting the
// pointer of `master` there (XIWarpPointer). With the person's devices this is the test's stand-in
// for the person's hand; with a physical slave's id ("Xvfb mouse") it is what an attacker can send
// in a real mouse's name, which the device rule alone cannot tell apart.
inline void click_from(nd_linux::X11Display& display, std::uint16_t master, std::uint16_t device, int x, int y)
{
    auto* c = display.connection();
    xcb_input_xi_warp_pointer(c, XCB_WINDOW_NONE, display.root(), 0, 0, 0, 0, static_cast<xcb_input_fp1616_t>(x) << 16,
                              static_cast<xcb_input_fp1616_t>(y) << 16, master);
    sync(display);
    // Pressed and released as a hand does, with time between: the window manager's passive grab on a
    // client window freezes the device until the manager replays the press, and a release sent at
    // once would be handled after the next warp.
    const auto* xi = xcb_get_extension_data(c, &xcb_input_id);
    for (const std::uint8_t type : {static_cast<std::uint8_t>(xi->first_event + 3), static_cast<std::uint8_t>(xi->first_event + 4)}) {
        xcb_test_fake_input(c, type, 1, XCB_CURRENT_TIME, display.root(), 0, 0, static_cast<std::uint8_t>(device));
        sync(display);
        std::this_thread::sleep_for(std::chrono::milliseconds(80));
    }
}

// The person's pointer for one test: a "person" master, its XTEST pointer marked as the person's
// device for this test executable.
struct PersonPointer {
    explicit PersonPointer(nd_linux::X11Display& d) : display(d)
    {
        ::setenv("NISH_TEST_PERSON_DEVICE", PERSON_POINTER_NAME, 1);
        if (master.created)
            ids = find_person(display);
    }
    ~PersonPointer() { ::unsetenv("NISH_TEST_PERSON_DEVICE"); }
    bool ready() const { return ids.pointer != 0 && ids.master_pointer != 0; }
    void click(int x, int y) { click_from(display, ids.master_pointer, ids.pointer, x, y); }

    nd_linux::X11Display& display;
    PersonMaster master;
    PersonDevices ids;
};

} // namespace nd_test

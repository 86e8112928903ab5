#pragma once

// "The person" on the test desktop: a second master device (xinput create-master) whose XTEST
// slaves a test drives. Its input comes from a source device other than the core XTEST ones the
// driver uses, as a physical keyboard or mouse would (DESIGN.md), so the watcher counts it.

#include "linux/x11_test_support.h"

#include "backend/linux/x11/x11_display.h"

#include <xcb/xinput.h>
#include <xcb/xtest.h>

#include <chrono>
#include <string>

namespace nd_test {

struct PersonDevices {
    std::uint16_t keyboard = 0, pointer = 0; // the XTEST slaves of the "person" master
};

inline PersonDevices find_person(nd_linux::X11Display& display)
{
    PersonDevices out;
    auto reply = display.wait<xcb_input_xi_query_device_reply_t>(
        xcb_input_xi_query_device(display.connection(), XCB_INPUT_DEVICE_ALL), nd_linux::deadline_after(std::chrono::seconds(2)));
    if (!reply.ok() || !reply.value())
        return out;
    for (auto it = xcb_input_xi_query_device_infos_iterator(reply.value().value.get()); it.rem; xcb_input_xi_device_info_next(&it)) {
        std::string name(xcb_input_xi_device_info_name(it.data), static_cast<std::size_t>(xcb_input_xi_device_info_name_length(it.data)));
        if (name == "person XTEST keyboard")
            out.keyboard = it.data->deviceid;
        if (name == "person XTEST pointer")
            out.pointer = it.data->deviceid;
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

} // namespace nd_test

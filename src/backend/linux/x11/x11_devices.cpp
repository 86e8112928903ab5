#include "backend/linux/x11/x11_devices.h"

#include "backend/linux/x11/x11_reply.h"

#include <xcb/xinput.h>

#include <string_view>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<std::vector<InputDevice>> list_input_devices(X11Display& display, Deadline deadline)
{
    auto* c = display.connection();
    TRY_VOID(display.intern_atoms({"XTEST Device"}));
    const xcb_atom_t xtest_property = display.atom("XTEST Device");
    auto listed = TRY(display.wait<xcb_input_xi_query_device_reply_t>(
        xcb_input_xi_query_device(c, XCB_INPUT_DEVICE_ALL), deadline));
    if (!listed)
        return make_error(ErrorCode::backend_unavailable, "the X server refused to list its input devices");
    std::vector<InputDevice> out;
    for (auto it = xcb_input_xi_query_device_infos_iterator(listed.value.get()); it.rem; xcb_input_xi_device_info_next(&it)) {
        const auto* info = it.data;
        InputDevice d;
        d.id = info->deviceid;
        d.name.assign(xcb_input_xi_device_info_name(info), static_cast<std::size_t>(xcb_input_xi_device_info_name_length(info)));
        d.master = info->type == XCB_INPUT_DEVICE_TYPE_MASTER_POINTER || info->type == XCB_INPUT_DEVICE_TYPE_MASTER_KEYBOARD;
        out.push_back(std::move(d));
    }
    if (xtest_property == XCB_ATOM_NONE) // no device can carry a property the server never named
        return out;
    ReplyBatch batch(display, deadline);
    std::vector<xcb_input_xi_get_property_cookie_t> asked;
    for (const auto& d : out)
        asked.push_back(batch.add(xcb_input_xi_get_property(c, d.id, 0, xtest_property, XCB_GET_PROPERTY_TYPE_ANY, 0, 1)));
    for (std::size_t i = 0; i < out.size(); ++i) {
        auto reply = TRY(batch.take<xcb_input_xi_get_property_reply_t>(asked[i]));
        // A device that went away in between (BadDevice) is simply not XTEST; it sends nothing more.
        if (!reply || reply->type == XCB_ATOM_NONE || reply->num_items < 1)
            continue;
        const auto* items = static_cast<const std::uint8_t*>(xcb_input_xi_get_property_items(reply.value.get()));
        // The server sets it as an 8-bit INTEGER 1; any non-zero first item of any format counts.
        std::uint32_t value = 0;
        if (reply->format == 8)
            value = items[0];
        else if (reply->format == 16)
            value = *reinterpret_cast<const std::uint16_t*>(items);
        else if (reply->format == 32)
            value = *reinterpret_cast<const std::uint32_t*>(items);
        out[i].xtest = value != 0;
    }
    return out;
}

bool is_person_source(const std::vector<InputDevice>& devices, std::uint16_t source, const std::string& marked)
{
    for (const auto& d : devices) {
        if (d.id != source)
            continue;
        if (!marked.empty() && d.name == marked)
            return true;
        return !d.master && !d.xtest;
    }
    return false; // a device the server does not list (gone, or never there) is nobody's
}

} // namespace nd_linux

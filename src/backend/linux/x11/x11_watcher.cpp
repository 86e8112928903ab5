#include "backend/linux/x11/x11_watcher.h"

#include <xcb/xinput.h>

#include <poll.h>

#include <string_view>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;
using nd_core::PersonInput;
using nd_core::Result;

namespace {

// The XTEST slaves of the core masters: where the driver's own XTEST input comes from (the server
// creates one pair per master, named after it).
constexpr std::string_view DRIVER_DEVICES[] = {"Virtual core XTEST pointer", "Virtual core XTEST keyboard"};

bool is_driver_device(std::string_view name)
{
    for (auto d : DRIVER_DEVICES)
        if (name == d)
            return true;
    return false;
}

// An XI2 event mask for one device (or XIAll*Devices): the request body is a list of these.
struct OneMask {
    xcb_input_event_mask_t head;
    std::uint32_t bits;
};

} // namespace

Result<std::unique_ptr<X11InputWatcher>> X11InputWatcher::open(const std::string& display_name)
{
    std::unique_ptr<X11InputWatcher> out(new X11InputWatcher());
    out->m_display = TRY(X11Display::open(display_name));
    if (!out->m_display->extensions().xinput2_1)
        return make_error(ErrorCode::backend_unavailable, "the X server lacks XInput 2.1, so the person's input cannot be watched");
    const auto* xi = xcb_get_extension_data(out->m_display->connection(), &xcb_input_id);
    if (!xi || !xi->present)
        return make_error(ErrorCode::backend_unavailable, "the X server lacks XInput");
    out->m_xi_opcode = xi->major_opcode;
    auto deadline = deadline_after(X11_BATCH_TIMEOUT);
    TRY_VOID(out->learn_devices(deadline));
    if (out->ignored_devices().empty())
        return make_error(ErrorCode::backend_unavailable, "the X server has no core XTEST devices, so the driver's own input cannot be told apart");
    TRY_VOID(out->select_events(deadline));
    out->m_thread = std::thread([w = out.get()] { w->run(); });
    return out;
}

X11InputWatcher::~X11InputWatcher()
{
    m_stop.store(true);
    if (m_thread.joinable())
        m_thread.join();
}

Result<void> X11InputWatcher::learn_devices(Deadline deadline)
{
    auto reply = TRY(m_display->wait<xcb_input_xi_query_device_reply_t>(
        xcb_input_xi_query_device(m_display->connection(), XCB_INPUT_DEVICE_ALL), deadline));
    if (!reply)
        return make_error(ErrorCode::backend_unavailable, "the X server refused to list its input devices");
    std::set<std::uint16_t> ignored;
    for (auto it = xcb_input_xi_query_device_infos_iterator(reply.value.get()); it.rem; xcb_input_xi_device_info_next(&it)) {
        const auto* info = it.data;
        std::string_view name(xcb_input_xi_device_info_name(info), static_cast<std::size_t>(xcb_input_xi_device_info_name_length(info)));
        const bool slave = info->type == XCB_INPUT_DEVICE_TYPE_SLAVE_POINTER || info->type == XCB_INPUT_DEVICE_TYPE_SLAVE_KEYBOARD;
        if (slave && is_driver_device(name))
            ignored.insert(info->deviceid);
    }
    std::lock_guard lock(m_mutex);
    m_ignored = std::move(ignored);
    return {};
}

Result<void> X11InputWatcher::select_events(Deadline deadline)
{
    // Raw events for every master (XI 2.1 delivers them to the root whatever grabs are active), and
    // hierarchy changes for every device so the XTEST ids are learnt again when devices come and go.
    OneMask masks[2]{};
    masks[0].head.deviceid = XCB_INPUT_DEVICE_ALL_MASTER;
    masks[0].head.mask_len = 1;
    masks[0].bits = XCB_INPUT_XI_EVENT_MASK_RAW_KEY_PRESS | XCB_INPUT_XI_EVENT_MASK_RAW_BUTTON_PRESS
        | XCB_INPUT_XI_EVENT_MASK_RAW_MOTION;
    masks[1].head.deviceid = XCB_INPUT_DEVICE_ALL;
    masks[1].head.mask_len = 1;
    masks[1].bits = XCB_INPUT_XI_EVENT_MASK_HIERARCHY;
    auto cookie = xcb_input_xi_select_events_checked(m_display->connection(), m_display->root(), 2, &masks[0].head);
    const std::uint8_t error = TRY(m_display->check(cookie, deadline));
    if (error)
        return make_error(ErrorCode::backend_unavailable, "the X server refused the XInput 2 event selection (X error " + std::to_string(error) + ")");
    return {};
}

void X11InputWatcher::run()
{
    xcb_connection_t* c = m_display->connection();
    const int fd = xcb_get_file_descriptor(c);
    while (!m_stop.load()) {
        // Drain what xcb has (it may have read events while waiting for a reply), then sleep on the
        // socket for at most one tick.
        while (auto* event = xcb_poll_for_event(c)) {
            handle(event);
            std::free(event);
        }
        if (m_display->broken()) {
            m_healthy.store(false);
            return;
        }
        pollfd p{fd, POLLIN, 0};
        ::poll(&p, 1, static_cast<int>(TICK.count()));
    }
}

void X11InputWatcher::handle(const xcb_generic_event_t* event)
{
    if ((event->response_type & 0x7f) != XCB_GE_GENERIC)
        return;
    const auto* ge = reinterpret_cast<const xcb_ge_generic_event_t*>(event);
    if (ge->extension != m_xi_opcode)
        return;
    if (ge->event_type == XCB_INPUT_HIERARCHY) {
        // Bounded like every other wait; on failure the old ids stay, which errs towards the driver
        // seeing its own input (never towards missing the person's, whose devices are not listed).
        if (!learn_devices(deadline_after(X11_BATCH_TIMEOUT)).ok() && m_display->broken())
            m_healthy.store(false);
        return;
    }
    if (ge->event_type != XCB_INPUT_RAW_KEY_PRESS && ge->event_type != XCB_INPUT_RAW_BUTTON_PRESS
        && ge->event_type != XCB_INPUT_RAW_MOTION)
        return;
    // Raw key, button and motion events share this layout up to sourceid.
    const auto* raw = reinterpret_cast<const xcb_input_raw_key_press_event_t*>(event);
    std::lock_guard lock(m_mutex);
    if (m_ignored.contains(raw->sourceid)) {
        m_driver_events.fetch_add(1);
        return;
    }
    if (ge->event_type == XCB_INPUT_RAW_MOTION) {
        m_person_motions.fetch_add(1);
        return;
    }
    if (!m_seen)
        m_seen = ge->event_type == XCB_INPUT_RAW_KEY_PRESS ? PersonInput::key_pressed : PersonInput::button_pressed;
}

void X11InputWatcher::reset()
{
    std::lock_guard lock(m_mutex);
    m_seen.reset();
    m_driver_events.store(0);
    m_person_motions.store(0);
}

std::optional<PersonInput> X11InputWatcher::poll()
{
    std::lock_guard lock(m_mutex);
    return m_seen;
}

std::set<std::uint16_t> X11InputWatcher::ignored_devices() const
{
    std::lock_guard lock(m_mutex);
    return m_ignored;
}

} // namespace nd_linux

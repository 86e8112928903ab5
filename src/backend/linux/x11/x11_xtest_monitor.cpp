#include "backend/linux/x11/x11_xtest_monitor.h"

#include <xcb/record.h>
#include <xcb/xcbext.h>
#include <xcb/xinput.h>
#include <xcb/xtest.h>

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

constexpr std::uint8_t XTEST_FAKE_INPUT = 2; // the FakeInput request's minor opcode
constexpr std::uint8_t RECORD_FROM_CLIENT = 1;
constexpr std::size_t FAKE_INPUT_SIZE = 36; // the request without extra valuator events
constexpr int THREAD_WAKE_MS = 50;

std::uint16_t swap16(std::uint16_t v) { return static_cast<std::uint16_t>((v >> 8) | (v << 8)); }

} // namespace

nd_core::Result<std::unique_ptr<X11XtestMonitor>> X11XtestMonitor::open(const std::string& display_name)
{
    std::unique_ptr<X11XtestMonitor> out(new X11XtestMonitor());
    out->m_control = TRY(X11Display::open(display_name));
    if (!out->m_control->extensions().record)
        return make_error(ErrorCode::backend_unavailable, "the X server has no RECORD extension, so synthetic clicks cannot be told apart");
    auto* c = out->m_control->connection();
    const auto* xtest = xcb_get_extension_data(c, &xcb_test_id);
    if (!xtest || !xtest->present)
        return make_error(ErrorCode::backend_unavailable, "the X server has no XTEST extension to watch");
    if (const auto* xi = xcb_get_extension_data(c, &xcb_input_id); xi && xi->present)
        out->m_xi_first_event = xi->first_event;
    const auto deadline = deadline_after(X11_BATCH_TIMEOUT);
    auto version = TRY(out->m_control->wait<xcb_record_query_version_reply_t>(xcb_record_query_version(c, 1, 13), deadline));
    if (!version)
        return make_error(ErrorCode::backend_unavailable, "the X server refused the RECORD version query");

    // Every client's XTEST FakeInput requests, nothing else.
    out->m_context = xcb_generate_id(c);
    xcb_record_range_t range{};
    range.ext_requests.major.first = range.ext_requests.major.last = xtest->major_opcode;
    range.ext_requests.minor.first = range.ext_requests.minor.last = XTEST_FAKE_INPUT;
    const xcb_record_client_spec_t all = XCB_RECORD_CS_ALL_CLIENTS;
    auto created = xcb_record_create_context_checked(c, out->m_context, 0, 1, 1, &all, &range);
    if (TRY(out->m_control->check(created, deadline)) != 0)
        return make_error(ErrorCode::backend_unavailable, "the X server refused a RECORD context");

    out->m_data = TRY(X11Display::open(display_name));
    out->m_enable_sequence = xcb_record_enable_context(out->m_data->connection(), out->m_context).sequence;
    xcb_flush(out->m_data->connection());
    out->m_wake_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    out->m_since = Clock::now();
    out->m_thread = std::thread([m = out.get()] { m->run(); });
    return out;
}

X11XtestMonitor::~X11XtestMonitor()
{
    m_stop.store(true);
    kick();
    if (m_thread.joinable())
        m_thread.join();
    if (m_control && m_context && !m_control->broken()) {
        // Ends the data connection's stream and frees the context; bounded like every wait.
        auto* c = m_control->connection();
        xcb_record_disable_context(c, m_context);
        (void)m_control->check(xcb_record_free_context_checked(c, m_context), deadline_after(std::chrono::milliseconds(200)));
    }
    if (m_wake_fd >= 0)
        ::close(m_wake_fd);
}

void X11XtestMonitor::kick()
{
    if (m_wake_fd < 0)
        return;
    const std::uint64_t one = 1;
    [[maybe_unused]] auto written = ::write(m_wake_fd, &one, sizeof one);
}

nd_core::Result<void> X11XtestMonitor::settle(Deadline deadline)
{
    std::unique_lock lock(m_mutex);
    const std::uint64_t ticket = ++m_asked;
    lock.unlock();
    kick();
    lock.lock();
    if (!m_served_changed.wait_until(lock, deadline, [&] { return m_served >= ticket || !m_healthy.load(); }))
        return make_error(ErrorCode::timed_out, "the watch of synthetic input did not catch up in time");
    if (!m_healthy.load())
        return make_error(ErrorCode::backend_unavailable, "the watch of synthetic input lost its X connection");
    return {};
}

std::vector<X11XtestMonitor::Press> X11XtestMonitor::presses_since(Clock::time_point from) const
{
    std::lock_guard lock(m_mutex);
    std::vector<Press> out;
    for (const auto& p : m_presses)
        if (p.at >= from)
            out.push_back(p);
    return out;
}

void X11XtestMonitor::run()
{
    xcb_connection_t* c = m_data->connection();
    const int fd = xcb_get_file_descriptor(c);
    while (!m_stop.load()) {
        std::uint64_t serving = 0;
        {
            std::lock_guard lock(m_mutex);
            serving = m_asked;
        }
        // Reads what the socket holds: xcb_poll_for_reply reads without blocking when nothing is queued.
        void* reply = nullptr;
        xcb_generic_error_t* error = nullptr;
        while (xcb_poll_for_reply(c, m_enable_sequence, &reply, &error) && (reply || error)) {
            if (reply) {
                XcbPtr<xcb_record_enable_context_reply_t> r(static_cast<xcb_record_enable_context_reply_t*>(reply));
                if (r->category == RECORD_FROM_CLIENT)
                    take(xcb_record_enable_context_data(r.get()),
                         static_cast<std::size_t>(xcb_record_enable_context_data_length(r.get())), r->client_swapped != 0);
            }
            std::free(error);
            reply = nullptr;
            error = nullptr;
        }
        if (xcb_connection_has_error(c))
            m_healthy.store(false);
        {
            std::lock_guard lock(m_mutex);
            m_served = serving;
        }
        m_served_changed.notify_all();
        if (!m_healthy.load())
            return;
        pollfd fds[2] = {{m_wake_fd, POLLIN, 0}, {fd, POLLIN, 0}};
        ::poll(fds, 2, THREAD_WAKE_MS);
        if (fds[0].revents & POLLIN) {
            std::uint64_t count = 0;
            [[maybe_unused]] auto read = ::read(m_wake_fd, &count, sizeof count);
        }
    }
}

// One record packet may hold several requests back to back, each with its own length in 4-byte
// units; a FakeInput request is at least 36 bytes: type at 4, detail at 5, deviceid at 35.
void X11XtestMonitor::take(const std::uint8_t* data, std::size_t length, bool swapped)
{
    const auto now = Clock::now();
    std::size_t at = 0;
    while (at + 4 <= length) {
        std::uint16_t units = static_cast<std::uint16_t>(data[at + 2] | (data[at + 3] << 8));
        if (swapped)
            units = swap16(units);
        std::size_t size = static_cast<std::size_t>(units) * 4;
        if (size == 0 || at + size > length)
            size = length - at; // a BIG-REQUESTS length or a cut record: take the rest as one
        if (size >= FAKE_INPUT_SIZE && data[at + 1] == XTEST_FAKE_INPUT) {
            m_recorded.fetch_add(1);
            const std::uint8_t type = data[at + 4] & 0x7F;
            const bool core_button = type == XCB_BUTTON_PRESS, core_key = type == XCB_KEY_PRESS;
            const bool device_button = m_xi_first_event && type == m_xi_first_event + 3; // DeviceButtonPress
            const bool device_key = m_xi_first_event && type == m_xi_first_event + 1;    // DeviceKeyPress
            if (core_button || core_key || device_button || device_key) {
                Press p{now, core_button || device_button,
                        static_cast<std::uint16_t>((device_button || device_key) ? (data[at + 35] & 0x7F) : 0)};
                std::lock_guard lock(m_mutex);
                m_presses.push_back(p);
                while (m_presses.size() > KEEP)
                    m_presses.pop_front();
            }
        }
        at += size;
    }
}

} // namespace nd_linux

#include "backend/linux/x11/x11_display.h"

#include "backend/linux/x11/x11_reply.h"

#include <xcb/composite.h>
#include <xcb/record.h>
#include <xcb/res.h>
#include <xcb/shape.h>
#include <xcb/shm.h>
#include <xcb/xinput.h>
#include <xcb/xcbext.h>
#include <xcb/xtest.h>

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

// The display name as it may appear in a message: bounded, printable ASCII only.
std::string printable(std::string_view name)
{
    std::string out;
    for (char c : name.substr(0, 64))
        out += (c >= 0x20 && c < 0x7f) ? c : '?';
    return out;
}

std::string connection_problem(int code)
{
    switch (code) {
    case XCB_CONN_ERROR:
        return "no X server answers there (socket, stream or pipe error)";
    case XCB_CONN_CLOSED_EXT_NOTSUPPORTED:
        return "the server lacks an extension xcb needs";
    case XCB_CONN_CLOSED_MEM_INSUFFICIENT:
        return "out of memory";
    case XCB_CONN_CLOSED_REQ_LEN_EXCEED:
        return "a request was longer than the server accepts";
    case XCB_CONN_CLOSED_PARSE_ERR:
        return "the display name cannot be parsed";
    case XCB_CONN_CLOSED_INVALID_SCREEN:
        return "the display has no such screen";
    default:
        return "connection error " + std::to_string(code);
    }
}

// xcb_connect blocks until the server sends its setup; a server that accepted the socket and then
// hangs would block forever. The connect runs on a detached thread; if it is too slow the attempt is
// abandoned and the thread closes whatever it gets.
struct ConnectAttempt {
    std::mutex mutex;
    std::condition_variable done_cv;
    bool done = false;
    bool abandoned = false;
    xcb_connection_t* connection = nullptr;
    int screen = 0;
};

xcb_connection_t* connect_with_deadline(const std::string& name, Deadline deadline, int& screen)
{
    auto attempt = std::make_shared<ConnectAttempt>();
    std::thread([attempt, name] {
        int s = 0;
        xcb_connection_t* c = xcb_connect(name.c_str(), &s);
        std::lock_guard lock(attempt->mutex);
        if (attempt->abandoned) {
            xcb_disconnect(c);
            return;
        }
        attempt->connection = c;
        attempt->screen = s;
        attempt->done = true;
        attempt->done_cv.notify_one();
    }).detach();

    std::unique_lock lock(attempt->mutex);
    if (!attempt->done_cv.wait_until(lock, deadline, [&] { return attempt->done; })) {
        attempt->abandoned = true;
        return nullptr;
    }
    screen = attempt->screen;
    return attempt->connection;
}

bool socket_is_unix(int fd)
{
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
        return false;
    return addr.ss_family == AF_UNIX;
}

bool at_least(unsigned major, unsigned minor, unsigned want_major, unsigned want_minor)
{
    return major > want_major || (major == want_major && minor >= want_minor);
}

} // namespace

X11Display::X11Display(xcb_connection_t* connection, const xcb_screen_t* screen, std::string name)
    : m_connection(connection)
    , m_screen(screen)
    , m_name(std::move(name))
    , m_local(socket_is_unix(xcb_get_file_descriptor(connection)))
{
}

X11Display::~X11Display() { xcb_disconnect(m_connection); }

nd_core::Result<std::unique_ptr<X11Display>> X11Display::open(const std::string& name, std::chrono::milliseconds timeout)
{
    std::string display = name;
    if (display.empty()) {
        const char* env = std::getenv("DISPLAY");
        display = env ? env : "";
    }
    if (display.empty())
        return make_error(ErrorCode::backend_unavailable, "DISPLAY is not set, so there is no X display to use");

    auto deadline = deadline_after(timeout);
    int screen_number = 0;
    xcb_connection_t* c = connect_with_deadline(display, deadline, screen_number);
    if (!c)
        return make_error(ErrorCode::backend_unavailable,
            "X display " + printable(display) + " did not finish connecting within " + std::to_string(timeout.count()) + " ms");
    if (int code = xcb_connection_has_error(c)) {
        xcb_disconnect(c);
        return make_error(ErrorCode::backend_unavailable,
            "cannot connect to X display " + printable(display) + ": " + connection_problem(code));
    }

    const xcb_screen_t* screen = nullptr;
    auto it = xcb_setup_roots_iterator(xcb_get_setup(c));
    for (int i = 0; it.rem; ++i, xcb_screen_next(&it))
        if (i == screen_number)
            screen = it.data;
    if (!screen) {
        xcb_disconnect(c);
        return make_error(ErrorCode::backend_unavailable, "X display " + printable(display) + " has no screen " + std::to_string(screen_number));
    }

    std::unique_ptr<X11Display> out(new X11Display(c, screen, display));
    auto extensions = out->query_extensions(deadline);
    if (!extensions.ok())
        return make_error(ErrorCode::backend_unavailable, extensions.error().code == ErrorCode::timed_out
                ? "X display " + printable(display) + " accepted the connection but did not answer in time"
                : extensions.error().message);
    return out;
}

nd_core::Result<void> X11Display::query_extensions(Deadline deadline)
{
    xcb_extension_t* all[] = {&xcb_test_id, &xcb_input_id, &xcb_res_id, &xcb_composite_id, &xcb_shm_id, &xcb_shape_id,
        &xcb_record_id};
    for (auto* ext : all)
        xcb_prefetch_extension_data(m_connection, ext);
    // The server answers in order: once this reply is here, so are the prefetched QueryExtension
    // replies, and xcb_get_extension_data below no longer blocks.
    ReplyBatch sync(*this, deadline);
    TRY(sync.take<xcb_get_input_focus_reply_t>(sync.add(xcb_get_input_focus(m_connection))));

    auto present = [&](xcb_extension_t* ext) {
        const auto* data = xcb_get_extension_data(m_connection, ext);
        return data && data->present;
    };
    bool has_test = present(&xcb_test_id), has_input = present(&xcb_input_id), has_res = present(&xcb_res_id),
         has_composite = present(&xcb_composite_id), has_shm = present(&xcb_shm_id), has_shape = present(&xcb_shape_id);

    // Versions, all in one round trip. XInput must be told the version this client speaks before any
    // XI2 request; 2.2 is the newest the driver needs (touch is not used, raw events are 2.0/2.1).
    ReplyBatch batch(*this, deadline);
    xcb_test_get_version_cookie_t test{};
    xcb_input_xi_query_version_cookie_t input{};
    xcb_res_query_version_cookie_t res{};
    xcb_composite_query_version_cookie_t composite{};
    xcb_shm_query_version_cookie_t shm{};
    xcb_shape_query_version_cookie_t shape{};
    if (has_test)
        test = batch.add(xcb_test_get_version(m_connection, 2, 2));
    if (has_input)
        input = batch.add(xcb_input_xi_query_version(m_connection, 2, 2));
    if (has_res)
        res = batch.add(xcb_res_query_version(m_connection, 1, 2));
    if (has_composite)
        composite = batch.add(xcb_composite_query_version(m_connection, 0, 4));
    if (has_shm)
        shm = batch.add(xcb_shm_query_version(m_connection));
    if (has_shape)
        shape = batch.add(xcb_shape_query_version(m_connection));

    if (has_test)
        m_extensions.xtest = static_cast<bool>(TRY(batch.take<xcb_test_get_version_reply_t>(test)));
    if (has_input) {
        auto r = TRY(batch.take<xcb_input_xi_query_version_reply_t>(input));
        m_extensions.xinput2_1 = r && at_least(r->major_version, r->minor_version, 2, 1);
    }
    if (has_res) {
        auto r = TRY(batch.take<xcb_res_query_version_reply_t>(res));
        m_extensions.xres = r && at_least(r->server_major, r->server_minor, 1, 2);
    }
    if (has_composite) {
        auto r = TRY(batch.take<xcb_composite_query_version_reply_t>(composite));
        m_extensions.composite = r && at_least(r->major_version, r->minor_version, 0, 2);
    }
    if (has_shm)
        m_extensions.shm = static_cast<bool>(TRY(batch.take<xcb_shm_query_version_reply_t>(shm)));
    if (has_shape)
        m_extensions.shape = static_cast<bool>(TRY(batch.take<xcb_shape_query_version_reply_t>(shape)));
    // RECORD is only looked for: X11XtestMonitor negotiates its version on connections of its own.
    m_extensions.record = present(&xcb_record_id);
    return {};
}

xcb_atom_t X11Display::atom(std::string_view name)
{
    auto it = m_atoms.find(std::string(name));
    if (it != m_atoms.end())
        return it->second;
    (void)intern_atoms({name});
    it = m_atoms.find(std::string(name));
    return it == m_atoms.end() ? xcb_atom_t{XCB_ATOM_NONE} : it->second;
}

nd_core::Result<void> X11Display::intern_atoms(std::initializer_list<std::string_view> names)
{
    ReplyBatch batch(*this, deadline_after(X11_BATCH_TIMEOUT));
    std::vector<std::pair<std::string_view, xcb_intern_atom_cookie_t>> sent;
    for (auto name : names)
        if (!m_atoms.contains(std::string(name)))
            sent.emplace_back(name, batch.add(xcb_intern_atom(m_connection, 0, static_cast<std::uint16_t>(name.size()), name.data())));
    for (auto& [name, cookie] : sent) {
        // Only answers are cached: a timeout leaves the name to be asked again next time.
        auto reply = TRY(batch.take<xcb_intern_atom_reply_t>(cookie));
        if (reply)
            m_atoms.emplace(std::string(name), reply->atom);
    }
    return {};
}

nd_core::Result<X11Display::RawReply> X11Display::wait_raw(unsigned int sequence, Deadline deadline)
{
    if (sequence == 0)
        return make_error(ErrorCode::backend_unavailable, "a request to X display " + printable(m_name) + " could not be sent");
    xcb_flush(m_connection);
    const int fd = xcb_get_file_descriptor(m_connection);
    for (;;) {
        if (broken())
            return dead_error();
        RawReply out;
        if (xcb_poll_for_reply(m_connection, sequence, &out.reply, &out.error)) {
            if (broken()) {
                std::free(out.reply);
                std::free(out.error);
                return dead_error();
            }
            return out;
        }
        auto now = Clock::now();
        if (now >= deadline) {
            discard(sequence);
            return timeout_error("a reply");
        }
        auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
        pollfd p{fd, POLLIN, 0};
        ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    }
}

nd_core::Result<std::uint8_t> X11Display::check(xcb_void_cookie_t cookie, Deadline deadline)
{
    // A later request's reply proves the server has handled the checked one; its error (if any) is
    // then waiting in xcb's reply map.
    TRY(wait<xcb_get_input_focus_reply_t>(xcb_get_input_focus(m_connection), deadline));
    void* reply = nullptr;
    xcb_generic_error_t* error = nullptr;
    if (!xcb_poll_for_reply(m_connection, cookie.sequence, &reply, &error))
        return std::uint8_t{0};
    std::free(reply);
    std::uint8_t code = error ? error->error_code : 0;
    std::free(error);
    if (broken())
        return dead_error();
    return code;
}

void X11Display::discard(unsigned int sequence)
{
    if (sequence)
        xcb_discard_reply(m_connection, sequence);
}

nd_core::Error X11Display::dead_error() const
{
    return make_error(ErrorCode::backend_unavailable,
        "the connection to X display " + printable(m_name) + " broke (xcb error " + std::to_string(xcb_connection_has_error(m_connection)) + ")");
}

nd_core::Error X11Display::timeout_error(std::string_view what) const
{
    return make_error(ErrorCode::timed_out, "X display " + printable(m_name) + " did not send " + std::string(what) + " in time");
}

} // namespace nd_linux

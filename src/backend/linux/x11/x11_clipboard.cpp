#include "backend/linux/x11/x11_clipboard.h"

#include "core/encode/utf8.h"

#include <poll.h>

#include <cstring>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

constexpr std::chrono::milliseconds CONVERT_TIMEOUT{1000};
// Larger answers would need an incremental (INCR) transfer, which this side does not offer either.
constexpr std::size_t MAX_SERVED_BYTES = 256 * 1024;

nd_core::Result<xcb_window_t> hidden_window(X11Display& d)
{
    xcb_connection_t* c = d.connection();
    xcb_window_t w = xcb_generate_id(c);
    const std::uint32_t mask[] = {XCB_EVENT_MASK_PROPERTY_CHANGE};
    auto cookie = xcb_create_window_checked(c, XCB_COPY_FROM_PARENT, w, d.root(), -1, -1, 1, 1, 0,
                                            XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT, XCB_CW_EVENT_MASK, mask);
    auto error = TRY(d.check(cookie, deadline_after(X11_BATCH_TIMEOUT)));
    if (error)
        return make_error(ErrorCode::backend_unavailable, "the clipboard's window could not be created");
    return w;
}

std::string latin1_to_utf8(std::string_view in)
{
    std::string out;
    out.reserve(in.size());
    for (unsigned char ch : in)
        nd_core::append_utf8(out, ch); // ISO 8859-1 maps one to one onto U+0000..U+00FF
    return out;
}

// Latin-1 bytes of UTF-8 text, or false when it has characters past U+00FF (or is not UTF-8).
bool utf8_to_latin1(std::string_view in, std::string& out)
{
    out.clear();
    for (std::size_t i = 0; i < in.size();) {
        char32_t cp = 0;
        const auto len = nd_core::utf8_sequence_length(in, i, &cp);
        if (len == 0 || cp > 0xFF)
            return false;
        out += static_cast<char>(cp);
        i += len;
    }
    return true;
}

} // namespace

nd_core::Result<std::unique_ptr<X11Clipboard>> X11Clipboard::open(const std::string& display_name)
{
    std::unique_ptr<X11Clipboard> c(new X11Clipboard);
    c->m_reader = TRY(X11Display::open(display_name));
    c->m_owner = TRY(X11Display::open(display_name));
    TRY_VOID(c->m_reader->intern_atoms({"CLIPBOARD", "UTF8_STRING", "TEXT", "TARGETS", "INCR", "NISH_CLIPBOARD"}));
    c->m_clipboard = c->m_reader->atom("CLIPBOARD");
    c->m_utf8 = c->m_reader->atom("UTF8_STRING");
    c->m_text_atom = c->m_reader->atom("TEXT");
    c->m_targets = c->m_reader->atom("TARGETS");
    c->m_incr = c->m_reader->atom("INCR");
    c->m_property = c->m_reader->atom("NISH_CLIPBOARD");
    if (!c->m_clipboard || !c->m_utf8 || !c->m_targets || !c->m_incr || !c->m_property)
        return make_error(ErrorCode::backend_unavailable, "the X server did not name the clipboard's atoms in time");
    c->m_reader_window = TRY(hidden_window(*c->m_reader));
    c->m_owner_window = TRY(hidden_window(*c->m_owner));
    return c;
}

X11Clipboard::~X11Clipboard() { release(); }

nd_core::Result<std::string> X11Clipboard::convert(xcb_atom_t target, bool& refused)
{
    refused = false;
    xcb_connection_t* c = m_reader->connection();
    xcb_delete_property(c, m_reader_window, m_property);
    xcb_convert_selection(c, m_reader_window, m_clipboard, target, m_property, XCB_CURRENT_TIME);
    xcb_flush(c);
    const Deadline deadline = deadline_after(CONVERT_TIMEOUT);
    const int fd = xcb_get_file_descriptor(c);
    for (;;) {
        if (m_reader->broken())
            return m_reader->dead_error();
        while (xcb_generic_event_t* event = xcb_poll_for_event(c)) {
            XcbPtr<xcb_generic_event_t> owned(event);
            if ((event->response_type & 0x7F) != XCB_SELECTION_NOTIFY)
                continue;
            auto* notify = reinterpret_cast<xcb_selection_notify_event_t*>(event);
            if (notify->requestor != m_reader_window || notify->selection != m_clipboard)
                continue;
            if (notify->property == XCB_ATOM_NONE) {
                refused = true; // the owner cannot give this target
                return std::string();
            }
            auto reply = TRY(m_reader->wait<xcb_get_property_reply_t>(
                xcb_get_property(c, 1, m_reader_window, m_property, XCB_GET_PROPERTY_TYPE_ANY, 0,
                                 static_cast<std::uint32_t>(MAX_BYTES / 4 + 1)),
                deadline_after(X11_BATCH_TIMEOUT)));
            if (!reply)
                return make_error(ErrorCode::action_failed, "the clipboard's answer could not be read");
            if (reply->type == m_incr)
                return make_error(ErrorCode::action_failed,
                                  "the clipboard holds more than one transfer (INCR); large clipboards are refused");
            const int length = xcb_get_property_value_length(reply.value.get());
            if (reply->bytes_after > 0 || length < 0 || static_cast<std::size_t>(length) > MAX_BYTES)
                return make_error(ErrorCode::action_failed,
                                  "the clipboard holds more than " + std::to_string(MAX_BYTES) + " bytes; refused");
            if (reply->format != 8 && length > 0)
                return make_error(ErrorCode::action_failed, "the clipboard's owner answered with non-text data");
            return std::string(static_cast<const char*>(xcb_get_property_value(reply.value.get())),
                               static_cast<std::size_t>(length));
        }
        auto now = Clock::now();
        if (now >= deadline)
            return make_error(ErrorCode::app_not_responding,
                              "the clipboard's owner did not answer within " + std::to_string(CONVERT_TIMEOUT.count()) +
                                  " ms");
        auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
        pollfd p{fd, POLLIN, 0};
        ::poll(&p, 1, static_cast<int>(left));
    }
}

nd_core::Result<std::string> X11Clipboard::read_text()
{
    if (m_owning.load()) {
        std::lock_guard lock(m_mutex);
        return m_text;
    }
    auto owner = TRY(m_reader->wait<xcb_get_selection_owner_reply_t>(
        xcb_get_selection_owner(m_reader->connection(), m_clipboard), deadline_after(X11_BATCH_TIMEOUT)));
    if (!owner || owner->owner == XCB_WINDOW_NONE)
        return std::string(); // nobody holds the clipboard: it is empty
    bool refused = false;
    auto utf8 = TRY(convert(m_utf8, refused));
    if (!refused)
        return utf8;
    auto latin1 = TRY(convert(XCB_ATOM_STRING, refused));
    if (!refused)
        return latin1_to_utf8(latin1);
    return make_error(ErrorCode::action_failed, "the clipboard holds no text (its owner offers neither UTF8_STRING nor STRING)");
}

nd_core::Result<void> X11Clipboard::write_text(std::string_view text)
{
    if (text.size() > MAX_SERVED_BYTES)
        return make_error(ErrorCode::invalid_arguments,
                          "text is " + std::to_string(text.size()) + " bytes; the clipboard takes at most " +
                              std::to_string(MAX_SERVED_BYTES));
    {
        std::lock_guard lock(m_mutex);
        m_text.assign(text);
    }
    m_owning = true; // before the request: the thread may be asked for it at once
    if (!m_thread.joinable()) {
        m_stop = false;
        m_thread = std::thread([this] { serve(); });
    }
    xcb_connection_t* c = m_owner->connection();
    auto set = xcb_set_selection_owner_checked(c, m_owner_window, m_clipboard, XCB_CURRENT_TIME);
    TRY(m_owner->check(set, deadline_after(X11_BATCH_TIMEOUT)));
    // The owner connection's round trip is done, so the server has handled the request: ask it.
    auto owner = TRY(m_reader->wait<xcb_get_selection_owner_reply_t>(
        xcb_get_selection_owner(m_reader->connection(), m_clipboard), deadline_after(X11_BATCH_TIMEOUT)));
    if (!owner || owner->owner != m_owner_window) {
        release();
        return make_error(ErrorCode::action_failed, "the X server did not give the driver the clipboard");
    }
    return {};
}

void X11Clipboard::answer(const xcb_selection_request_event_t& request)
{
    xcb_connection_t* c = m_owner->connection();
    // ICCCM: an obsolete requestor names no property; the target stands for it.
    xcb_atom_t property = request.property == static_cast<xcb_atom_t>(XCB_ATOM_NONE) ? request.target : request.property;
    bool served = false;
    if (m_owning.load() && request.selection == m_clipboard && request.owner == m_owner_window) {
        std::string text;
        {
            std::lock_guard lock(m_mutex);
            text = m_text;
        }
        if (request.target == m_targets) {
            const xcb_atom_t targets[] = {m_targets, m_utf8, m_text_atom, XCB_ATOM_STRING};
            xcb_change_property(c, XCB_PROP_MODE_REPLACE, request.requestor, property, XCB_ATOM_ATOM, 32, 4, targets);
            served = true;
        } else if (request.target == m_utf8 || request.target == m_text_atom) {
            xcb_change_property(c, XCB_PROP_MODE_REPLACE, request.requestor, property, m_utf8, 8,
                                static_cast<std::uint32_t>(text.size()), text.data());
            served = true;
        } else if (request.target == XCB_ATOM_STRING) {
            std::string latin1;
            if (utf8_to_latin1(text, latin1)) {
                xcb_change_property(c, XCB_PROP_MODE_REPLACE, request.requestor, property, XCB_ATOM_STRING, 8,
                                    static_cast<std::uint32_t>(latin1.size()), latin1.data());
                served = true;
            }
        }
        std::fill(text.begin(), text.end(), '\0');
    }
    xcb_selection_notify_event_t notify{};
    notify.response_type = XCB_SELECTION_NOTIFY;
    notify.time = request.time;
    notify.requestor = request.requestor;
    notify.selection = request.selection;
    notify.target = request.target;
    notify.property = served ? property : static_cast<xcb_atom_t>(XCB_ATOM_NONE);
    xcb_send_event(c, 0, request.requestor, XCB_EVENT_MASK_NO_EVENT, reinterpret_cast<const char*>(&notify));
    xcb_flush(c);
}

void X11Clipboard::serve()
{
    xcb_connection_t* c = m_owner->connection();
    const int fd = xcb_get_file_descriptor(c);
    while (!m_stop.load() && !m_owner->broken()) {
        while (xcb_generic_event_t* event = xcb_poll_for_event(c)) {
            XcbPtr<xcb_generic_event_t> owned(event);
            switch (event->response_type & 0x7F) {
            case XCB_SELECTION_REQUEST:
                answer(*reinterpret_cast<xcb_selection_request_event_t*>(event));
                break;
            case XCB_SELECTION_CLEAR: {
                // Another client copied: what the driver wrote is no longer the clipboard.
                m_owning = false;
                std::lock_guard lock(m_mutex);
                std::fill(m_text.begin(), m_text.end(), '\0');
                m_text.clear();
                break;
            }
            default:
                break;
            }
        }
        pollfd p{fd, POLLIN, 0};
        ::poll(&p, 1, 50); // the stop flag is looked at every 50 ms
    }
}

void X11Clipboard::stop_thread()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
}

void X11Clipboard::release()
{
    stop_thread();
    if (m_owning.exchange(false) && m_owner && !m_owner->broken()) {
        xcb_set_selection_owner(m_owner->connection(), XCB_WINDOW_NONE, m_clipboard, XCB_CURRENT_TIME);
        xcb_flush(m_owner->connection());
    }
    std::lock_guard lock(m_mutex);
    std::fill(m_text.begin(), m_text.end(), '\0');
    m_text.clear();
}

} // namespace nd_linux

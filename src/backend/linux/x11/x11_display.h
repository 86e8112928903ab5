#pragma once

// One xcb connection to an X display, shared by the X11 window source, capture and (through the lead's
// linux_backend) input. It owns the connection, the interned atoms and what the server offers.
//
// Every wait for the server has a deadline: replies are polled (xcb_poll_for_reply plus poll(2) on the
// connection's fd), never awaited with the blocking xcb_*_reply calls, so a hung X server costs a
// timed_out error and not a hung driver. The connect itself runs on a helper thread for the same reason.
// Requests are meant to be sent in batches (all cookies first, then the replies): one round trip for a
// whole batch instead of one per request. ReplyBatch (x11_reply.h) wraps that pattern.
//
// Not thread-safe: one thread uses a display at a time (xcb itself is, but the atom cache is not).

#include "core/result.h"

#include <xcb/xcb.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

namespace nd_linux {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

inline Deadline deadline_after(std::chrono::milliseconds ms) { return Clock::now() + ms; }

// How long one batch of requests may take before the server counts as hung.
inline constexpr std::chrono::milliseconds X11_BATCH_TIMEOUT{1000};

struct FreeDeleter {
    void operator()(void* p) const { std::free(p); }
};
template<typename T>
using XcbPtr = std::unique_ptr<T, FreeDeleter>;

// A reply, or the X error the server sent instead (e.g. XCB_WINDOW when a window vanished). A dead
// connection or a missed deadline is not an XReply but an nd_core error.
template<typename R>
struct XReply {
    XcbPtr<R> value;
    std::uint8_t error_code = 0; // set when value is null

    explicit operator bool() const { return value != nullptr; }
    R* operator->() const { return value.get(); }
    R& operator*() const { return *value; }
};

struct X11Extensions {
    bool xtest = false, xinput2_1 = false, xres = false, composite = false, shm = false, shape = false;
    bool record = false; // RECORD: every client's XTEST requests can be watched (x11_xtest_monitor.h)
};

class X11Display {
public:
    // Connects to `name` (empty: $DISPLAY) and learns what the server offers (extensions and their
    // versions; XInput is negotiated at 2.2, X-Resource needs 1.2, Composite 0.2). Errors:
    // backend_unavailable naming the reason (no DISPLAY, no server, refused, too slow to answer).
    static nd_core::Result<std::unique_ptr<X11Display>> open(const std::string& name = {},
        std::chrono::milliseconds timeout = X11_BATCH_TIMEOUT);
    ~X11Display();
    X11Display(const X11Display&) = delete;
    X11Display& operator=(const X11Display&) = delete;

    xcb_connection_t* connection() const { return m_connection; }
    xcb_window_t root() const { return m_screen->root; }
    const xcb_screen_t& screen() const { return *m_screen; }
    const X11Extensions& extensions() const { return m_extensions; }
    bool is_local() const { return m_local; } // connected over a unix socket (so pids are of this machine)
    const std::string& name() const { return m_name; }
    bool broken() const { return xcb_connection_has_error(m_connection) != 0; }

    // Interned and cached; XCB_ATOM_NONE when the server does not answer in time.
    xcb_atom_t atom(std::string_view name);
    // Interns several atoms in one round trip (sent together, then collected). Errors: timed_out,
    // backend_unavailable (then only the atoms that were answered are cached).
    nd_core::Result<void> intern_atoms(std::initializer_list<std::string_view> names);

    // Waits for the reply (or X error) of request `sequence` until `deadline`. Errors: timed_out (the
    // late reply is discarded when it comes) and backend_unavailable (the connection broke).
    struct RawReply {
        void* reply = nullptr;
        xcb_generic_error_t* error = nullptr;
    };
    nd_core::Result<RawReply> wait_raw(unsigned int sequence, Deadline deadline);

    template<typename R, typename Cookie>
    nd_core::Result<XReply<R>> wait(Cookie cookie, Deadline deadline)
    {
        auto raw = TRY(wait_raw(cookie.sequence, deadline));
        XReply<R> out;
        out.value.reset(static_cast<R*>(raw.reply));
        if (raw.error) {
            out.error_code = raw.error->error_code;
            std::free(raw.error);
        }
        return out;
    }

    // The X error of a void request sent with its _checked variant (0: none), after one round trip.
    nd_core::Result<std::uint8_t> check(xcb_void_cookie_t cookie, Deadline deadline);

    // Forgets a request whose reply is no longer wanted (xcb frees it when it arrives).
    void discard(unsigned int sequence);

    // backend_unavailable or timed_out, worded for this display.
    nd_core::Error dead_error() const;
    nd_core::Error timeout_error(std::string_view what) const;

private:
    X11Display(xcb_connection_t*, const xcb_screen_t*, std::string name);
    nd_core::Result<void> query_extensions(Deadline);

    xcb_connection_t* m_connection = nullptr;
    const xcb_screen_t* m_screen = nullptr;
    std::string m_name;
    bool m_local = false;
    X11Extensions m_extensions;
    std::unordered_map<std::string, xcb_atom_t> m_atoms;
};

} // namespace nd_linux

#pragma once

// The CLIPBOARD selection (ICCCM) as text, on two connections of its own.
//
// Reading asks the owner to convert to UTF8_STRING, then to STRING (Latin-1), into a property of a
// hidden window, and waits for SelectionNotify under a deadline; an incremental (INCR) transfer or
// more than MAX_BYTES is refused, never half read. Writing takes ownership of CLIPBOARD with a
// hidden window whose requests a thread serves (TARGETS, UTF8_STRING, TEXT, STRING when the text is
// Latin-1) until release(): the session that wrote ended, or another client took the selection.
// Text is never logged; it is wiped when ownership ends.

#include "backend/linux/x11/x11_display.h"
#include "core/backend/clipboard.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace nd_linux {

class X11Clipboard final : public nd_core::Clipboard {
public:
    static constexpr std::size_t MAX_BYTES = 1u << 20;

    // Opens both connections to `display_name` (empty: $DISPLAY).
    static nd_core::Result<std::unique_ptr<X11Clipboard>> open(const std::string& display_name);
    ~X11Clipboard() override;

    nd_core::Result<std::string> read_text() override;
    nd_core::Result<void> write_text(std::string_view) override;
    void release() override;

    // Whether this process owns the selection now (tests).
    bool owning() const { return m_owning.load(); }

private:
    X11Clipboard() = default;
    nd_core::Result<std::string> convert(xcb_atom_t target, bool& refused);
    void serve();
    void answer(const xcb_selection_request_event_t&);
    void stop_thread();

    std::unique_ptr<X11Display> m_reader;
    std::unique_ptr<X11Display> m_owner; // events read only by the serving thread
    xcb_window_t m_reader_window = 0;
    xcb_window_t m_owner_window = 0;
    xcb_atom_t m_clipboard = 0, m_utf8 = 0, m_text_atom = 0, m_targets = 0, m_incr = 0, m_property = 0;

    std::mutex m_mutex; // m_text
    std::string m_text;
    std::atomic<bool> m_owning{false};
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace nd_linux

#include "backend/linux/x11/x11_overlay.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <utility>

namespace nd_linux {

namespace {

// How long the event thread sleeps at most before it looks at the stop flag again.
constexpr int THREAD_WAKE_MS = 50;
// hide_indicator() is due within about 100 ms (§4.2); its round trip may not take longer than that.
constexpr std::chrono::milliseconds HIDE_TIMEOUT{100};

} // namespace

X11Overlay::X11Overlay(std::string display_name, PersonRule& rule)
    : m_display_name(std::move(display_name)), m_rule(rule), m_wake_fd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
{
}

X11Overlay::~X11Overlay()
{
    hide_indicator();
    std::lock_guard life(m_life_mutex);
    stop_thread();
    for (auto& retired : m_retired)
        retired.join();
    if (m_wake_fd >= 0)
        ::close(m_wake_fd);
}

// Under m_life_mutex. A connection that broke is replaced: the thread that read it stops first.
nd_core::Result<void> X11Overlay::connect()
{
    if (m_display && !m_display->broken())
        return {};
    stop_thread();
    std::lock_guard lock(m_mutex);
    m_windows.reset();
    m_display.reset();
    auto display = TRY(X11Display::open(m_display_name));
    // Others' windows mapped or restacked over the indicator are seen here (SubstructureNotify on the
    // root may be selected by any number of clients).
    const std::uint32_t root_events[] = {XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY};
    xcb_change_window_attributes(display->connection(), display->root(), XCB_CW_EVENT_MASK, root_events);
    m_windows = std::make_unique<OverlayWindows>(*display);
    m_xi_opcode = xi_opcode(*display);
    m_display = std::move(display);
    m_thread = std::thread([this, generation = m_generation.load()] { run(generation); });
    return {};
}

nd_core::Result<void> X11Overlay::show_indicator()
{
    {
        std::lock_guard life(m_life_mutex);
        // The display's takeover lock first: a second driver taking over would read our input as
        // the person's. It is kept while the indicator shows and dropped with it.
        bool held = false;
        {
            std::lock_guard lock(m_mutex);
            held = m_lock.held();
        }
        DisplayLock taken;
        if (!held)
            taken = TRY(DisplayLock::take(m_display_name));
        TRY_VOID(connect()); // on failure `taken` lets go as it goes out of scope
        std::lock_guard lock(m_mutex);
        if (taken.held())
            m_lock = std::move(taken);
        m_shown = false;
        m_lost = false;
        m_armed = false;
        if (auto created = m_windows->create(m_paused, deadline_after(SHOW_TIMEOUT)); !created.ok()) {
            m_lock.release();
            return created;
        }
        m_shown = true;
    }
    kick(); // the thread paints the Expose events that the round trips above read for it
    return {};
}

void X11Overlay::hide_indicator()
{
    {
        std::lock_guard lock(m_mutex);
        m_shown = false;
        m_armed = false;
        m_lock.release();
        if (!m_windows || !m_windows->shown())
            return;
        m_windows->destroy();
        // The round trip makes the call synchronous: when it returns the server has destroyed them.
        auto* c = m_display->connection();
        auto done = m_display->wait<xcb_get_input_focus_reply_t>(xcb_get_input_focus(c), deadline_after(HIDE_TIMEOUT));
        (void)done; // a dead or hung server has no indicator to show anyway
    }
    kick();
}

void X11Overlay::set_paused(bool paused)
{
    {
        std::lock_guard lock(m_mutex);
        m_paused = paused;
        m_armed = false;
        if (!m_windows)
            return;
        m_windows->set_paused(paused);
        xcb_flush(m_display->connection());
    }
    kick();
}

bool X11Overlay::indicator_alive()
{
    if (!m_shown.load() || m_lost.load())
        return false;
    std::lock_guard lock(m_mutex);
    return m_display && !m_display->broken();
}

void X11Overlay::set_continue_handler(std::function<void()> handler)
{
    std::lock_guard lock(m_handler_mutex);
    m_handler = std::move(handler);
}

std::vector<std::uint32_t> X11Overlay::window_ids()
{
    std::lock_guard lock(m_mutex);
    if (!m_windows)
        return {};
    auto windows = m_windows->windows();
    return {windows.begin(), windows.end()};
}

std::uint32_t X11Overlay::continue_button()
{
    std::lock_guard lock(m_mutex);
    return m_windows ? m_windows->button() : 0;
}

std::string X11Overlay::last_refusal()
{
    std::lock_guard lock(m_mutex);
    return m_last_refusal;
}

void X11Overlay::kick()
{
    if (m_wake_fd < 0)
        return;
    const std::uint64_t one = 1;
    [[maybe_unused]] auto written = ::write(m_wake_fd, &one, sizeof one);
}

void X11Overlay::stop_thread()
{
    const std::uint64_t ending = m_generation.fetch_add(1);
    kick();
    if (!m_thread.joinable())
        return;
    // A thread inside the Continue handler may be waiting for a lock the caller holds (the engine's,
    // when a tool call shows the indicator again): joining it would never end. It has seen its
    // generation end, so it touches nothing of the overlay's once the handler returns; it is joined
    // with the overlay. A thread that enters the handler after the bump above sees the new generation
    // first and skips the handler, so it can be joined.
    if (m_handler_generation.load() == ending) {
        m_retired.push_back(std::move(m_thread));
        return;
    }
    m_thread.join();
}

void X11Overlay::run(std::uint64_t generation)
{
    // The display outlives the thread's use of it: connect() ends the generation before it replaces
    // the display, and the thread checks its generation under m_mutex before each use.
    xcb_connection_t* c = m_display->connection();
    const int x_fd = xcb_get_file_descriptor(c);
    while (m_generation.load() == generation) {
        const bool broken = xcb_connection_has_error(c) != 0;
        // A broken connection's fd reports an error at once, forever: then only the wake fd is watched.
        pollfd fds[2] = {{m_wake_fd, POLLIN, 0}, {x_fd, POLLIN, 0}};
        ::poll(fds, broken ? 1 : 2, THREAD_WAKE_MS);
        if (fds[0].revents & POLLIN) {
            std::uint64_t count = 0;
            [[maybe_unused]] auto read = ::read(m_wake_fd, &count, sizeof count);
        }
        std::optional<Candidate> candidate;
        {
            std::lock_guard lock(m_mutex);
            if (m_generation.load() != generation)
                return;
            if (broken) {
                m_lost = m_shown.load();
                continue;
            }
            // Drains what the socket holds and what a caller's round trip queued for this thread.
            while (xcb_generic_event_t* event = xcb_poll_for_event(c)) {
                XcbPtr<xcb_generic_event_t> owned(event);
                if (auto c = handle(*event))
                    candidate = c;
            }
            xcb_flush(c);
        }
        // Judged without the lock: the rule's round trips must not hold up hide_indicator(), which
        // the kill switch needs at once.
        bool clicked = false;
        if (candidate) {
            auto verdict = m_rule.judge(candidate->press, candidate->pressed_at, candidate->release);
            clicked = verdict.person;
            std::lock_guard lock(m_mutex);
            if (!clicked)
                m_last_refusal = verdict.why;
            clicked = clicked && m_paused && m_generation.load() == generation;
        }
        if (clicked) {
            std::function<void()> handler;
            {
                std::lock_guard lock(m_handler_mutex);
                handler = m_handler;
            }
            m_handler_generation = generation;
            if (handler && m_generation.load() == generation)
                handler();
            auto mine = generation;
            m_handler_generation.compare_exchange_strong(mine, 0);
        }
    }
}

std::optional<X11Overlay::Candidate> X11Overlay::handle(const xcb_generic_event_t& event)
{
    if (auto button = xi_button(event, m_xi_opcode))
        return handle_button(*button);
    OverlayWindows& windows = *m_windows;
    switch (event.response_type & 0x7F) {
    case XCB_EXPOSE: {
        const auto& e = reinterpret_cast<const xcb_expose_event_t&>(event);
        if (e.count == 0)
            windows.redraw(e.window);
        return std::nullopt;
    }
    case XCB_VISIBILITY_NOTIFY: {
        const auto& e = reinterpret_cast<const xcb_visibility_notify_event_t&>(event);
        if (windows.owns(e.window) && e.state != XCB_VISIBILITY_UNOBSCURED)
            windows.raise();
        return std::nullopt;
    }
    case XCB_MAP_NOTIFY: {
        // A window mapped after the indicator lands above it.
        const auto& e = reinterpret_cast<const xcb_map_notify_event_t&>(event);
        if (windows.shown() && !windows.owns(e.window))
            windows.raise();
        return std::nullopt;
    }
    case XCB_CONFIGURE_NOTIFY: {
        const auto& e = reinterpret_cast<const xcb_configure_notify_event_t&>(event);
        if (windows.shown() && e.event == m_display->root() && !windows.owns(e.window))
            windows.raise();
        return std::nullopt;
    }
    case XCB_UNMAP_NOTIFY: {
        // The overlay never unmaps its windows, and forgets them before it destroys them: an unmap or
        // destroy of a window it still owns was done by another client.
        const auto& e = reinterpret_cast<const xcb_unmap_notify_event_t&>(event);
        if (windows.owns(e.window))
            m_lost = true;
        return std::nullopt;
    }
    case XCB_DESTROY_NOTIFY: {
        const auto& e = reinterpret_cast<const xcb_destroy_notify_event_t&>(event);
        if (windows.owns(e.window))
            m_lost = true;
        return std::nullopt;
    }
    default:
        return std::nullopt; // X errors of requests sent without a check (a window already gone) land here
    }
}

// §4.3: a left-button press and release on Continue, which the caller has PersonRule judge. Any
// other button in between disarms.
std::optional<X11Overlay::Candidate> X11Overlay::handle_button(const XiButton& event)
{
    const xcb_window_t button = m_windows->button();
    if (!m_paused || button == XCB_WINDOW_NONE || event.window != button)
        return std::nullopt;
    if (event.button != 1) {
        m_armed = false;
        return std::nullopt;
    }
    if (event.press) {
        m_armed = true;
        m_press = event;
        m_pressed_at = Clock::now();
        return std::nullopt;
    }
    const bool inside = event.x >= 0 && event.y >= 0 && event.x < m_windows->button_width()
        && event.y < m_windows->button_height();
    if (!std::exchange(m_armed, false) || !inside)
        return std::nullopt;
    return Candidate{m_press, m_pressed_at, event};
}

} // namespace nd_linux

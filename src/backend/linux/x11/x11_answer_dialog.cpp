#include "backend/linux/x11/x11_answer_dialog.h"

#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_own_marker.h"
#include "backend/linux/x11/x11_xi_buttons.h"

#include <xcb/xcb_icccm.h>

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

// X sets this bit in an event's response_type when another client sent it with SendEvent.
constexpr std::uint8_t SENT_EVENT = 0x80;
constexpr std::uint32_t LEFT_BUTTON = 1;
constexpr std::chrono::milliseconds REMAP_AFTER{1000};

struct Atoms {
    xcb_atom_t protocols = 0, delete_window = 0, utf8 = 0, net_name = 0, net_pid = 0, state = 0, above = 0,
               type = 0, dialog = 0, own = 0;
};

// Owns the dialog's window (and its painter) for the length of one ask: destroyed with a round
// trip when this goes away, on every path out of ask().
class DialogWindow {
public:
    DialogWindow(X11Display& display, xcb_window_t window) : m_display(display), m_window(window) {}
    ~DialogWindow()
    {
        m_painter.reset(); // cairo lets go of the window first
        // The round trip makes the window gone (and unlisted) by the time ask() returns; a server
        // that does not answer in time loses it anyway when the connection closes.
        if (!m_display.broken())
            (void)m_display.check(xcb_destroy_window_checked(m_display.connection(), m_window), deadline_after(X11_BATCH_TIMEOUT));
    }
    DialogWindow(const DialogWindow&) = delete;
    DialogWindow& operator=(const DialogWindow&) = delete;

    void set_painter(std::unique_ptr<ConsentPainter> painter) { m_painter = std::move(painter); }
    ConsentPainter& painter() { return *m_painter; }

private:
    X11Display& m_display;
    xcb_window_t m_window;
    std::unique_ptr<ConsentPainter> m_painter;
};

void set_property(xcb_connection_t* c, xcb_window_t w, xcb_atom_t property, xcb_atom_t type, std::uint8_t format,
    std::uint32_t count, const void* data)
{
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, property, type, format, count, data);
}

// Everything the window manager reads before it maps the window: title, class, pid, that it is a
// dialog kept above the others, a fixed size at the centre, no keyboard focus (the dialog never
// reads keys), and that closing it is a message to this client, not a kill.
void describe(X11Display& display, xcb_window_t w, const Atoms& atoms, const AnswerDialogLook& look, int x, int y, int width,
    int height)
{
    auto* c = display.connection();
    const std::string title(look.title);
    set_property(c, w, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, static_cast<std::uint32_t>(title.size()), title.data());
    set_property(c, w, atoms.net_name, atoms.utf8, 8, static_cast<std::uint32_t>(title.size()), title.data());
    // WM_CLASS is instance and class, each NUL-terminated.
    std::string wm_class = std::string(look.wm_class) + '\0' + std::string(look.wm_class) + '\0';
    set_property(c, w, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 8, static_cast<std::uint32_t>(wm_class.size()), wm_class.data());
    const std::uint32_t pid = static_cast<std::uint32_t>(::getpid());
    set_property(c, w, atoms.net_pid, XCB_ATOM_CARDINAL, 32, 1, &pid);
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) == 0) // EWMH: _NET_WM_PID means something only with it
        set_property(c, w, XCB_ATOM_WM_CLIENT_MACHINE, XCB_ATOM_STRING, 8, static_cast<std::uint32_t>(std::strlen(host)), host);
    set_property(c, w, atoms.protocols, XCB_ATOM_ATOM, 32, 1, &atoms.delete_window);
    set_property(c, w, atoms.type, XCB_ATOM_ATOM, 32, 1, &atoms.dialog);
    set_property(c, w, atoms.state, XCB_ATOM_ATOM, 32, 1, &atoms.above);
    mark_own_surface(c, w, atoms.own, look.surface_kind);

    xcb_size_hints_t size{};
    xcb_icccm_size_hints_set_position(&size, 1, x, y);
    xcb_icccm_size_hints_set_size(&size, 1, width, height);
    xcb_icccm_size_hints_set_min_size(&size, width, height);
    xcb_icccm_size_hints_set_max_size(&size, width, height);
    xcb_icccm_set_wm_normal_hints(c, w, &size);
    xcb_icccm_wm_hints_t hints{};
    xcb_icccm_wm_hints_set_input(&hints, 0);
    xcb_icccm_wm_hints_set_normal(&hints);
    xcb_icccm_set_wm_hints(c, w, &hints);
}

// The state of one ask between events.
struct Answer {
    ConsentView view;
    ConsentControl pressed = ConsentControl::none;
    XiButton press;              // the press that armed `pressed`
    Clock::time_point pressed_at{};
    std::optional<bool> allowed; // set once the person (or the window manager's close) decided
    bool shown = false;          // mapped at least once
};

constexpr std::chrono::milliseconds STOP_POLL{100};

} // namespace

nd_core::Result<AnswerDialogEnd> run_answer_dialog(const std::string& display_name, PersonRule& rule,
    const ConsentLayout& layout, const AnswerDialogLook& look, const AnswerDialogWait& wait)
{
    auto display = TRY(X11Display::open(display_name));
    auto* c = display->connection();
    TRY_VOID(display->intern_atoms({"WM_PROTOCOLS", "WM_DELETE_WINDOW", "UTF8_STRING", "_NET_WM_NAME", "_NET_WM_PID",
        "_NET_WM_STATE", "_NET_WM_STATE_ABOVE", "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_DIALOG", OWN_SURFACE_PROPERTY}));
    Atoms atoms{display->atom("WM_PROTOCOLS"), display->atom("WM_DELETE_WINDOW"), display->atom("UTF8_STRING"),
        display->atom("_NET_WM_NAME"), display->atom("_NET_WM_PID"), display->atom("_NET_WM_STATE"),
        display->atom("_NET_WM_STATE_ABOVE"), display->atom("_NET_WM_WINDOW_TYPE"), display->atom("_NET_WM_WINDOW_TYPE_DIALOG"),
        display->atom(OWN_SURFACE_PROPERTY)};
    // Clicks are read through XInput 2 only, which names the device each came from.
    const std::uint8_t xi = xi_opcode(*display);
    if (!display->extensions().xinput2_1 || xi == 0)
        return make_error(ErrorCode::backend_unavailable,
            "the X server lacks XInput 2, so the dialog could not tell the person's click from a program's");

    const auto& screen = display->screen();
    const int x = std::max(0, (screen.width_in_pixels - layout.width) / 2);
    const int y = std::max(0, (screen.height_in_pixels - layout.height) / 2);

    // Keys are not selected at all: no key event reaches the dialog, so none can answer it. Buttons
    // come through XInput 2 (select_xi_buttons below), never as core events.
    const xcb_window_t window = xcb_generate_id(c);
    const std::uint32_t values[] = {screen.white_pixel, XCB_EVENT_MASK_EXPOSURE | XCB_EVENT_MASK_STRUCTURE_NOTIFY};
    auto created = xcb_create_window_checked(c, XCB_COPY_FROM_PARENT, window, screen.root, static_cast<std::int16_t>(x),
        static_cast<std::int16_t>(y), static_cast<std::uint16_t>(layout.width), static_cast<std::uint16_t>(layout.height), 0,
        XCB_WINDOW_CLASS_INPUT_OUTPUT, screen.root_visual, XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK, values);
    if (TRY(display->check(created, deadline_after(X11_BATCH_TIMEOUT))) != 0)
        return make_error(ErrorCode::backend_unavailable, "the X server refused to create the dialog's window");
    DialogWindow dialog(*display, window);
    describe(*display, window, atoms, look, x, y, layout.width, layout.height);
    select_xi_buttons(*display, window);
    dialog.set_painter(TRY(ConsentPainter::create(c, screen, window, layout.width, layout.height)));
    auto mapped = xcb_map_window_checked(c, window);
    if (TRY(display->check(mapped, deadline_after(X11_BATCH_TIMEOUT))) != 0)
        return make_error(ErrorCode::backend_unavailable, "the X server refused to show the dialog");

    Answer answer;
    auto repaint = [&] { dialog.painter().paint(layout, answer.view); xcb_flush(c); };
    auto on_button = [&](const XiButton& b) {
        if (b.window != window || b.button != LEFT_BUTTON)
            return;
        if (b.press) {
            answer.pressed = layout.hit(b.x, b.y);
            answer.press = b;
            answer.pressed_at = Clock::now();
            answer.view.pressed = answer.pressed;
            repaint();
            return;
        }
        const auto pressed = std::exchange(answer.pressed, ConsentControl::none);
        answer.view.pressed = ConsentControl::none;
        if (pressed != ConsentControl::none && layout.hit(b.x, b.y) == pressed) {
            if (pressed == ConsentControl::deny) {
                answer.allowed = false; // a no may come from anywhere
            } else if (auto verdict = rule.judge(answer.press, answer.pressed_at, b); !verdict.person) {
                answer.view.refused = true; // the person sees why nothing happened
                if (wait.on_refusal)
                    wait.on_refusal(verdict.why);
            } else {
                answer.view.refused = false;
                if (pressed == ConsentControl::allow)
                    answer.allowed = true;
                else if (pressed == ConsentControl::takeover)
                    answer.view.takeover_ticked = !answer.view.takeover_ticked;
                else if (pressed == ConsentControl::clipboard)
                    answer.view.clipboard_ticked = !answer.view.clipboard_ticked;
            }
        }
        repaint();
    };
    auto handle = [&](const xcb_generic_event_t* event) {
        if (auto b = xi_button(*event, xi)) {
            on_button(*b);
            return;
        }
        switch (event->response_type & ~SENT_EVENT) {
        case XCB_EXPOSE:
            if (reinterpret_cast<const xcb_expose_event_t*>(event)->count == 0)
                repaint();
            break;
        case XCB_CLIENT_MESSAGE: {
            // WM_DELETE_WINDOW always arrives as a SendEvent; whoever sends it can only deny.
            const auto* message = reinterpret_cast<const xcb_client_message_event_t*>(event);
            if (message->window == window && message->type == atoms.protocols && message->format == 32
                && message->data.data32[0] == atoms.delete_window)
                answer.allowed = false;
            break;
        }
        case XCB_MAP_NOTIFY:
            if (reinterpret_cast<const xcb_map_notify_event_t*>(event)->window == window) {
                if (!answer.shown && wait.on_shown)
                    wait.on_shown();
                answer.shown = true;
            }
            break;
        case XCB_DESTROY_NOTIFY:
            if (reinterpret_cast<const xcb_destroy_notify_event_t*>(event)->window == window)
                answer.allowed = false;
            break;
        default:
            break; // key events are never selected; anything else does not matter here
        }
    };

    const auto deadline = wait.deadline;
    AnswerDialogEnd end;
    auto next_map = Clock::now() + REMAP_AFTER;
    const int fd = xcb_get_file_descriptor(c);
    while (!answer.allowed) {
        while (xcb_generic_event_t* event = xcb_poll_for_event(c)) {
            handle(event);
            std::free(event);
            if (answer.allowed)
                break;
        }
        if (answer.allowed)
            break;
        if (display->broken())
            return display->dead_error();
        const auto now = Clock::now();
        if (now >= deadline)
            break; // no answer in time: not allowed
        if (wait.stopped && wait.stopped()) {
            end.stopped = true;
            break;
        }
        // A window manager that is still starting can drop the map request; until the window has
        // been shown once, ask again. (Once shown, an unmap is the person's minimize: left alone.)
        if (!answer.shown && now >= next_map) {
            xcb_map_window(c, window);
            xcb_flush(c);
            next_map = now + REMAP_AFTER;
        }
        auto wake = answer.shown ? deadline : std::min(deadline, next_map);
        if (wait.stopped)
            wake = std::min(wake, now + STOP_POLL);
        const auto left = std::max<long long>(1, std::chrono::ceil<std::chrono::milliseconds>(wake - now).count());
        pollfd p{fd, POLLIN, 0};
        ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    }

    end.allowed = answer.allowed;
    end.view = answer.view;
    return end;
}

} // namespace nd_linux

#include "backend/linux/atspi/atspi_events.h"

#include "backend/linux/atspi/atspi_names.h"

#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

// What the reads depend on. Bounds and caret moves are left out: frames are read afresh for each
// view, and a caret says nothing a read returns. Qt 5 sends a value's change only to a listener
// of that very event (its generic property-change flag covers names and descriptions, not values),
// so it is asked for by name too.
constexpr const char* LISTENED[] = {
    "object:children-changed", "object:property-change", "object:property-change:accessible-value",
    "object:state-changed", "object:text-changed",
    "object:visible-data-changed", "object:selection-changed", "object:active-descendant-changed",
    "object:row-inserted", "object:row-deleted", "object:row-reordered", "object:column-inserted",
    "object:column-deleted", "object:column-reordered", "object:model-changed", "window:", "document:",
};

constexpr const char* MATCHES[] = {
    "type='signal',interface='org.a11y.atspi.Event.Object'",
    "type='signal',interface='org.a11y.atspi.Event.Window'",
    "type='signal',interface='org.a11y.atspi.Event.Document'",
};

enum class Kind { ignored, content, structural, gone };

// How an event bears on a read of the object it names.
Kind kind_of(std::string_view iface, std::string_view member, std::string_view detail)
{
    if (iface == "org.a11y.atspi.Event.Object") {
        if (member == "BoundsChanged" || member == "TextCaretMoved" || member == "TextSelectionChanged" ||
            member == "AttributesChanged" || member == "TextAttributesChanged" || member == "Announcement" ||
            member == "LinkSelected")
            return Kind::ignored;
        if (member == "PropertyChange")
            return detail == "accessible-parent" ? Kind::structural : Kind::content;
        if (member == "StateChanged")
            return detail == "defunct" ? Kind::gone : Kind::content;
        if (member == "TextChanged" || member == "VisibleDataChanged" || member == "ActiveDescendantChanged")
            return Kind::content;
        return Kind::structural; // children, rows, columns, selection, model: re-read the subtree
    }
    if (iface == "org.a11y.atspi.Event.Window")
        return member == "Create" || member == "Destroy" || member == "Reparent" ? Kind::structural : Kind::content;
    return Kind::structural; // documents: loads and reloads
}

} // namespace

nd_core::Result<std::unique_ptr<AtspiEvents>> AtspiEvents::open(const std::string& address)
{
    sd_bus* bus = TRY(AtspiBus::connect(address));
    std::unique_ptr<AtspiEvents> events(new AtspiEvents(bus));
    (void)sd_bus_set_method_call_timeout(bus, 2'000'000); // the registry's answers, in µs
    for (const char* rule : MATCHES) {
        int r = sd_bus_add_match(bus, nullptr, rule, &AtspiEvents::on_signal, events.get());
        if (r < 0)
            return make_error(ErrorCode::backend_unavailable, std::string("cannot listen to AT-SPI events: ") +
                                                                  std::strerror(-r));
    }
    for (const char* event : LISTENED) {
        sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_message* reply = nullptr;
        int r = sd_bus_call_method(bus, REGISTRY_NAME, REGISTRY_PATH, IFACE_REGISTRY, "RegisterEvent", &error, &reply,
                                   "sass", event, 0, "");
        sd_bus_error_free(&error);
        sd_bus_message_unref(reply);
        if (r < 0)
            return make_error(ErrorCode::backend_unavailable, "the AT-SPI registry refused an event listener");
    }
    if (::pipe2(events->m_wake, O_CLOEXEC | O_NONBLOCK) != 0)
        return make_error(ErrorCode::backend_unavailable, std::string("pipe: ") + std::strerror(errno));
    events->m_thread = std::thread([e = events.get()] { e->drain_loop(); });
    return events;
}

AtspiEvents::AtspiEvents(sd_bus* bus) : m_bus(bus) {}

AtspiEvents::~AtspiEvents()
{
    m_stop = true;
    if (m_wake[1] >= 0)
        (void)!::write(m_wake[1], "x", 1);
    if (m_thread.joinable())
        m_thread.join();
    for (int fd : m_wake)
        if (fd >= 0)
            ::close(fd);
    sd_bus_flush_close_unref(m_bus);
}

int AtspiEvents::on_signal(sd_bus_message* m, void* userdata, sd_bus_error*)
{
    static_cast<AtspiEvents*>(userdata)->record(m);
    return 0;
}

void AtspiEvents::record(sd_bus_message* m)
{
    const char* sender = sd_bus_message_get_sender(m);
    const char* path = sd_bus_message_get_path(m);
    const char* iface = sd_bus_message_get_interface(m);
    const char* member = sd_bus_message_get_member(m);
    if (!sender || !path || !iface || !member)
        return;
    ++m_events;
    const char* detail = "";
    (void)sd_bus_message_read_basic(m, 's', &detail);
    const Kind kind = kind_of(iface, member, detail ? detail : "");
    if (m_heard.size() < MAX_APPS * 4)
        m_heard.insert(sender);
    if (kind == Kind::ignored)
        return;
    if (m_changes.size() >= MAX_APPS && !m_changes.count(sender)) {
        // Too many apps at once: every record becomes an overflow, and every read cold.
        for (auto& [app, changes] : m_changes)
            changes = AppChanges{{}, {}, {}, false, true};
        return;
    }
    auto& changes = m_changes[sender];
    if (changes.overflow)
        return;
    if (std::strcmp(path, ROOT_PATH) == 0 && kind == Kind::structural) {
        changes.root_changed = true;
        return;
    }
    (kind == Kind::structural ? changes.structural : kind == Kind::gone ? changes.gone : changes.content).insert(path);
    if (kind == Kind::content && std::strcmp(member, "StateChanged") == 0 && detail && std::strcmp(detail, "focused") == 0)
        changes.focused.insert(path);
    if (changes.structural.size() + changes.content.size() + changes.gone.size() > MAX_PATHS_PER_APP)
        changes = AppChanges{{}, {}, {}, false, true};
}

void AtspiEvents::drain_locked()
{
    for (;;) {
        int r = sd_bus_process(m_bus, nullptr);
        if (r < 0) {
            m_broken = true;
            return;
        }
        if (r == 0)
            return;
    }
}

void AtspiEvents::drain_loop()
{
    while (!m_stop && !m_broken) {
        int fd = -1;
        short events = 0;
        std::uint64_t timeout_us = 0;
        {
            std::lock_guard lock(m_mutex);
            drain_locked();
            fd = sd_bus_get_fd(m_bus);
            int e = sd_bus_get_events(m_bus);
            events = static_cast<short>(e < 0 ? POLLIN : e);
            (void)sd_bus_get_timeout(m_bus, &timeout_us);
        }
        if (fd < 0)
            break;
        pollfd fds[2] = {{fd, events, 0}, {m_wake[0], POLLIN, 0}};
        (void)::poll(fds, 2, 200);
    }
}

nd_core::Result<void> AtspiEvents::sync(const std::string& app, Deadline deadline)
{
    std::lock_guard lock(m_mutex);
    if (m_broken)
        return make_error(ErrorCode::backend_unavailable, "the AT-SPI event connection closed");
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - Clock::now());
    if (left.count() <= 0)
        return make_error(ErrorCode::timed_out, "no time left to ask the app");
    sd_bus_message* call = nullptr;
    int r = sd_bus_message_new_method_call(m_bus, &call, app.c_str(), "/", "org.freedesktop.DBus.Peer", "Ping");
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message* reply = nullptr;
    if (r >= 0)
        r = sd_bus_call(m_bus, call, static_cast<std::uint64_t>(left.count()), &error, &reply);
    sd_bus_message_unref(call);
    sd_bus_message_unref(reply);
    const bool gone = r < 0 && dbus_error_is_gone(&error);
    sd_bus_error_free(&error);
    // The events that came in while the call waited are queued; dispatch them before answering.
    drain_locked();
    if (r < 0)
        return make_error(gone ? ErrorCode::element_not_found : ErrorCode::app_not_responding,
                          "the app did not answer a ping on the event connection");
    return {};
}

AppChanges AtspiEvents::take(const std::string& app)
{
    std::lock_guard lock(m_mutex);
    auto it = m_changes.find(app);
    if (it == m_changes.end())
        return {};
    AppChanges out = std::move(it->second);
    m_changes.erase(it);
    return out;
}

bool AtspiEvents::heard_from(const std::string& app) const
{
    std::lock_guard lock(m_mutex);
    return m_heard.count(app) > 0;
}

} // namespace nd_linux

#include "backend/linux/x11/x11_person_rule.h"

#include "backend/linux/person_mark/person_mark.h"

namespace nd_linux {

nd_core::Result<X11Display*> PersonRule::display()
{
    if (!m_display || m_display->broken())
        m_display = TRY(X11Display::open(m_display_name));
    return m_display.get();
}

// The watch, reopened when it broke. nullptr (not an error) when the server has no RECORD.
nd_core::Result<X11XtestMonitor*> PersonRule::monitor()
{
    auto* d = TRY(display());
    if (!d->extensions().record)
        return static_cast<X11XtestMonitor*>(nullptr);
    if (!m_monitor || !m_monitor->healthy())
        m_monitor = TRY(X11XtestMonitor::open(m_display_name));
    return m_monitor.get();
}

void PersonRule::start()
{
    std::lock_guard lock(m_mutex);
    (void)monitor(); // a failure now is retried at the first judgement
}

std::string PersonRule::level()
{
    std::lock_guard lock(m_mutex);
    auto d = display();
    if (!d || !(*d)->extensions().xinput2_1)
        return "none";
    auto m = monitor();
    return m && *m ? "full" : "devices_only";
}

Clock::time_point PersonRule::watching_since()
{
    std::lock_guard lock(m_mutex);
    return m_monitor ? m_monitor->since() : Clock::time_point{};
}

PersonRule::Verdict PersonRule::judge(const XiButton& press, Clock::time_point pressed_at, const XiButton& release)
{
    std::lock_guard lock(m_mutex);
    if (press.sent || release.sent)
        return {false, "a SendEvent"};
    if (press.source != release.source)
        return {false, "the press and the release came from different devices"};
    auto d = display();
    if (!d)
        return {false, "the X server did not answer: " + d.error().message};
    if (!(*d)->extensions().xinput2_1)
        return {false, "the X server lacks XInput 2, so no click can be told to be the person's"};
    auto devices = list_input_devices(**d, deadline_after(X11_BATCH_TIMEOUT));
    if (!devices)
        return {false, "the input devices could not be listed: " + devices.error().message};
    const std::string marked = marked_person_device();
    if (!is_person_source(*devices, press.source, marked)) {
        std::string name = "device " + std::to_string(press.source);
        for (const auto& dev : *devices)
            if (dev.id == press.source)
                name = "\"" + dev.name + "\"";
        return {false, "the click came from " + name + ", an XTEST device or a master, not the person's hand"};
    }
    const auto window_start = pressed_at - QUIET;
    if (m_clock.pressed_since(window_start))
        return {false, "this driver pressed a button within 1.5 s of the click"};
    auto m = monitor();
    if (!m)
        return {false, "synthetic input cannot be watched: " + m.error().message};
    if (!*m)
        return {true, {}}; // no RECORD on this server: rules 1 to 3 only (the doctor says so)
    if ((*m)->since() > window_start)
        return {false, "the watch of synthetic input began less than 1.5 s before the click"};
    if (auto settled = (*m)->settle(deadline_after(SETTLE_TIMEOUT)); !settled)
        return {false, settled.error().message};
    std::uint16_t marked_id = 0;
    for (const auto& dev : *devices)
        if (!marked.empty() && dev.name == marked)
            marked_id = dev.id;
    for (const auto& p : (*m)->presses_since(window_start))
        if (p.button && !(marked_id && p.device == marked_id))
            return {false, "a program sent a synthetic button press through XTEST within 1.5 s of the click"};
    return {true, {}};
}

} // namespace nd_linux

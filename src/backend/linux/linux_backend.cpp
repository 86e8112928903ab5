#include "backend/linux/linux_backend.h"

#include "backend/linux/atspi/atspi_bus.h"
#include "backend/linux/atspi/atspi_toolkit.h"
#include "backend/linux/launch/launch_env.h"
#include "backend/linux/linux_registry.h"
#include "backend/linux/x11/x11_input_lease.h"
#include "backend/linux/x11/x11_paint_watch.h"
#include "backend/linux/x11/x11_popups.h"

#include <cstdlib>

namespace nd_linux {

nd_core::Result<std::unique_ptr<LinuxBackend>> LinuxBackend::open()
{
    std::unique_ptr<LinuxBackend> b(new LinuxBackend);
    b->m_display = TRY(X11Display::open());
    if (!b->m_display->is_local())
        return nd_core::make_error(nd_core::ErrorCode::backend_unavailable,
            "display " + b->m_display->name() + " is not local; the driver reads only a local display");
    b->m_bus = TRY(AtspiBus::open());
    b->m_windows = std::make_unique<X11WindowSource>(*b->m_display);
    b->m_window_control = std::make_unique<X11WindowControl>(*b->m_display);
    b->m_capture = std::make_unique<X11Capture>(*b->m_display);
    // The screen captures on a connection of its own, so that a desk verb may capture while it reads
    // a window's tree (vision_shot.h); without one it shares the display.
    if (auto screen_display = X11Display::open(b->m_display->name())) {
        b->m_screen_display = std::move(screen_display).value();
        b->m_screen_capture = std::make_unique<X11Capture>(*b->m_screen_display, false);
        b->m_screen = std::make_unique<X11Screen>(*b->m_display, *b->m_screen_capture, true);
    } else {
        b->m_screen = std::make_unique<X11Screen>(*b->m_display, *b->m_capture);
    }
    b->m_own_surfaces = std::make_unique<X11OwnSurfaces>(*b->m_display);
    b->m_clipboard = TRY(X11Clipboard::open(b->m_display->name()));
    b->open_takeover_parts();
    b->m_trees = std::make_unique<AtspiTreeReader>(*b->m_bus);
    // On a connection of its own: its damage reports are its alone (frames kept, atspi_warm.h).
    b->m_trees->warm().set_paint_watch(X11PaintWatch::open(b->m_display->name()));
    b->m_finder = std::make_unique<AtspiFinder>(*b->m_bus);
    // GTK 4 places a popover's rows on the popover's own surface (atspi_toolkit.h).
    auto popups = [display = b->m_display.get()](std::int64_t window_id) { return popups_of(*display, window_id); };
    b->m_trees->set_popup_lookup(popups);
    b->m_finder->set_popup_lookup(popups);
    b->m_actuator = std::make_unique<AtspiActuator>(*b->m_bus);
    b->m_window_keys = std::make_unique<X11WindowKeys>(*b->m_display);
    b->m_window_pointer = std::make_unique<X11WindowPointer>(*b->m_display);
    return b;
}

void LinuxBackend::open_takeover_parts()
{
    const auto& name = m_display->name();
    const auto& ext = m_display->extensions();
    m_press_clock = std::make_unique<PressClock>();
    // The watch of every client's synthetic input starts now, so that it has the history the
    // person rule asks for by the time a dialog of ours is answered.
    m_person_rule = std::make_unique<PersonRule>(name, *m_press_clock);
    m_person_rule->start();
    m_consent = std::make_unique<X11ConsentDialog>(name, *m_person_rule);
    m_confirm = std::make_unique<X11ConfirmDialog>(name, *m_person_rule);
    // Takeover needs all three: XTEST to act, XInput 2.1 to see the person, SHAPE for a
    // click-through indicator. Without one of them the engine grants no takeover (the registry
    // says which is missing).
    if (!ext.xtest || !ext.xinput2_1 || !ext.shape)
        return;
    auto input_display = X11Display::open(name);
    auto watcher = X11InputWatcher::open(name);
    if (!input_display || !watcher)
        return;
    m_input_display = std::move(input_display).value();
    m_input = std::make_unique<X11Input>(*m_input_display, *m_press_clock);
    m_watcher = std::move(watcher).value();
    m_overlay = std::make_unique<X11Overlay>(name, *m_person_rule);
}

nd_core::Result<std::unique_ptr<nd_core::InputLease>> LinuxBackend::lease_input()
{
    return X11InputLease::take(m_display->name());
}

nd_core::BackgroundRoutes LinuxBackend::background_routes(const nd_core::WindowInfo& window)
{
    std::string toolkit;
    {
        std::lock_guard lock(m_toolkits_mutex);
        auto known = m_toolkits.find(window.pid);
        if (known != m_toolkits.end()) {
            toolkit = known->second;
        } else {
            auto named = window.pid > 0 ? toolkit_of_pid(*m_bus, window.pid) : std::string{};
            // A busy app is asked again next time; meanwhile its routes are the window class's.
            if (named) {
                toolkit = *named;
                if (m_toolkits.size() >= 256)
                    m_toolkits.clear();
                m_toolkits[window.pid] = toolkit;
            }
        }
    }
    return nd_core::background_routes(toolkit, window.app);
}

std::vector<std::string> LinuxBackend::launch_env_hidden() const
{
    std::vector<std::string> hidden{"NO_AT_BRIDGE"};
    const char* env = std::getenv("AT_SPI_BUS_ADDRESS");
    if (!env || !*env)
        return hidden;
    auto announced = address_from_session_bus(std::chrono::milliseconds(500));
    if (announced && *announced == env)
        hidden.emplace_back("AT_SPI_BUS_ADDRESS");
    return hidden;
}

std::vector<std::string> LinuxBackend::launch_env_set() const
{
    const char* modules = std::getenv("GTK_MODULES");
    return accessibility_launch_env(modules ? modules : "");
}

nd_core::RegistryReport LinuxBackend::registry()
{
    // Probe afresh: the doctor and health_report describe the machine as it is now.
    return linux_registry(probe_x11(m_display->name()), probe_atspi());
}

nd_core::Result<std::vector<std::string>> LinuxBackend::key_bindings(const nd_core::WindowInfo&,
    const std::vector<nd_core::Element>& elements, std::chrono::milliseconds deadline)
{
    return m_actuator->key_bindings(elements, deadline);
}

} // namespace nd_linux

#include "driver/daemon/shared_display.h"

#include <optional>

namespace nd_driver {

using nd_core::ErrorCode;
using nd_core::make_error;

class SharedDisplay::ViewOverlay final : public nd_core::Overlay {
public:
    ViewOverlay(SharedDisplay& display, nd_core::Overlay& real) : m_display(display), m_real(real) {}
    ~ViewOverlay() override
    {
        {
            std::lock_guard calls(m_display.m_calls);
            hide_indicator();
        }
        set_continue_handler({});
    }

    nd_core::Result<void> show_indicator() override
    {
        {
            std::lock_guard lock(m_display.m_owners);
            if (m_display.m_indicator_owner && m_display.m_indicator_owner != this)
                return make_error(ErrorCode::backend_unavailable, "another host of this daemon holds the takeover on this display");
        }
        // Tool calls run one at a time (calls()), so nobody shows it between the check and here.
        TRY_VOID(m_real.show_indicator());
        std::lock_guard lock(m_display.m_owners);
        m_display.m_indicator_owner = this;
        return {};
    }
    void set_paused(bool paused) override
    {
        if (holds())
            m_real.set_paused(paused);
    }
    void hide_indicator() override
    {
        if (!holds())
            return;
        m_real.hide_indicator();
        std::lock_guard lock(m_display.m_owners);
        m_display.m_indicator_owner = nullptr;
    }
    bool indicator_alive() override { return holds() && m_real.indicator_alive(); }
    void set_continue_handler(std::function<void()> handler) override
    {
        std::lock_guard lock(m_display.m_continue);
        m_handler = std::move(handler);
    }

    // Under m_display.m_continue.
    const std::function<void()>& handler() const { return m_handler; }

private:
    bool holds()
    {
        std::lock_guard lock(m_display.m_owners);
        return m_display.m_indicator_owner == this;
    }

    SharedDisplay& m_display;
    nd_core::Overlay& m_real;
    std::function<void()> m_handler;
};

class SharedDisplay::ViewClipboard final : public nd_core::Clipboard {
public:
    ViewClipboard(SharedDisplay& display, nd_core::Clipboard& real) : m_display(display), m_real(real) {}

    nd_core::Result<std::string> read_text() override { return m_real.read_text(); }
    nd_core::Result<void> write_text(std::string_view text) override
    {
        TRY_VOID(m_real.write_text(text));
        std::lock_guard lock(m_display.m_owners);
        m_display.m_clipboard_owner = this;
        return {};
    }
    void release() override
    {
        {
            std::lock_guard lock(m_display.m_owners);
            if (m_display.m_clipboard_owner != this)
                return;
            m_display.m_clipboard_owner = nullptr;
        }
        m_real.release();
    }

private:
    SharedDisplay& m_display;
    nd_core::Clipboard& m_real;
};

// Everything but the overlay and the clipboard is the backend's own.
class SharedDisplay::View final : public nd_core::Backend {
public:
    explicit View(SharedDisplay& display) : m_real(display.m_backend)
    {
        if (auto* overlay = m_real.overlay())
            m_overlay.emplace(display, *overlay);
        if (auto* clipboard = m_real.clipboard())
            m_clipboard.emplace(display, *clipboard);
    }

    std::string name() const override { return m_real.name(); }
    std::string session_type() const override { return m_real.session_type(); }
    nd_core::WindowSource* windows() override { return m_real.windows(); }
    nd_core::TreeReader* trees() override { return m_real.trees(); }
    nd_core::ElementFinder* finder() override { return m_real.finder(); }
    nd_core::Actuator* actuator() override { return m_real.actuator(); }
    nd_core::SyntheticInput* input() override { return m_real.input(); }
    nd_core::InputWatcher* watcher() override { return m_real.watcher(); }
    nd_core::Capture* capture() override { return m_real.capture(); }
    nd_core::Clipboard* clipboard() override { return m_clipboard ? &*m_clipboard : nullptr; }
    nd_core::Overlay* overlay() override { return m_overlay ? &*m_overlay : nullptr; }
    nd_core::Screen* screen() override { return m_real.screen(); }
    nd_core::OwnSurfaces* own_surfaces() override { return m_real.own_surfaces(); }
    nd_core::Result<std::unique_ptr<nd_core::InputLease>> lease_input() override { return m_real.lease_input(); }
    nd_core::RegistryReport registry() override { return m_real.registry(); }
    nd_core::ConsentProvider* consent_dialog() override { return m_real.consent_dialog(); }
    nd_core::ConfirmProvider* confirm_dialog() override { return m_real.confirm_dialog(); }
    nd_core::WindowKeys* window_keys() override { return m_real.window_keys(); }
    nd_core::WindowPointer* window_pointer() override { return m_real.window_pointer(); }
    nd_core::BackgroundRoutes background_routes(const nd_core::WindowInfo& w) override { return m_real.background_routes(w); }

private:
    nd_core::Backend& m_real;
    // Declared last: destroyed first, giving back what this view holds.
    std::optional<ViewClipboard> m_clipboard;
    std::optional<ViewOverlay> m_overlay;
};

SharedDisplay::SharedDisplay(nd_core::Backend& backend) : m_backend(backend)
{
    if (auto* overlay = m_backend.overlay())
        overlay->set_continue_handler([this] { on_continue(); });
}

SharedDisplay::~SharedDisplay()
{
    if (auto* overlay = m_backend.overlay())
        overlay->set_continue_handler({});
}

std::unique_ptr<nd_core::Backend> SharedDisplay::view() { return std::make_unique<View>(*this); }

void SharedDisplay::on_continue()
{
    // The holder's engine resumes under its own lock, and the display's keeps the other
    // connections' calls off the backend meanwhile. Holding m_continue keeps the holder's handler
    // (and its engine) alive until it returns: an engine clears its handler under it before it goes.
    // The order everywhere: m_calls, m_continue, an engine's lock, m_owners.
    std::lock_guard calls(m_calls);
    std::lock_guard hold(m_continue);
    const ViewOverlay* holder = nullptr;
    {
        std::lock_guard lock(m_owners);
        holder = static_cast<const ViewOverlay*>(m_indicator_owner);
    }
    if (holder && holder->handler())
        holder->handler()();
}

} // namespace nd_driver

#pragma once

// The Actuator of the Linux backend: headless actions through AT-SPI only. It never moves the
// pointer, sends keys, takes focus or raises a window; what an element's own interfaces cannot do
// fails here and is left to the synthetic-input path. set_value and insert_text go through the
// routes of atspi_value_routes.h, which read their effect back.
//
// An element is found again from its key ("<bus name>|<object path>"); the bus name must still
// belong to the window's pid, and an object that is gone is element_not_found. Every operation
// is bounded by one deadline (2 s unless set_timeout says otherwise). Secure fields are never
// read or written here, whatever the caller checked before.

#include "backend/linux/atspi/atspi_bus.h"
#include "backend/linux/atspi/atspi_message.h"
#include "backend/linux/atspi/atspi_value_routes.h"
#include "core/backend/actuator.h"

namespace nd_linux {

class AtspiActuator final : public nd_core::Actuator {
public:
    explicit AtspiActuator(AtspiBus&);

    void set_timeout(std::chrono::milliseconds timeout) { m_timeout = timeout; }

    nd_core::Result<void> do_action(const nd_core::WindowInfo&, const nd_core::Element&, std::string_view action) override;
    nd_core::Result<void> set_value(const nd_core::WindowInfo&, const nd_core::Element&, std::string_view value) override;
    nd_core::Result<void> insert_text(const nd_core::WindowInfo&, const nd_core::Element&, std::string_view text) override;
    nd_core::Result<void> select(const nd_core::WindowInfo&, const nd_core::Element&) override;
    nd_core::Result<std::string> read_value(const nd_core::WindowInfo&, const nd_core::Element&) override;
    nd_core::Result<bool> is_secure_now(const nd_core::WindowInfo&, const nd_core::Element&) override;
    nd_core::Result<bool> is_focused_now(const nd_core::WindowInfo&, const nd_core::Element&) override;
    // The raw AT-SPI key binding of the first action of each element that has actions ("" for the
    // others), in one batch under `deadline`; for the desk's snapshot with keys (DeskParts).
    nd_core::Result<std::vector<std::string>> key_bindings(const std::vector<nd_core::Element>&, std::chrono::milliseconds deadline);
    nd_core::Result<std::vector<std::string>> action_names(const nd_core::WindowInfo&,
                                                           const nd_core::Element&) override;
    // Component.GrabFocus: the one call here that moves the focus, made only when a front asks for
    // it by name (the desk's act focus).
    nd_core::Result<void> grab_focus(const nd_core::WindowInfo&, const nd_core::Element&) override;

private:
    // What an operation needs to know of the live object, read in one round trip.
    using Live = LiveObject;
    nd_core::Result<ObjectRef> resolve(const nd_core::WindowInfo&, const nd_core::Element&, Deadline);
    nd_core::Result<Live> live(const nd_core::WindowInfo&, const nd_core::Element&, Deadline);
    nd_core::Result<Live> inspect(ObjectRef, Deadline);
    nd_core::Result<bool> secure(const Live&, Deadline);
    nd_core::Result<void> expect_true(const Method&, const ArgWriter&, Deadline);

    AtspiBus& m_bus;
    std::chrono::milliseconds m_timeout = DEFAULT_CALL_TIMEOUT;
};

} // namespace nd_linux

#include "backend/linux/atspi/atspi_probe.h"

#include "backend/linux/atspi/atspi_bus.h"
#include "backend/linux/atspi/atspi_names.h"

#include <cstdlib>
#include <cstring>

namespace nd_linux {

namespace {

constexpr std::chrono::milliseconds PROBE_STEP{500};

// Whether the session bus has an owner for org.a11y.Bus, without starting one.
bool session_names_a11y_bus(std::string& error)
{
    sd_bus* raw = nullptr;
    int r = sd_bus_open_user(&raw);
    if (r < 0) {
        error = std::string("no session bus: ") + std::strerror(-r);
        return false;
    }
    std::unique_ptr<sd_bus, decltype(&sd_bus_flush_close_unref)> session(raw, &sd_bus_flush_close_unref);
    sd_bus_message* call = nullptr;
    r = sd_bus_message_new_method_call(raw, &call, DBUS_NAME, DBUS_PATH, DBUS_IFACE, "NameHasOwner");
    MessagePtr request(call);
    if (r >= 0)
        r = sd_bus_message_append(call, "s", "org.a11y.Bus");
    sd_bus_error e = SD_BUS_ERROR_NULL;
    sd_bus_message* reply = nullptr;
    if (r >= 0)
        r = sd_bus_call(raw, call, static_cast<std::uint64_t>(PROBE_STEP.count()) * 1000, &e, &reply);
    MessagePtr answer(reply);
    int owned = 0;
    if (r >= 0)
        r = sd_bus_message_read_basic(reply, 'b', &owned);
    if (r < 0) {
        error = std::string("the session bus did not answer NameHasOwner: ") + (e.name ? e.name : std::strerror(-r));
        sd_bus_error_free(&e);
        return false;
    }
    if (!owned)
        error = "nothing owns org.a11y.Bus on the session bus (no AT-SPI bus launcher)";
    return owned != 0;
}

} // namespace

AtspiProbe probe_atspi()
{
    AtspiProbe probe;
    if (const char* env = std::getenv("AT_SPI_BUS_ADDRESS"); env && *env) {
        probe.advertised = true;
        probe.address = env;
    } else {
        probe.advertised = session_names_a11y_bus(probe.error);
        if (!probe.advertised)
            return probe;
        auto address = address_from_session_bus(PROBE_STEP);
        if (!address) {
            probe.error = address.error().message;
            return probe;
        }
        probe.address = *address;
    }
    auto bus = AtspiBus::open_address(probe.address);
    if (!bus) {
        probe.error = bus.error().message;
        return probe;
    }
    auto reply = (*bus)->call({REGISTRY_NAME, ROOT_PATH, IFACE_ACCESSIBLE, "GetChildren"}, {}, deadline_in(PROBE_STEP));
    if (!reply) {
        probe.error = "the AT-SPI registry did not answer: " + reply.error().message;
        return probe;
    }
    probe.reachable = true;
    return probe;
}

} // namespace nd_linux

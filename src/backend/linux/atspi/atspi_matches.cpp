#include "backend/linux/atspi/atspi_matches.h"

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_names.h"

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

std::vector<std::int32_t> role_bits(const std::vector<std::uint32_t>& roles)
{
    std::vector<std::int32_t> words;
    for (std::uint32_t role : roles) {
        std::size_t word = role / 32;
        if (words.size() <= word)
            words.resize(word + 1, 0);
        words[word] = static_cast<std::int32_t>(static_cast<std::uint32_t>(words[word]) | (1u << (role % 32)));
    }
    return words;
}

int append_match_rule(sd_bus_message* m, const std::vector<std::uint32_t>& roles)
{
    const std::vector<std::int32_t> bits = role_bits(roles);
    // An empty set with MATCH_ALL matches everything; MATCH_INVALID (0) would match nothing in
    // at-spi2-atk. Roles use MATCH_ANY: at-spi2-atk's MATCH_ALL compares its own role numbers
    // with ours and takes only a single role.
    int r = sd_bus_message_open_container(m, SD_BUS_TYPE_STRUCT, "aiia{ss}iaiiasib");
    if (r >= 0)
        r = sd_bus_message_append_array(m, 'i', nullptr, 0); // states
    if (r >= 0)
        r = sd_bus_message_append(m, "i", MATCH_ALL);
    if (r >= 0)
        r = sd_bus_message_append(m, "a{ss}", 0); // attributes
    if (r >= 0)
        r = sd_bus_message_append(m, "i", MATCH_ALL);
    if (r >= 0)
        r = sd_bus_message_append_array(m, 'i', bits.data(), bits.size() * sizeof(std::int32_t));
    if (r >= 0)
        r = sd_bus_message_append(m, "i", bits.empty() ? MATCH_ALL : MATCH_ANY);
    if (r >= 0)
        r = sd_bus_message_append(m, "as", 0); // interfaces
    if (r >= 0)
        r = sd_bus_message_append(m, "ib", MATCH_ALL, 0); // invert = false
    if (r >= 0)
        r = sd_bus_message_close_container(m);
    return r;
}

int append_get_matches_args(sd_bus_message* m, const std::vector<std::uint32_t>& roles, std::int32_t count)
{
    int r = append_match_rule(m, roles);
    if (r >= 0)
        r = sd_bus_message_append(m, "uib", SORT_CANONICAL, count, 1);
    return r;
}

nd_core::Result<Matches> get_matches(AtspiBus& bus, const ObjectRef& root, const std::vector<std::uint32_t>& roles,
                                     std::int32_t count, Deadline deadline)
{
    if (root.null())
        return make_error(ErrorCode::window_target_not_found, "the window has no AT-SPI object");
    Matches out;
    bool failed = false, gone = false, method_unknown = false;
    // Qt 5 answers a call of an interface it lacks with UnknownObject, which otherwise means the
    // object is gone; the object's interfaces, asked in the same round trip, tell the two apart.
    bool alive = false;
    std::uint32_t interfaces = 0;
    AtspiBatch batch(bus, deadline);
    batch.add({root.bus, root.path, IFACE_COLLECTION, "GetMatches"},
              [&roles, count](sd_bus_message* m) { return append_get_matches_args(m, roles, count); },
              [&](const Reply& reply) {
                  if (reply.ok()) {
                      // A reply of another shape is a Collection this backend cannot use.
                      out.supported = read_refs(reply.message, out.refs) >= 0;
                      if (!out.supported)
                          out.refs.clear();
                      return;
                  }
                  failed = true;
                  gone = dbus_error_is_gone(reply.error);
                  method_unknown = dbus_error_is_unknown_method(reply.error);
              });
    batch.add({root.bus, root.path, IFACE_ACCESSIBLE, "GetInterfaces"}, {}, [&](const Reply& reply) {
        alive = reply.ok() && read_interfaces(reply.message, interfaces) >= 0;
    });
    TRY_VOID(batch.run());
    if (!failed)
        return out;
    if (gone && !alive)
        return make_error(ErrorCode::window_target_not_found, "the window's AT-SPI object went away during the search");
    out.supported = false;
    out.refs.clear();
    out.no_such_method = method_unknown || (alive && !(interfaces & IF_COLLECTION));
    return out;
}

} // namespace nd_linux

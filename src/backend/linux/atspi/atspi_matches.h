#pragma once

// One call of org.a11y.atspi.Collection.GetMatches (at-spi2-core's xml/Collection.xml): the app
// itself walks its tree below an object and answers with the references of every descendant that
// fits a match rule, in one reply. For a Chromium document of 10,500 nodes that is about 250 ms,
// where asking node by node costs several calls per node.
//
// The rule this backend sends constrains roles only (any of the given ones); states, attributes
// and interfaces are left open. The object the call is sent to is never among the matches.
// Toolkits without the interface answer UnknownMethod (GTK 4) or UnknownObject (Qt 5): `supported`
// is false and the caller reads the window instead.

#include "backend/linux/atspi/atspi_bus.h"
#include "backend/linux/atspi/atspi_message.h"

#include <cstdint>
#include <vector>

namespace nd_linux {

// AtspiCollectionMatchType and AtspiCollectionSortOrder (atspi-constants.h).
enum CollectionMatch : std::int32_t { MATCH_ALL = 1, MATCH_ANY = 2 };
inline constexpr std::uint32_t SORT_CANONICAL = 1;

// Roles as the rule carries them: a bit set in 32-bit words, role r at bit r % 32 of word r / 32.
std::vector<std::int32_t> role_bits(const std::vector<std::uint32_t>& roles);

// Appends a match rule (aiia{ss}iaiiasib) that takes objects of any of `roles`, or every object when
// `roles` is empty.
int append_match_rule(sd_bus_message*, const std::vector<std::uint32_t>& roles);
// Appends GetMatches' arguments: the rule (aiia{ss}iaiiasib), sort order canonical, `count` (0 for
// no bound) and traverse = true (descend into objects that are collections themselves).
int append_get_matches_args(sd_bus_message*, const std::vector<std::uint32_t>& roles, std::int32_t count);

struct Matches {
    bool supported = false;        // false: the app has no Collection, or refused this call
    bool no_such_method = false;   // the refusal was UnknownMethod (or interface): do not ask again
    std::vector<ObjectRef> refs;   // canonical order (preorder)
};

// Calls GetMatches on `root` under `deadline`, with the object's GetInterfaces in the same round
// trip. Fails with window_target_not_found when the object or its app is gone, and with the
// batch's app_not_responding / timed_out when no answer comes.
nd_core::Result<Matches> get_matches(AtspiBus&, const ObjectRef& root, const std::vector<std::uint32_t>& roles,
                                     std::int32_t count, Deadline);

} // namespace nd_linux

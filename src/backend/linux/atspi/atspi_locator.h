#pragma once

// Finds the AT-SPI object of an X window: the app whose bus connection belongs to the window's pid,
// then, among that app's top-level children, the frame whose name is the window's title, else the
// one whose extents best match the window's frame.

#include "backend/linux/atspi/atspi_bus.h"
#include "backend/linux/atspi/atspi_cache.h"
#include "core/model/element.h"

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

namespace nd_linux {

// One top-level child of an app, with what choosing needs.
struct TopLevel {
    ObjectRef ref;
    std::string name;
    std::uint32_t role = 0;
    AtspiStates states;
    nd_core::Frame frame;
    bool has_frame = false;
};

// The located window: the app, its chosen top-level, and the app's cache when it answered.
struct LocatedWindow {
    ObjectRef app;
    TopLevel top;
    std::shared_ptr<const ItemCache> cache; // null when the app offers none
    bool cache_refused = false;             // the app has no Cache.GetItems (Qt5): do not ask again
};

// The apps (registry children) whose connection pid is `pid`.
nd_core::Result<std::vector<ObjectRef>> apps_of_pid(AtspiBus&, std::int64_t pid, Deadline);

// The whole look-up. The app's Cache.GetItems is fetched in the same round trip as its children,
// unless the app is in `no_cache` (it refused before). Fails with window_target_not_found when no
// app or top-level matches, and with app_not_accessible when the window's process lives but has no
// app on the bus (it does not take part in accessibility, or has not joined yet).
nd_core::Result<LocatedWindow> locate_window(AtspiBus&, const nd_core::WindowInfo&,
                                             const std::unordered_set<std::string>& no_cache, Deadline);

// Picks the top-level for a window (pure, so tests can feed it made-up candidates); -1 when none
// fits: a name equal to a non-empty title wins, ties and nameless cases go to the best overlap of
// extents with the window's frame (at least 30%), and a lone showing top-level is taken when the
// window gives neither.
int choose_top_level(const std::vector<TopLevel>&, const nd_core::WindowInfo&);

} // namespace nd_linux

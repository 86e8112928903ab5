#pragma once

// The ElementFinder of the Linux backend: searches a window through AT-SPI's
// Collection.GetMatches where the app offers it, else reads the window and filters.
//
// A search locates the window's frame (atspi_locator.h), asks the app for the descendants of the
// frame that have the query's role (atspi_matches.h: one call, the app walks its own tree), then
// fetches what the matches need, all pipelined (atspi_match_fetch.h). Apps that answer GetMatches
// with UnknownMethod (GTK 4, Qt 5) are remembered and searched by a whole-window read through
// AtspiTreeReader under the same deadline. Both paths return the same elements: preorder, frame
// first when it fits, secure roles marked, no values.

#include "backend/linux/atspi/atspi_bus.h"
#include "backend/linux/atspi/atspi_tree_reader.h"
#include "core/backend/element_finder.h"

#include <string>
#include <unordered_set>

namespace nd_linux {

class AtspiFinder final : public nd_core::ElementFinder {
public:
    explicit AtspiFinder(AtspiBus&);

    nd_core::Result<nd_core::FindResult> find(const nd_core::WindowInfo&, const nd_core::FindQuery&) override;
    // The popup surfaces its reads place popovers' rows by (AtspiTreeReader::set_popup_lookup).
    void set_popup_lookup(AtspiTreeReader::PopupLookup lookup) { m_reader.set_popup_lookup(std::move(lookup)); }

    // How the last successful search went (tests, benchmarks, doctor).
    struct LastFind {
        bool used_matches = false;       // answered through Collection.GetMatches
        std::size_t matches = 0;         // references GetMatches named
        std::size_t calls = 0;           // D-Bus calls after locating (GetMatches included)
        std::size_t from_cache = 0;      // matches the app's Cache.GetItems held
        std::size_t read_elements = 0;   // elements of the fallback read
        std::size_t elements = 0;        // elements returned
    };
    const LastFind& last_find() const { return m_last; }

    // A search bounds the fallback read by this many elements; a read cut there sets truncated.
    static constexpr std::int32_t FALLBACK_MAX_ELEMENTS = 20000;
    // GetMatches is asked for at most this many references when names must be filtered here.
    static constexpr std::int32_t MAX_CANDIDATES = 100000;

private:
    nd_core::Result<nd_core::FindResult> read_and_filter(const nd_core::WindowInfo&, const LocatedWindow&,
                                                         const nd_core::FindQuery&, Deadline);

    AtspiBus& m_bus;
    // Locates windows (remembering apps without a cache) and reads them whole for the fallback.
    AtspiTreeReader m_reader;
    // Apps without Collection.GetMatches: not asked again.
    std::unordered_set<std::string> m_no_collection;
    std::uint64_t m_bus_generation = 0; // the set's names belong to this connection of the bus
    LastFind m_last;
};

} // namespace nd_linux

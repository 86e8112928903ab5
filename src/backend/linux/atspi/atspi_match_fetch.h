#pragma once

// What a search needs of the objects GetMatches named, fetched in one pipelined batch.
//
// The matches arrive as bare references in preorder. When the query names a fragment, each
// candidate's Name is asked first (from the app's cache when it holds the object), at most
// NAME_WINDOW look-ups in flight, so a search that finds its max_results early stops asking.
// Candidates are decided strictly in preorder, whatever order replies come in: the first
// max_results whose name fits are accepted, one more fitting sets truncated. An accepted
// candidate's facts go out at once in the same batch: role (unless the rule fixed it), name,
// state, then screen extents when showing, and its action names. Values are never read
// (element_finder.h says why). A candidate that vanishes meanwhile is dropped.

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_cache.h"
#include "backend/linux/atspi/atspi_locator.h"
#include "core/backend/element_finder.h"

#include <memory>
#include <optional>
#include <vector>

namespace nd_linux {

class MatchFetch {
public:
    static constexpr std::size_t NAME_WINDOW = 256;

    // `role`: the AT-SPI role the rule fixed (then no GetRole is sent). `root`: the window's frame,
    // whose facts the locator already has; it is the first candidate when it fits the query's role.
    MatchFetch(AtspiBus&, Deadline, std::shared_ptr<const ItemCache>, const nd_core::FindQuery&,
               std::optional<std::uint32_t> role, const TopLevel& root);
    ~MatchFetch();
    MatchFetch(const MatchFetch&) = delete;
    MatchFetch& operator=(const MatchFetch&) = delete;

    // `capped`: GetMatches stopped at its count bound, so more may match than it named.
    nd_core::Result<nd_core::FindResult> run(const std::vector<ObjectRef>& matches, bool capped);

    std::size_t calls() const { return m_batch.sent(); }
    std::size_t from_cache() const { return m_from_cache; }

private:
    struct Candidate;
    void pump_names();
    void advance();
    void accept(std::size_t index);
    void states_known(std::size_t index);
    Candidate& at(std::size_t index) { return *m_candidates[index]; }
    bool showing(const AtspiStates& s) const
    {
        return s.has(ATSPI_STATE_SHOWING) || (m_visible_means_showing && s.has(ATSPI_STATE_VISIBLE));
    }

    AtspiBatch m_batch;
    std::shared_ptr<const ItemCache> m_cache;
    const nd_core::FindQuery& m_query;
    std::optional<std::uint32_t> m_role;
    const TopLevel& m_root;
    bool m_visible_means_showing = false;

    std::vector<std::unique_ptr<Candidate>> m_candidates;
    std::size_t m_next_name = 0;    // next candidate whose name is to be asked
    std::size_t m_names_in_flight = 0;
    std::size_t m_frontier = 0;     // candidates before it are decided
    std::size_t m_accepted = 0;
    std::size_t m_from_cache = 0;
    bool m_done = false;            // max_results accepted and one more fitting seen
};

} // namespace nd_linux

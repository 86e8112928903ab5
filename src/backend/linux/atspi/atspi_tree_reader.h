#pragma once

// The TreeReader of the Linux backend: reads a window's accessibility tree over AT-SPI.
//
// A read finds the window's app by pid and its frame by title or extents (atspi_locator.h), then
// reads the frame's subtree (atspi_walker.h): from the app's Cache.GetItems where it is complete,
// by a pipelined walk where it is not. Every call of a read shares the read's deadline.

#include "backend/linux/atspi/atspi_bus.h"
#include "backend/linux/atspi/atspi_locator.h"
#include "backend/linux/atspi/atspi_toolkit.h"
#include "backend/linux/atspi/atspi_walker.h"
#include "backend/linux/atspi/atspi_warm.h"
#include "core/backend/tree_reader.h"

#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace nd_linux {

class AtspiTreeReader final : public nd_core::TreeReader {
public:
    explicit AtspiTreeReader(AtspiBus&);

    // By default only showing objects get a frame (see atspi_walker.cpp for why).
    void set_walk_options(WalkOptions options) { m_options = options; }
    // Whether a cold read of a Chromium or Gecko window whose page the app's item cache lacks
    // takes the page's outline first (atspi_outline.h). On by default; NISH_ATSPI_OUTLINE=0 turns
    // it off (benchmarks compare).
    void set_outlines(bool on) { m_outlines = on; }
    // The popup surfaces (menus, popovers) of a window's app, which a read of an app that answers
    // frames relative to its surfaces places its popovers' rows by (x11_popups.h).
    using PopupLookup = std::function<nd_core::Result<std::vector<nd_core::WindowInfo>>(std::int64_t window_id)>;
    void set_popup_lookup(PopupLookup lookup) { m_popups = std::move(lookup); }

    nd_core::Result<nd_core::RawTree> read_window(const nd_core::WindowInfo&, const nd_core::ReadLimits&) override;
    // The two halves of read_window, for callers that need the located frame too (the finder):
    // find the window's app and frame (remembering apps without a cache), then read its subtree
    // under `limits` and `deadline` (limits.deadline is not used again).
    nd_core::Result<LocatedWindow> locate(const nd_core::WindowInfo&, Deadline);
    nd_core::Result<nd_core::RawTree> read_located(const LocatedWindow&, const nd_core::ReadLimits&, Deadline);
    // When the app of a window's `elements` answers frames relative to its surfaces (GTK 4,
    // atspi_toolkit.h; known by the toolkit its cold read learnt), moves them (all, or only `rows`)
    // to the screen, with the app's popups as the lookup finds them; when it marks only what is
    // visible, what has no place, or lies on a stack page another covers, is not showing.
    // read_window does it; a caller of read_located does it itself.
    void to_screen(const nd_core::WindowInfo&, std::vector<nd_core::Element>&, Deadline,
                   const std::vector<std::int32_t>* rows = nullptr);
    // GetExtents of the showing ones among the rows, and with `action_names` Action.GetName of the
    // actions the read left unnamed, pipelined in one batch.
    nd_core::Result<void> read_frames(const nd_core::WindowInfo&, std::vector<nd_core::Element>&,
                                      const std::vector<std::int32_t>& indices, std::chrono::milliseconds deadline,
                                      bool action_names = false) override;

    // A Peer.Ping to each AT-SPI app of the window's process, in one batch.
    nd_core::Result<void> sync_app(const nd_core::WindowInfo&, std::chrono::milliseconds deadline) override;
    void prepare() override { m_warm.listen(); }

    // What the last successful read cost (for benchmarks and doctor).
    struct LastRead {
        std::size_t elements = 0;
        std::size_t calls = 0;
        std::size_t from_cache = 0;
        std::size_t outlined = 0; // objects the read's outline held (0: none was asked)
        std::size_t frames_left = 0; // showing objects whose frames the walk left to the views
        bool used_cache = false;
        bool used_peer = false; // the app's peer-to-peer connection carried the read
        bool warm = false;      // answered from the last read and the app's events (atspi_warm.h)
        std::string toolkit;    // the app's toolkit name, as the last cold read learned it
    };
    const LastRead& last_read() const { return m_last; }
    // Action.GetName calls sent by read_frames so far (a warm read's view asks none again).
    std::size_t action_name_calls() const { return m_action_name_calls; }
    WarmTrees& warm() { return m_warm; }

private:
    AtspiBus& m_bus;
    WalkOptions m_options;
    // Apps that answered Cache.GetItems with "no such method" (Qt5): not asked again.
    std::unordered_set<std::string> m_no_cache;
    std::uint64_t m_bus_generation = 0; // m_no_cache's names belong to this connection of the bus
    // Outlines: on or off; apps that answered GetTree with "no such method"; windows (their
    // frames' keys) whose outline held more than OUTLINE_MAX_PER_ELEMENT times the budget (the walk
    // would read no more than three times it) or did not come by the read's deadline, read node
    // by node since.
    static constexpr std::size_t OUTLINE_MAX_PER_ELEMENT = 10;
    bool m_outlines = true;
    std::unordered_set<std::string> m_no_outline;
    std::unordered_set<std::string> m_outline_too_big;
    // Which outline a walk of `located` takes, if any: a whole one where the item cache lacks the
    // page, one of action counts where the cache holds it and the toolkit counts its actions.
    std::optional<OutlineKind> wants_outline(const LocatedWindow&, const std::string& toolkit) const;
    // The outline for a walk of `located`, or null; remembers apps and windows not to ask again.
    nd_core::Result<std::shared_ptr<const Outline>> outline_of(const LocatedWindow&, const nd_core::ReadLimits&, Deadline,
                                                               OutlineKind);
    LastRead m_last;
    std::size_t m_action_name_calls = 0;
    WalkOptions m_last_options;   // how the last cold walk ran, for the warm reads after it
    bool m_last_visible = false;  // whether visible stood for showing in it
    // An app's toolkit name (WalkOptions::positional_item_views for Qt and Java), asked until
    // the app answers, then remembered.
    nd_core::Result<std::string> toolkit_of(const std::string& app, Deadline);
    // The toolkit a window's elements' app named (null when no cold read learnt it), and the two
    // ways it may answer other than AT-SPI says (atspi_toolkit.h).
    const std::string* known_toolkit(const std::vector<nd_core::Element>&) const;
    bool frames_in_window(const std::vector<nd_core::Element>&) const;
    bool shows_by_place(const std::vector<nd_core::Element>&) const;
    std::unordered_map<std::string, std::string> m_toolkits;
    PopupLookup m_popups;
    // The last focused child seen in each container that manages its descendants (bounded).
    TreeWalk::FocusedChildren m_focused_children;
    WarmTrees m_warm;
};

} // namespace nd_linux

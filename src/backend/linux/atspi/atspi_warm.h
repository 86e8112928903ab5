#pragma once

// Warm reads (docs/linux-atspi.md, "Warm reads"): a window read again answers from the tree of its
// last read, brought up to date from the AT-SPI events its app sent since (atspi_events.h).
//
// Contract: a warm read returns exactly what a cold read would at the same moment, element for
// element: the same rows in the same preorder with the same keys, roles, names, descriptions,
// values, states and actions. To get there it syncs with the app (so every event sent before now is
// in), re-walks the subtree of every object whose children changed, reads the facts of every
// object whose own facts changed (and of the parent of one whose focus changed, and of every row
// that reads focused: toolkits move the focus with less said), and reads afresh the frames a view
// returns (the root's, secure fields' and the showing rows'). A showing row whose place moved
// relative to the window without an event is read again, with the hidden rows beside and below
// it (whether a row shows follows its place: Chromium announces no scroll, GTK3 no widget
// scrolled out of its viewport); many rows that moved are a scroll, after which every row's states
// are asked again (follow_scroll). Whenever that cannot be trusted it declines and the caller reads
// cold: the app may not know of the listeners yet, its record overflowed, a scroll where rows show
// by their place (GTK 4) or are keyed by it (Qt's item views), the window holds a container that
// manages its descendants (its visible part follows scrolling), a window of it came or went, a
// changed object is not in a read the budget cut, the bus was replaced, or the window was not read
// for a minute.
//
// Frames kept: a read that the events changed nothing of keeps the frames of the rows where the
// window system says nothing was drawn since PAINT_SETTLE before they were read, and asks those of
// the rows drawn over or that it cannot watch (covered by another window, off the screen), with a
// sample of eight (atspi_paint_watch.h): a scroll or a layout move redraws what shows, and the
// app's tree follows its drawing within that while (the sample, which a scroll moves, is asked in
// case it did not).
//
// Not seen: a row that was off screen and moves into view while no showing row moves (an
// animation of that row alone); it shows at the next cold read (MAX_WARM_AGE). Nor, where frames
// are kept, a showing row that moves while drawing nothing (an empty, transparent one).
//
// The reader owns one WarmTrees; nothing here is thread-safe beyond what AtspiEvents guards.

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_events.h"
#include "backend/linux/atspi/atspi_paint_watch.h"
#include "backend/linux/atspi/atspi_walker.h"

#include <functional>
#include <optional>

namespace nd_linux {

// What a cold read leaves for the warm ones that follow.
struct ColdRead {
    ObjectRef app;
    ObjectRef top;
    nd_core::ReadLimits limits;
    bool item_cache = false;      // facts and child order came from the app's Cache.GetItems
    std::string toolkit;          // Application.ToolkitName: "gtk" is GTK3's bridge
    WalkOptions options;          // as the cold walk ran (property gets, deferred frames)
    bool visible_means_showing = false;
};

struct WarmStats {
    std::size_t warm = 0;         // reads answered warm
    std::size_t declined = 0;     // reads that fell back to cold
    std::size_t rewalked = 0;     // subtrees re-walked by the last warm read
    std::size_t refetched = 0;    // objects whose facts the last warm read asked again
    std::size_t differed = 0;     // of those, objects whose facts were not the ones kept
    std::size_t checked = 0;      // objects outside documents whose children the last warm read compared
    std::size_t framed = 0;       // frames the last warm read asked afresh
    std::size_t restated = 0;     // rows whose states the last warm read asked after a scroll
    bool frames_kept = false;     // the last warm read kept its frames where nothing was drawn (PaintWatch)
    // Where the last warm read's time went, in microseconds: the ping, applying the events, the
    // structure check and the frames (one batch), what followed them (the second asks of the
    // check, parts walked again, moved rows read again).
    std::int64_t sync_us = 0, apply_us = 0, check_us = 0, frames_us = 0;
    std::string last_decline;     // why the last one fell back (no app text)
};

class WarmTrees {
public:
    static constexpr std::size_t MAX_WINDOWS = 32;
    static constexpr std::size_t MAX_UNKNOWN = 16; // changed objects outside the read, traced to it
    static constexpr int MAX_ANCESTRY = 64;
    static constexpr std::size_t MAX_MOVED = 16;     // rows that changed place, read again; more is a scroll
    static constexpr std::size_t MAX_REREAD = 256;   // those and the hidden rows beside them, read again
    static constexpr std::size_t MAX_SCROLLED = 6000; // rows whose states a read asks after a scroll
    static constexpr std::size_t MAX_HELD_FOCUS = 8; // rows that read focused, asked again on every read
    static constexpr std::size_t MAX_UNSETTLED_PAGES = 8; // pages on screen that read without text, the same
    static constexpr auto MAX_IDLE = std::chrono::seconds(60);
    // A cold read at least this often, whatever the events say: the bound on trusting them.
    static constexpr auto MAX_WARM_AGE = std::chrono::seconds(30);
    // Apps learn of new listeners from the registry's broadcast; after this long, one that has sent
    // nothing has had nothing to send.
    static constexpr auto LISTENER_SETTLE = std::chrono::seconds(1);
    // Frames read at least this long after a window's last drawing are its frames until it draws
    // again: the app's tree has caught up with what it drew (Chromium sends its layout's places to
    // its tree apart from its pixels).
    static constexpr auto PAINT_SETTLE = std::chrono::seconds(1);
    static constexpr std::size_t FRAME_SAMPLES = 8; // frames a read that keeps them asks all the same

    explicit WarmTrees(AtspiBus&);
    ~WarmTrees();

    // NISH_WARM_READS=0 turns warm reads off (benchmarks and tests compare both);
    // NISH_WARM_TRACE=1 writes to stderr why a read went cold, or where a warm one's time went.
    void set_enabled(bool on) { m_enabled = on; }
    bool enabled() const { return m_enabled; }
    bool tracing() const { return m_trace; }

    // Opens the event connection now (TreeReader::prepare), when warm reads are on.
    void listen()
    {
        if (m_enabled)
            ensure_events();
    }
    // The warm answer for `window`, or nullopt: read cold, then remember().
    // Windows without an X identity (window_id 0) are always read cold. A read that changed
    // nothing, asked by a caller that holds this tree's version (ReadLimits::held_version),
    // answers `unchanged` and no copy of it.
    std::optional<nd_core::RawTree> read(const nd_core::WindowInfo&, const nd_core::ReadLimits&, Deadline);
    // Before a cold walk of `app`: events from now on count for the next read.
    void before_cold(const std::string& app);
    // Keeps `tree` for the warm reads to come, and reads the frames of its showing rows into it
    // (and the kept copy): the places the next warm read tells a scroll by.
    void remember(const nd_core::WindowInfo&, const ColdRead&, nd_core::RawTree& tree, Deadline);
    void forget(std::int64_t window_id)
    {
        m_entries.erase(window_id);
        if (m_paint)
            m_paint->forget(window_id);
    }
    // What tells whether anything was drawn in a window (frames kept); none: frames are always
    // asked.
    void set_paint_watch(std::unique_ptr<PaintWatch> watch) { m_paint = std::move(watch); }
    std::size_t elements_of(std::int64_t window_id) const
    {
        auto it = m_entries.find(window_id);
        return it == m_entries.end() ? 0 : it->second.tree.elements.size();
    }

    // Action names read one by one for a view (Chromium leaves them empty in GetActions) go into
    // the kept tree, so that they outlive a read while their object does not change: a warm read
    // returns them and its view asks for none.
    void learn_action_names(std::int64_t window_id, const std::vector<nd_core::Element>&,
                            const std::vector<std::int32_t>& rows);

    const WarmStats& stats() const { return m_stats; }

private:
    struct Entry {
        ColdRead cold;
        std::int64_t pid = 0;
        nd_core::RawTree tree;
        AppChanges pending; // changes of its app taken while another of the app's windows was read
        Clock::time_point last_used;
        Clock::time_point cold_at;        // when the cold read began
        std::uint64_t bus_generation = 0;
        // The app's Collection answered otherwise than its GetChildren for an unchanged part:
        // its structure is checked parent by parent.
        bool parts_by_parent = false;
        // Its tree's version (RawTree::version): a new one whenever a read changed the tree.
        std::uint64_t version = 0;
        Clock::time_point frames_at{}; // when the frames it holds were asked (before the asks went)
    };
    void new_version(Entry& e)
    {
        e.version = ++m_versions;
        e.tree.version = e.version;
    }

    bool ensure_events();
    bool fail(std::string why)
    {
        m_why = std::move(why);
        return false;
    }
    std::optional<nd_core::RawTree> decline(std::int64_t window_id, std::string why);
    // Reads again what the changes say changed. With `focus_later`, when the events changed
    // nothing, the rows that read focused are left in it for the caller to ask with its batch
    // (add_state_asks, then focus_lost and refetch) instead of in a round trip of their own.
    bool apply(Entry&, const AppChanges&, Deadline, std::vector<std::int32_t>* focus_later = nullptr);
    // Of `rows` (rows that read focused), keeps those whose objects no longer say focused: a
    // toolkit may take the focus with no event. One GetState each.
    bool keep_focus_lost(const Entry&, std::vector<std::int32_t>& rows, Deadline);
    // The same, of states asked already: `now[k]` for rows[k].
    static void focus_lost(std::vector<std::int32_t>& rows, const std::vector<std::optional<AtspiStates>>& now);
    bool rewalk(Entry&, std::int32_t at, Deadline);
    // Walks again each [row, end) of `walks` (in order, none inside another), splicing each in.
    bool rewalk_all(Entry&, const std::vector<std::pair<std::int32_t, std::int32_t>>& walks, Deadline);
    // How a part of the window is walked again: as its cold read was.
    static WalkOptions part_options(const Entry&, bool inside_secure);
    // Takes the app's recorded changes into the pending changes of each of its windows.
    void take_changes(const std::string& app);
    // The row of the nearest ancestor of `path` that the read holds (-1 when none: another window).
    bool ancestor_in_read(const Entry&, const std::string& path,
                          const std::function<std::int32_t(const std::string&)>& find, Deadline, std::int32_t& out);
    // Reads the facts of `rows` again. A row whose showing changed takes its descendants' with it
    // (at most MAX_SHOWING_REFETCH of them, else the read is cold): showing holds only where every
    // ancestor shows, and toolkits announce the change of the part that opened or hid, not of each
    // object inside it (Qt 5's submenus). The descendants so read go into `added`, when given.
    bool refetch(Entry&, const std::vector<std::int32_t>& rows, Deadline, std::vector<std::int32_t>* added = nullptr,
                 bool with_descendants = true);
    static constexpr std::int32_t MAX_SHOWING_REFETCH = 512;
    // Reads the frames a read returns afresh (the root's, secure fields', and in deferred mode the
    // showing rows'); with `moved`, lists the rows that had a frame and changed place relative to
    // the window's. `changed` is set when any frame differs from the one kept.
    bool refresh_frames(Entry&, Deadline, std::vector<std::int32_t>* moved, bool* changed = nullptr);
    // Where the frames `e` holds may not be the window's now (the paint watch's word): the parts
    // drawn in since PAINT_SETTLE before they were asked, and those it cannot watch. Nothing when
    // anything may have changed, or no watch can tell: every frame is asked.
    std::optional<std::vector<nd_core::Frame>> unsettled_parts(const Entry&, std::int64_t window_id, Deadline);
    // refresh_frames in two steps, so that its calls share a batch with others: the asks, then
    // (after the batch ran, and only while the rows are as they were asked) their answers.
    struct FrameAsks {
        struct Ask {
            std::int32_t row = 0;
            nd_core::Frame frame;
            bool ok = false;
            bool empty = false; // answered, with no area
        };
        std::vector<Ask> asks;              // filled before the batch runs: it answers into them
        std::vector<std::int32_t> unplaced; // rows with an object that a read leaves without a frame
        std::size_t sampled = 0;            // the first asks are a sample, for sample_holds
    };
    // With `sample`, asks that many of the frames only (the root's and others spread over the
    // rows), for sample_holds, and those of the rows whose frame meets one of `parts` (drawn over,
    // or not watched).
    void add_frame_asks(Entry&, FrameAsks&, AtspiBatch&, std::size_t sample = 0,
                        const std::vector<nd_core::Frame>& parts = {});
    // Whether every frame of a sample is the one kept: the app's tree may place rows a while after
    // it drew them (Chromium: about 300 ms after a scroll's last drawing), and a scroll moves every
    // row of the scroller.
    static bool sample_holds(const Entry&, const FrameAsks& sample);
    void take_frames(Entry&, const FrameAsks&, std::vector<std::int32_t>* moved, bool* changed);
    // Reads the rows that moved again (whether they show follows their place), and the hidden rows
    // beside and below them (which may have come into view). Many moved rows are a scroll, which
    // may have brought any row into view or out of it: follow_scroll.
    bool reread_moved(Entry&, const std::vector<std::int32_t>& moved, Deadline);
    // After a scroll: asks every row's states (one GetState each, about a fifth of what a cold read
    // asks of Chromium); a row whose showing alone changed takes its new states, one whose other
    // states changed too is read again (refetch), and `rows` lists both. Toolkits whose rows show
    // by their place (GTK 4) and reads that place hidden rows are read cold.
    bool follow_scroll(Entry&, std::size_t moved, Deadline, std::vector<std::int32_t>& rows);
    // Asks each of `rows` its states in one batch (GetState): `out[k]` for rows[k], none for a row
    // without an object of its own or whose answer is no state set.
    bool ask_states(const Entry&, const std::vector<std::int32_t>& rows, Deadline,
                    std::vector<std::optional<AtspiStates>>& out);
    // The same asks added to `batch`; `out` stays where it is while the batch runs.
    void add_state_asks(const Entry&, const std::vector<std::int32_t>& rows, AtspiBatch&,
                        std::vector<std::optional<AtspiStates>>& out);
    // Rows whose showing may have changed: one that no longer shows loses its frame (a secure
    // field keeps it, as a cold read asks it whatever it says), one that shows now is placed.
    bool place_rows(Entry&, const std::vector<std::int32_t>& rows, Deadline);
    // Outside documents (whose engines announce every change), toolkits leave some changes
    // unannounced (Chromium's own UI): each such parent's children are compared with the app's,
    // and what differs is read again. In two steps, so that its calls share a batch with others:
    // the asks, then (after the batch ran) the comparison, the second asks of parts that differ,
    // and the parts walked again. The check answers into a StructureCheck: it stays where it is
    // while the batch runs.
    struct StructureCheck {
        struct Part { // a part outside documents, compared in one call
            std::int32_t row = 0;
            std::int32_t end = 0;
            std::vector<ObjectRef> live;
            bool answered = false;
        };
        std::vector<Part> parts;
        std::vector<std::vector<std::int32_t>> children; // each row's children in the read
        std::vector<std::int32_t> changed;               // parents whose children differ
        std::size_t asked = 0;
    };
    bool add_structure_check(Entry&, StructureCheck&, AtspiBatch&);
    bool finish_structure_check(Entry&, StructureCheck&, Deadline);
    // Adds the comparison of one parent's children (a leaf's count) with the app's; a row that
    // differs goes into `changed`.
    static void add_children_check(Entry&, AtspiBatch&, std::int32_t row,
                                   const std::vector<std::vector<std::int32_t>>& children,
                                   std::vector<std::int32_t>& changed);

    AtspiBus& m_bus;
    std::uint64_t m_versions = 0;
    std::unique_ptr<AtspiEvents> m_events;
    std::unique_ptr<PaintWatch> m_paint;
    std::uint64_t m_events_generation = 0; // the bus generation m_events listens on
    Clock::time_point m_events_opened{};
    Clock::time_point m_cold_started{};
    Clock::time_point m_last_open_attempt{};
    std::unordered_map<std::int64_t, Entry> m_entries;
    bool m_enabled = true;
    bool m_trace = false; // NISH_WARM_TRACE=1: one line on stderr per read
    std::string m_why;
    WarmStats m_stats;
};

// Replaces the subtree rooted at elements[at] with `sub` (sub[0] its new root, parent -1, depths
// from 0), keeping the array in preorder: parents, depths and the root's parent are fixed up, and
// the rows after it shift. Pure, for tests.
void splice_subtree(std::vector<nd_core::Element>& elements, std::int32_t at, std::vector<nd_core::Element> sub);
// GTK3's cold reads order children as its item cache does, and its GetChildren otherwise: a part
// walked again would come out in another order. An app whose toolkit did not say is taken for one.
bool order_from_cache(const ColdRead&);
// A web document that shows with no place on screen: Gecko has built the page's tree and not laid
// it out yet, and will mark its objects showing with no event. A read that holds one is not kept.
bool document_not_laid_out(const std::vector<nd_core::Element>&);
// GTK3: its structure is compared in any order (its Collection too orders otherwise than its cache).
bool any_order(const ColdRead&);
// The outermost of `rows` as [row, end of its subtree), in order: a row inside another's subtree
// is walked again with it.
std::vector<std::pair<std::int32_t, std::int32_t>> outermost(const std::vector<nd_core::Element>&, std::vector<std::int32_t> rows);

} // namespace nd_linux

#pragma once

// The value types of the model: a window, an element, a frame. Plain copyable structs; live handles
// (D-Bus object paths, X ids) stay inside a backend and appear here only as the opaque `key`.

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nd_core {

struct Frame {
    std::int32_t x = 0;
    std::int32_t y = 0;
    std::int32_t w = 0;
    std::int32_t h = 0;

    bool contains(std::int32_t px, std::int32_t py) const { return px >= x && py >= y && px < x + w && py < y + h; }
    bool has_area() const { return w > 0 && h > 0; }
    // Whether the two share any area (in 64 bits: GTK3 places rows scrolled out of view at INT_MIN).
    bool meets(const Frame& o) const
    {
        return has_area() && o.has_area() && std::int64_t{x} < std::int64_t{o.x} + o.w &&
               std::int64_t{o.x} < std::int64_t{x} + w && std::int64_t{y} < std::int64_t{o.y} + o.h &&
               std::int64_t{o.y} < std::int64_t{y} + h;
    }
    // The area the two share; w or h of 0 or less when they share none.
    Frame shared(const Frame& o) const
    {
        const auto x0 = std::max(x, o.x), y0 = std::max(y, o.y);
        const auto x1 = std::min(std::int64_t{x} + w, std::int64_t{o.x} + o.w);
        const auto y1 = std::min(std::int64_t{y} + h, std::int64_t{o.y} + o.h);
        return {x0, y0, static_cast<std::int32_t>(std::max<std::int64_t>(x1 - x0, 0)),
                static_cast<std::int32_t>(std::max<std::int64_t>(y1 - y0, 0))};
    }
    bool operator==(const Frame&) const = default;
};

// Element states, as bits. Names in state_names() order.
enum State : std::uint32_t {
    STATE_FOCUSED = 1u << 0,
    STATE_FOCUSABLE = 1u << 1,
    STATE_ENABLED = 1u << 2,
    STATE_CHECKED = 1u << 3,
    STATE_CHECKABLE = 1u << 4,
    STATE_SELECTED = 1u << 5,
    STATE_SELECTABLE = 1u << 6,
    STATE_EXPANDED = 1u << 7,
    STATE_EXPANDABLE = 1u << 8,
    STATE_EDITABLE = 1u << 9,
    STATE_SECURE = 1u << 10, // a password or otherwise protected field
    STATE_SHOWING = 1u << 11,
    STATE_MODAL = 1u << 12,
    STATE_MULTI_LINE = 1u << 13,
    STATE_BUSY = 1u << 14,
    STATE_PRESSED = 1u << 15,
    // The toolkit says it is not displayed at all, not merely scrolled out of view: a stack's or
    // a tab widget's pages other than the current one (Qt keeps them in the tree).
    STATE_HIDDEN = 1u << 16,
};

inline constexpr std::uint32_t STATE_COUNT = 17;
// "focused", "focusable", ... in bit order.
std::string_view state_name(std::uint32_t bit_index);
// Parses a state name; returns 0 when unknown.
std::uint32_t state_from_name(std::string_view);
std::vector<std::string_view> state_names(std::uint32_t states);

struct WindowInfo {
    std::int64_t window_id = 0;
    std::int64_t pid = 0;
    std::string app;   // the app's own name (untrusted text)
    std::string title; // untrusted text
    Frame frame;
    bool active = false;

    // Facts of the window manager that only some backends read (the desk's windows verb shows
    // them); the defaults mean "no" or "unknown", so a backend that knows none of them is right.
    bool dialog = false;            // a dialog by its window type (_NET_WM_WINDOW_TYPE_DIALOG on X11)
    bool modal = false;             // blocks input to another window (_NET_WM_STATE_MODAL)
    bool hidden = false;            // the window manager hides it (_NET_WM_STATE_HIDDEN)
    bool shell = false;             // its process also owns a panel or desktop window
    std::int64_t transient_for = 0; // the window it belongs to (WM_TRANSIENT_FOR), 0 when none
    std::string executable;         // the process's executable file name, when the backend can tell
    // The name its process was started under, when the backend can tell: on Linux /proc/<pid>/comm,
    // the file name it was run as (a launcher's symlink: "thunderbird" for thunderbird-bin), cut
    // at 15 bytes.
    std::string process;
    // The window manager's frame around `frame` (_NET_FRAME_EXTENTS on X11): its title bar is the
    // `top` pixels above the window. All 0 when undecorated or unknown.
    struct Extents {
        std::int32_t left = 0, right = 0, top = 0, bottom = 0;
        bool operator==(const Extents&) const = default;
    };
    Extents decor;
    // The border and shadow the app draws itself around its content, inside `frame` (client-side
    // decorations: _GTK_FRAME_EXTENTS on X11). All 0 when none or unknown.
    Extents client_decor;

    bool operator==(const WindowInfo&) const = default;
};

// A container whose children the toolkit makes on demand (AT-SPI's manages-descendants state: a
// spreadsheet's sheet, a long list or tree): a read never enumerates its children and keeps only the
// part on screen, so its children in a snapshot are that part. The fields say how big the whole is.
struct ManagedChildren {
    bool on = false;
    std::int64_t children = -1; // the children the container reports (2,147,483,647 for a Calc sheet); -1 unknown
    std::int32_t rows = 0;      // its size as a table (0 when it offers none)
    std::int32_t columns = 0;
    // The part read: 0-based table rows and columns (for a list, child indexes as rows, no columns);
    // first > last when nothing was.
    std::int32_t first_row = 0;
    std::int32_t last_row = -1;
    std::int32_t first_column = 0;
    std::int32_t last_column = -1;

    bool operator==(const ManagedChildren&) const = default;
};

struct Element {
    std::string role;  // snake_case role name, e.g. push_button, page_tab_list, password_text
    std::string name;  // untrusted text
    std::string value; // text or value; empty for secure fields (a backend never reads them)
    std::string description;
    std::uint32_t states = 0;
    // A heading's level (1 for a page's top heading, as h1 … h6 and aria-level say); 0 when the
    // element is no heading or the toolkit does not say.
    std::int32_t level = 0;
    std::vector<std::string> actions; // the element's own action names, e.g. click, activate
    // The backend asked each action for its name after a bulk read left some empty (Chromium): a
    // name still empty is the app's own (LibreOffice's menus), not one to ask for again.
    bool action_names_asked = false;
    Frame frame;
    bool has_frame = false;
    // The app answered its place with no area (GTK 4 gives what it folds away, a revealer's or an
    // info bar's content, no height, and what lies inside keeps the place it last had).
    bool empty_frame = false;

    // Tree shape, in the preorder array of a snapshot.
    std::int32_t parent = -1;
    std::int32_t depth = 0;
    std::int32_t child_count = 0;
    std::int32_t descendant_count = 0; // filled by the snapshot
    // The read holds only the first child_count of this element's children: its limits (the
    // element budget or the depth) cut the rest.
    bool children_cut = false;

    // The backend's identity of this element (opaque; stable while the element lives).
    std::string key;

    ManagedChildren managed; // on only for containers that manage their descendants

    bool is(State s) const { return (states & s) != 0; }
    // Secure fields are never read, typed into or shown (policy.h decides from role and states).
    bool secure() const;
    // Some action's name is not known yet: empty, and not asked for.
    bool action_names_pending() const;

    bool operator==(const Element&) const = default;
};

// One past the last descendant of elements[at], in elements that are in preorder (each one's
// descendants follow it, deeper than it).
std::int32_t subtree_end(const std::vector<Element>& elements, std::int32_t at);

} // namespace nd_core

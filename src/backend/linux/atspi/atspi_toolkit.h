#pragma once

// The toolkit an app names over AT-SPI (Application.ToolkitName on its root: "gtk" for GTK3's
// bridge, "GTK" for GTK4, "Qt", "Chromium"), and the one of a process's windows.

#include "backend/linux/atspi/atspi_bus.h"

#include "core/model/element.h"

#include <string>
#include <string_view>
#include <vector>

namespace nd_linux {

// Empty when the app answers without one; app_not_responding or timed_out when it does not
// answer by the deadline: an app busy at its start (Java's bridge building its cache) is not
// an app without a toolkit, and a holder that remembered the empty name would read it wrongly.
nd_core::Result<std::string> toolkit_name(AtspiBus&, const std::string& app_bus, Deadline);

// GTK 4 (4.8 at least) marks its widgets visible and never showing, whatever its window's own
// states say (a window that is mapped reads showing): a read of its apps takes visible for
// showing, or it would read no frame below the window.
inline bool toolkit_marks_only_visible(std::string_view toolkit) { return toolkit == "GTK"; }

// GTK 4 (4.8) answers GetChildren of a stack with its pages' children, skipping the pages that
// ChildCount, GetChildAtIndex and its item cache give (WalkOptions::children_by_index).
inline bool toolkit_children_by_index(std::string_view toolkit) { return toolkit == "GTK"; }

// The web engines keep the pages they load after their item cache was made out of it: a cold read
// of such a window takes the page's outline first (atspi_outline.h).
inline bool toolkit_outlines_pages(std::string_view toolkit) { return toolkit == "Chromium" || toolkit == "Gecko"; }

// Chromium's GetActions names no action (its localized names are empty; Action.GetName has the
// names), and objects of one role and action count name their actions alike past the first
// (WalkOptions::action_count_only, AlikeActionNames).
inline bool toolkit_names_actions_by_index(std::string_view toolkit) { return toolkit == "Chromium"; }

// GTK 4 answers every GetExtents relative to the surface its object lies on, whichever
// coordinates are asked for (it cannot know where it is on the screen): a read moves its frames to
// the screen (place_on_screen).
inline bool toolkit_frames_in_window(std::string_view toolkit) { return toolkit == "GTK"; }

// Moves the frames of a window's `elements` (preorder, the window's own first), answered relative
// to the surface each lies on, to the screen. The window's content lies at the X window's origin
// plus the border the app draws itself around it (client_decor; when unknown, half of what the X
// window has beyond the content on each axis: a plain border, as GTK draws without a compositor);
// the content's size is the window element's. A subtree whose top has the size of one of `popups`'
// content lies on that popup (a popover, a menu): its rows move by what moves its top onto the
// popup (GTK answers them at their place in the popover plus the place of the widget it hangs
// from), and a row that does not land on the popup loses its frame. With `rows`, only those
// elements move (frames read after the others were moved, whose sizes still tell the popups'
// tops; a popover's row read then loses its frame, since its top's answer is gone).
void place_on_screen(std::vector<nd_core::Element>& elements, const nd_core::WindowInfo& window,
                     const std::vector<nd_core::WindowInfo>& popups, const std::vector<std::int32_t>* rows = nullptr);

// GTK 4 keeps a stack's hidden pages visible and at the place they last had, so their rows read as
// showing where the page shown is. Children of one parent with the very same frame (as the app
// answered it) are such pages: the app's own hit test (Component.GetAccessibleAtPoint on the
// parent, at the frames' centre) tells which one shows, and the rows of the others lose their
// frames and their showing. Groups the hit test does not settle (it names the parent, or an
// object the read does not hold) are left as they are; at most MAX_PAGE_GROUPS are asked. A page
// that sits in a wrapper without a frame of its own and one child (GTK 4's GtkStackPage, up to
// MAX_PAGE_WRAPPERS levels) is that wrapper, a child of the stack.
inline constexpr std::size_t MAX_PAGE_GROUPS = 16;
inline constexpr int MAX_PAGE_WRAPPERS = 2;
nd_core::Result<void> hide_unpicked_pages(AtspiBus&, std::vector<nd_core::Element>& elements, Deadline);

// GTK 4 marks what it does not draw visible all the same (an info bar or a revealer folded away,
// a stack's other page, a tab bar with one tab) and gives it no size, or gives the fold no size
// and leaves what is inside at the place it last had. The rows inside a place with no area lose
// their frames and showing (a click there would land on what is drawn beneath), and the rows of a
// subtree where nothing has a place on the window are hidden (STATE_HIDDEN), as a toolkit that
// says so would have them. A window root without a place of its own hides nothing (nothing can be
// judged).
void hide_unplaced_subtrees(std::vector<nd_core::Element>& elements);

// The toolkit of the first AT-SPI app of `pid`; empty when the process has none; an error as
// above when it does not answer within a second.
nd_core::Result<std::string> toolkit_of_pid(AtspiBus&, std::int64_t pid);

} // namespace nd_linux

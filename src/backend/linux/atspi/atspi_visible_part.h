#pragma once

// The part of a container that manages its descendants which a person sees.
//
// Such a container makes its children when asked (AT-SPI's manages-descendants state): a Calc
// sheet reports 2,147,483,647 of them, and asking for them all (GetChildren, or walking them)
// never ends. So a read never enumerates one. It finds the visible range instead, by hit-testing
// the container's on-screen corners (Component.GetAccessibleAtPoint) and asking where those
// children sit (GetIndexInParent; for a table Table.GetRowAtIndex and GetColumnAtIndex), then
// fetches the children in that range, pipelined: for a table its column headers and the cells row
// by row (Table.GetAccessibleAt), for a list or tree Accessible.GetChildAtIndex. At most
// MAX_VISIBLE_CHILDREN are fetched; a table's rows are cut from the bottom.

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_message.h"

#include <functional>
#include <vector>

namespace nd_linux {

// A container reporting more children than this is never enumerated, whatever its states; one
// that manages its descendants, beyond MAX_MANAGED_ENUMERATED or when it does not say how many.
// Below those, enumerating is finite and cheap, and the children it gives are real objects with
// stable paths (GTK3 tree views manage descendants with a few dozen cells).
inline constexpr std::int32_t MAX_ENUMERATED_CHILDREN = 10'000;
inline constexpr std::int32_t MAX_MANAGED_ENUMERATED = 1'000;
// The most children the visible part of one container may hold.
inline constexpr std::int32_t MAX_VISIBLE_CHILDREN = 500;

bool too_many_to_enumerate(const AtspiStates&, std::int32_t child_count);

// True when one of `containers` (objects that manage their descendants) is too_many_to_enumerate
// by the count it reports (one pipelined ChildCount each). A
// search the app runs itself (Collection.GetMatches) walks every child: on a Calc sheet it never
// ends and leaves the app busy, so a finder must not ask such an app.
nd_core::Result<bool> any_too_many_children(AtspiBus&, const std::vector<ObjectRef>& containers, Deadline);

// The live object a child key (atspi_message.h) names now: Table.GetAccessibleAt(row, column), or
// GetChildAtIndex(index) in a list. element_not_found when the container has no such child.
nd_core::Result<ObjectRef> fetch_child(AtspiBus&, const ChildKey&, Deadline);
// The same, queued on a batch; `done` gets a null reference when it failed.
void fetch_child(AtspiBatch&, const ChildKey&, std::function<void(ObjectRef)> done);

struct VisiblePart {
    nd_core::ManagedChildren managed;      // on, with the sizes and the range read
    std::vector<ObjectRef> children;        // in screen order: column headers, then cells row by row
    std::vector<std::string> keys;          // each child's stable key (child_key, column_header_key)
};

// Queues on `batch` the calls that find the visible part of `container` (which offers the
// interfaces `interfaces`, bits of atspi_roles.h), each step sent from the previous one's reply, and
// calls `done` once, from a reply handler, with what it found. A step that fails leaves the part
// empty (or smaller), never the read failed; if the batch ends first (its deadline), `done` never runs.
void read_visible_part(AtspiBatch& batch, const ObjectRef& container, std::uint32_t interfaces,
                       std::function<void(VisiblePart)> done);

} // namespace nd_linux

#pragma once

// Labels a person would read (docs/tokens.md, "Labels"). Toolkits fill an element's accessible name
// with text no person sees: GTK4 names an unlabelled widget by its class ("GtkMenuButton",
// "GtkImage") and runs a button's own name and its child label together ("7 7"). Every view shows
// the label this file derives instead: the description, then the first label below the element.

#include "core/model/element.h"

#include <string_view>
#include <vector>

namespace nd_core {

// True for a toolkit's widget class name used as a name: Gtk*, Gdk*, Adw*, Hdy* and Qt's Q* classes.
bool is_class_name(std::string_view name);

// Rewrites the names of `elements` (a snapshot's preorder array with descendant_count filled, see
// finish_tree) that are class names or repeats, in place. Names only: roles, states and the
// structure stay as read.
void humanize_names(std::vector<Element>& elements);

} // namespace nd_core

#pragma once

// Labels a person would read (docs/tokens.md, "Labels"). Toolkits fill an element's accessible name
// with text no person sees: GTK4 names an unlabelled widget by its class ("GtkMenuButton",
// "GtkImage"), runs a button's own name and its child label together ("7 7") and keeps mnemonic
// marks ("_Inform Inform", "Page _1"); Qt leaves a field unnamed when its label has no buddy.
// Every view shows the label this file derives instead: the description, then the first label
// below the element; for an unnamed field, the label beside it; for an unnamed control (an icon
// button), its tooltip, which toolkits put in the description.

#include "core/model/element.h"

#include <string_view>
#include <vector>

namespace nd_core {

// True for a toolkit's widget class name used as a name: Gtk*, Gdk*, Adw*, Hdy* and Qt's Q* classes,
// and an app's own (EditorPage). On a cell, an item, a label or a tab, whose name is the text it
// shows, an app's own class-shaped name counts only when its last word names that kind of element
// (humanize_names; "SettingsDialog" in a list of a program's parts is read as it is).
bool is_class_name(std::string_view name);

// Rewrites the names of `elements` (a snapshot's preorder array with descendant_count filled, see
// finish_tree, parents before children) that are class names, placeholders or repeats, and names
// the unnamed fields whose label their parent's order pairs with them, in place. Names only:
// roles, states and the structure stay as read.
void humanize_names(std::vector<Element>& elements);

} // namespace nd_core

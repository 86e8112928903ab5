#pragma once

// Reading AT-SPI values out of sd-bus replies, and the element key format.
//
// Each reader returns a negative errno when the reply does not have the expected shape; callers
// treat that like a missing answer, never as a crash. Strings from apps are untrusted: they are
// copied as given (the engine escapes and cuts), but a reader caps their length.

#include "backend/linux/atspi/atspi_roles.h"
#include "core/model/element.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <systemd/sd-bus.h>

namespace nd_linux {

// A live AT-SPI object: the app's unique bus name and the object path. Never leaves the backend
// except as Element::key, "<bus name>|<object path>".
struct ObjectRef {
    std::string bus;
    std::string path;

    bool null() const;
    std::string key() const { return bus + "|" + path; }
    bool operator==(const ObjectRef&) const = default;
};

// Parses an Element::key back into a reference; nullopt when it is not one of ours.
std::optional<ObjectRef> parse_key(std::string_view key);
// Whether parse_key would give a reference, without making one (asked of every row of a read).
bool is_object_key(std::string_view key);

// A child of a container that manages its descendants (a Calc cell) is made anew each time it is
// asked for, under a new object path, so its key names where it sits instead:
// "<bus name>|<container path>|<row>,<column>" in a table, "<bus name>|<container path>|<index>" in
// a list. Such keys stay the same from read to read; acts ask the container for the child again.
// A table's column header is keyed the same way, by its column: "<bus name>|<table path>|h<column>"
// (Java's ATK wrapper makes its headers anew too).
struct ChildKey {
    ObjectRef container;
    std::int32_t row = -1;    // the row, or the index in a list
    std::int32_t column = -1; // -1 in a list
    bool column_header = false; // the header of `column` (Table.GetColumnHeader); row is -1
};
std::string child_key(const ObjectRef& container, std::int32_t row, std::int32_t column);
std::string column_header_key(const ObjectRef& table, std::int32_t column);
std::optional<ChildKey> parse_child_key(std::string_view key);
// A Qt item view's cell, made anew each time it is asked for (WalkOptions::positional_item_views):
// its index in the view and a hash of its name, "<bus name>|<view path>|<index>~<hash>". Read back
// by parse_child_key as the view's child at that index. A cell whose text changes, or another cell
// at its place, gets another key: a token never acts on what the model did not see there.
std::string positional_key(const ObjectRef& view, std::int32_t index, std::string_view name);

struct ObjectRefHash {
    std::size_t operator()(const ObjectRef& r) const;
};

// The Accessible properties a walk reads with one Properties.GetAll.
struct AccessibleProps {
    std::string name;
    std::string description;
    std::int32_t child_count = -1;
};

// Cap on any one string read from an app (names, descriptions, values).
inline constexpr std::size_t MAX_TEXT_BYTES = 64 * 1024;

int read_ref(sd_bus_message*, ObjectRef&);            // (so)
int read_refs(sd_bus_message*, std::vector<ObjectRef>&); // a(so)
int read_states(sd_bus_message*, AtspiStates&);       // au
int read_interfaces(sd_bus_message*, std::uint32_t& bits); // as
int read_string(sd_bus_message*, std::string&);       // s
int read_string_variant(sd_bus_message*, std::string&); // v holding s
// a{sv}: Name, Description and ChildCount into the props; any other key goes to `other` (with the
// message at its variant), which reads the variant and returns > 0, or returns 0 to have it skipped.
using OtherProperty = std::function<int(std::string_view key, sd_bus_message*)>;
int read_accessible_props(sd_bus_message*, AccessibleProps&, const OtherProperty& other = {});
int read_action_names(sd_bus_message*, std::vector<std::string>&); // a(sss)
// The value of `key` in an attribute dictionary; `out` stays empty when the key is not there.
int read_attribute(sd_bus_message*, std::string_view key, std::string& out); // a{ss}
int read_extents(sd_bus_message*, nd_core::Frame&);   // (iiii)
int read_variant_double(sd_bus_message*, double&);    // v holding d (or another number)

// A number as a value string: integers without a fraction, others with up to 6 significant digits.
std::string format_number(double);

// Cuts a UTF-8 string to at most `max` bytes on a character boundary.
std::string cut_utf8(std::string_view, std::size_t max);

} // namespace nd_linux

#pragma once

// The D-Bus names of AT-SPI (at-spi2-core's xml/*.xml) and of the bus itself, in one place.

namespace nd_linux {

inline constexpr const char* DBUS_NAME = "org.freedesktop.DBus";
inline constexpr const char* DBUS_PATH = "/org/freedesktop/DBus";
inline constexpr const char* DBUS_IFACE = "org.freedesktop.DBus";
inline constexpr const char* IFACE_PROPERTIES = "org.freedesktop.DBus.Properties";

inline constexpr const char* REGISTRY_NAME = "org.a11y.atspi.Registry";
inline constexpr const char* REGISTRY_PATH = "/org/a11y/atspi/registry";
inline constexpr const char* ROOT_PATH = "/org/a11y/atspi/accessible/root";
inline constexpr const char* CACHE_PATH = "/org/a11y/atspi/cache";
inline constexpr const char* NULL_PATH = "/org/a11y/atspi/null";

inline constexpr const char* IFACE_REGISTRY = "org.a11y.atspi.Registry";
inline constexpr const char* IFACE_ACCESSIBLE = "org.a11y.atspi.Accessible";
inline constexpr const char* IFACE_APPLICATION = "org.a11y.atspi.Application";
inline constexpr const char* IFACE_CACHE = "org.a11y.atspi.Cache";
inline constexpr const char* IFACE_ACTION = "org.a11y.atspi.Action";
inline constexpr const char* IFACE_COMPONENT = "org.a11y.atspi.Component";
inline constexpr const char* IFACE_TEXT = "org.a11y.atspi.Text";
inline constexpr const char* IFACE_EDITABLE_TEXT = "org.a11y.atspi.EditableText";
inline constexpr const char* IFACE_VALUE = "org.a11y.atspi.Value";
inline constexpr const char* IFACE_COLLECTION = "org.a11y.atspi.Collection";
inline constexpr const char* IFACE_SELECTION = "org.a11y.atspi.Selection";
inline constexpr const char* IFACE_TABLE = "org.a11y.atspi.Table";

// Component.GetExtents coordinate types.
inline constexpr unsigned COORD_SCREEN = 0;
inline constexpr unsigned COORD_WINDOW = 1;

} // namespace nd_linux

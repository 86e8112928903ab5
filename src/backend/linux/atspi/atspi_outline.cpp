#include "backend/linux/atspi/atspi_outline.h"

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_matches.h"
#include "backend/linux/atspi/atspi_names.h"
#include "backend/linux/atspi/atspi_roles.h"

#include <cerrno>
#include <cstring>
#include <span>

namespace nd_linux {

namespace {

constexpr const char* TREE_SIGNATURE = "a((so)a{sv})";
constexpr const char* OBJECT_SIGNATURE = "((so)a{sv})"; // an array's element
constexpr const char* OBJECT_FIELDS = "(so)a{sv}";      // inside one element
constexpr const char* PROPERTIES[] = {"Name",           "Description",         "ChildCount",          "Parent",
                                      "Action.NActions", "Text.CharacterCount", "Table.NRows", "Component.ScreenExtents"};
constexpr const char* ACTION_COUNT[] = {"Action.NActions"};

// One object's properties (a{sv}): those above; any other is skipped.
int read_properties(sd_bus_message* m, OutlineItem& item, ObjectRef& parent)
{
    return read_accessible_props(m, item.props, [&item, &parent](std::string_view k, sd_bus_message* v) {
        if (k == "Parent") {
            int r = sd_bus_message_enter_container(v, SD_BUS_TYPE_VARIANT, "(so)");
            if (r >= 0)
                r = read_ref(v, parent);
            return r < 0 ? r : sd_bus_message_exit_container(v) < 0 ? -EBADMSG : 1;
        }
        if (k == "Action.NActions") {
            item.interfaces |= IF_ACTION;
            const int r = sd_bus_message_read(v, "v", "i", &item.actions);
            return r < 0 ? r : 1;
        }
        if (k == "Component.ScreenExtents") {
            item.interfaces |= IF_COMPONENT;
            // at-spi2-atk writes the place as four unsigned numbers (the signed ones cast), where
            // GetExtents answers (iiii): both are read, as signed.
            char type = 0;
            const char* contents = nullptr;
            int r = sd_bus_message_peek_type(v, &type, &contents);
            const bool as_unsigned = r >= 0 && contents && std::strcmp(contents, "(uuuu)") == 0;
            if (r < 0 || contents == nullptr || (!as_unsigned && std::strcmp(contents, "(iiii)") != 0))
                return r < 0 ? r : 0; // another shape: skipped, the walk asks
            std::uint32_t place[4] = {};
            r = sd_bus_message_enter_container(v, SD_BUS_TYPE_VARIANT, contents);
            if (r >= 0)
                r = sd_bus_message_read(v, contents, &place[0], &place[1], &place[2], &place[3]);
            if (r >= 0)
                r = sd_bus_message_exit_container(v);
            if (r < 0)
                return r;
            item.extents = nd_core::Frame{static_cast<std::int32_t>(place[0]), static_cast<std::int32_t>(place[1]),
                                          static_cast<std::int32_t>(place[2]), static_cast<std::int32_t>(place[3])};
            return 1;
        }
        // Only that the property is there counts: its value is skipped unread (a secure field's
        // character count included).
        if (k == "Text.CharacterCount")
            item.interfaces |= IF_TEXT;
        else if (k == "Table.NRows")
            item.interfaces |= IF_TABLE;
        return 0;
    });
}

} // namespace

bool Outline::parse(sd_bus_message* reply, const ObjectRef& root, OutlineKind kind)
{
    m_items.clear();
    m_kind = kind;
    if (read(reply, root))
        return true;
    m_items.clear(); // all or nothing
    return false;
}

bool Outline::read(sd_bus_message* reply, const ObjectRef& root)
{
    const char* signature = sd_bus_message_get_signature(reply, 1);
    if (signature == nullptr || std::strcmp(signature, TREE_SIGNATURE) != 0)
        return false;
    if (sd_bus_message_enter_container(reply, SD_BUS_TYPE_ARRAY, OBJECT_SIGNATURE) < 0)
        return false;
    for (bool first = true;; first = false) {
        int r = sd_bus_message_enter_container(reply, SD_BUS_TYPE_STRUCT, OBJECT_FIELDS);
        if (r < 0)
            return false;
        if (r == 0)
            break;
        ObjectRef self;
        ObjectRef parent;
        OutlineItem item;
        item.interfaces = IF_ACCESSIBLE;
        if (read_ref(reply, self) < 0 || read_properties(reply, item, parent) < 0 ||
            sd_bus_message_exit_container(reply) < 0)
            return false;
        if (first && self != root)
            return false;
        // An object listed twice (a cycle in the app's tree) keeps its first place.
        if (self.null() || !m_items.emplace(self, std::move(item)).second)
            continue;
        // Children join the parent they name, in the order the app listed them; one whose parent
        // is not in the outline (the root's, or an app whose child and parent links disagree)
        // joins none, and a parent that then holds fewer than it counts is asked by the walk.
        if (first)
            continue;
        auto holder = m_items.find(parent);
        if (holder != m_items.end() && parent != self)
            holder->second.children.push_back(self);
    }
    return !m_items.empty() && sd_bus_message_exit_container(reply) >= 0;
}

const OutlineItem* Outline::find(const ObjectRef& ref) const
{
    auto it = m_items.find(ref);
    return it == m_items.end() ? nullptr : &it->second;
}

nd_core::Result<OutlineAnswer> read_outline(AtspiBus& bus, const ObjectRef& root, Deadline deadline, OutlineKind kind)
{
    OutlineAnswer out;
    auto outline = std::make_shared<Outline>();
    AtspiBatch batch(bus, deadline);
    batch.add({root.bus, root.path, IFACE_COLLECTION, "GetTree"},
              [kind](sd_bus_message* m) {
                  int r = append_match_rule(m, {});
                  if (r >= 0)
                      r = sd_bus_message_open_container(m, SD_BUS_TYPE_ARRAY, "s");
                  const std::span<const char* const> asked =
                      kind == OutlineKind::whole ? std::span<const char* const>(PROPERTIES) : ACTION_COUNT;
                  for (const char* p : asked)
                      if (r >= 0)
                          r = sd_bus_message_append_basic(m, 's', p);
                  if (r >= 0)
                      r = sd_bus_message_close_container(m);
                  return r;
              },
              [&](const Reply& reply) {
                  if (reply.ok()) {
                      if (outline->parse(reply.message, root, kind))
                          out.outline = outline;
                      return;
                  }
                  out.no_such_method = dbus_error_is_unknown_method(reply.error);
              });
    TRY_VOID(batch.run());
    return out;
}

} // namespace nd_linux

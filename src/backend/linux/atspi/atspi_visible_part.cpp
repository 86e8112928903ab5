#include "backend/linux/atspi/atspi_visible_part.h"

#include "backend/linux/atspi/atspi_names.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace nd_linux {

bool too_many_to_enumerate(const AtspiStates& states, std::int32_t child_count)
{
    if (child_count > MAX_ENUMERATED_CHILDREN)
        return true;
    return states.has(ATSPI_STATE_MANAGES_DESCENDANTS) && (child_count < 0 || child_count > MAX_MANAGED_ENUMERATED);
}

void fetch_child(AtspiBatch& batch, const ChildKey& key, std::function<void(ObjectRef)> done)
{
    const bool cell = key.column >= 0 && !key.column_header;
    const char* method = key.column_header ? "GetColumnHeader" : cell ? "GetAccessibleAt" : "GetChildAtIndex";
    batch.add({key.container.bus, key.container.path, key.column >= 0 ? IFACE_TABLE : IFACE_ACCESSIBLE, method},
              [key, cell](sd_bus_message* m) {
                  if (key.column_header)
                      return sd_bus_message_append(m, "i", key.column);
                  return cell ? sd_bus_message_append(m, "ii", key.row, key.column)
                              : sd_bus_message_append(m, "i", key.row);
              },
              [done = std::move(done)](const Reply& r) {
                  ObjectRef ref;
                  if (!r.ok() || read_ref(r.message, ref) < 0)
                      ref = {};
                  done(ref.null() ? ObjectRef{} : ref);
              });
}

nd_core::Result<ObjectRef> fetch_child(AtspiBus& bus, const ChildKey& key, Deadline deadline)
{
    AtspiBatch batch(bus, deadline);
    ObjectRef out;
    fetch_child(batch, key, [&out](ObjectRef ref) { out = std::move(ref); });
    TRY_VOID(batch.run());
    if (out.null())
        return nd_core::make_error(nd_core::ErrorCode::element_not_found, "the container has no such child any more");
    return out;
}

nd_core::Result<bool> any_too_many_children(AtspiBus& bus, const std::vector<ObjectRef>& containers, Deadline deadline)
{
    if (containers.empty())
        return false;
    AtspiBatch batch(bus, deadline);
    bool too_many = false;
    for (const auto& ref : containers)
        batch.add({ref.bus, ref.path, IFACE_PROPERTIES, "Get"},
                  get_property(IFACE_ACCESSIBLE, "ChildCount"),
                  [&too_many](const Reply& r) {
                      std::int32_t n = -1;
                      AtspiStates managing;
                      managing.high = 0;
                      managing.low = 1u << ATSPI_STATE_MANAGES_DESCENDANTS;
                      if (r.ok() && sd_bus_message_read(r.message, "v", "i", &n) >= 0 &&
                          !too_many_to_enumerate(managing, n))
                          return;
                      // A vanished object cannot hurt a search; any other answer errs towards care.
                      if (!r.ok() && dbus_error_is_gone(r.error))
                          return;
                      too_many = true;
                  });
    TRY_VOID(batch.run());
    return too_many;
}

namespace {

// Where a hit-test of one corner landed: the child's index and, in a table, its row and column.
struct Corner {
    std::int32_t index = -1;
    std::int32_t row = -1;
    std::int32_t column = -1;
};

// One container's steps. Handlers hold it alive; it never outlives the batch that runs them.
class PartRead : public std::enable_shared_from_this<PartRead> {
public:
    PartRead(AtspiBatch& batch, ObjectRef container, std::uint32_t interfaces, std::function<void(VisiblePart)> done)
        : m_batch(batch), m_ref(std::move(container)), m_interfaces(interfaces), m_done(std::move(done))
    {
        m_part.managed.on = true;
    }

    // Step 1: the sizes and where the container is on screen.
    void start()
    {
        auto self = shared_from_this();
        auto counted = [self](auto&& read) {
            return [self, read](const Reply& r) {
                if (r.ok())
                    read(*self, r.message);
                if (--self->m_pending == 0)
                    self->clip_to_parent();
            };
        };
        m_pending = 1;
        m_batch.add({m_ref.bus, m_ref.path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_ACCESSIBLE, "ChildCount"),
                    counted([](PartRead& p, sd_bus_message* m) {
                        std::int32_t n = -1;
                        if (sd_bus_message_read(m, "v", "i", &n) >= 0)
                            p.m_part.managed.children = n;
                    }));
        if (table()) {
            m_pending += 2;
            m_batch.add({m_ref.bus, m_ref.path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_TABLE, "NRows"),
                        counted([](PartRead& p, sd_bus_message* m) {
                            (void)sd_bus_message_read(m, "v", "i", &p.m_part.managed.rows);
                        }));
            m_batch.add({m_ref.bus, m_ref.path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_TABLE, "NColumns"),
                        counted([](PartRead& p, sd_bus_message* m) {
                            (void)sd_bus_message_read(m, "v", "i", &p.m_part.managed.columns);
                        }));
        }
        if (m_interfaces & IF_COMPONENT) {
            m_pending += 2;
            m_batch.add({m_ref.bus, m_ref.path, IFACE_COMPONENT, "GetExtents"},
                        [](sd_bus_message* m) { return sd_bus_message_append(m, "u", COORD_SCREEN); },
                        counted([](PartRead& p, sd_bus_message* m) {
                            p.m_has_extents = read_extents(m, p.m_extents) >= 0 && p.m_extents.w > 2 && p.m_extents.h > 2;
                        }));
            m_batch.add({m_ref.bus, m_ref.path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_ACCESSIBLE, "Parent"),
                        counted([](PartRead& p, sd_bus_message* m) {
                            if (sd_bus_message_enter_container(m, 'v', "(so)") >= 0)
                                (void)read_ref(m, p.m_parent);
                        }));
        }
    }

private:
    bool table() const { return (m_interfaces & IF_TABLE) != 0; }

    // Step 2a: the part of the container its parent shows. A container in a scrolled view (Java's
    // table in its viewport) spans all its rows on screen coordinates; its parent, the viewport,
    // is what shows. A parent without extents, or one the container lies inside, changes nothing.
    void clip_to_parent()
    {
        if (!m_has_extents || m_parent.null()) {
            hit_corners();
            return;
        }
        auto self = shared_from_this();
        m_batch.add({m_parent.bus, m_parent.path, IFACE_COMPONENT, "GetExtents"},
                    [](sd_bus_message* m) { return sd_bus_message_append(m, "u", COORD_SCREEN); },
                    [self](const Reply& r) {
                        nd_core::Frame shown;
                        if (r.ok() && read_extents(r.message, shown) >= 0 && shown.w > 2 && shown.h > 2) {
                            auto& f = self->m_extents;
                            const auto left = std::max(f.x, shown.x), top = std::max(f.y, shown.y);
                            const auto right = std::min(f.x + f.w, shown.x + shown.w);
                            const auto bottom = std::min(f.y + f.h, shown.y + shown.h);
                            if (right - left > 2 && bottom - top > 2)
                                f = {left, top, right - left, bottom - top};
                        }
                        self->hit_corners();
                    });
    }

    // Step 2: what is at the top-left corner and at the bottom corner (bottom-right for a table,
    // bottom-left for a list), one pixel in. A corner that hits nothing falls back to the start or
    // the end of the container (a short list leaves empty space below its last row).
    void hit_corners()
    {
        if (!m_has_extents || (table() && (m_part.managed.rows <= 0 || m_part.managed.columns <= 0))) {
            finish();
            return;
        }
        const auto& f = m_extents;
        m_pending = 2;
        hit(0, f.x + 1, f.y + 1);
        hit(1, table() ? f.x + f.w - 2 : f.x + 1, f.y + f.h - 2);
    }

    void hit(int k, std::int32_t x, std::int32_t y)
    {
        auto self = shared_from_this();
        m_batch.add({m_ref.bus, m_ref.path, IFACE_COMPONENT, "GetAccessibleAtPoint"},
                    [x, y](sd_bus_message* m) { return sd_bus_message_append(m, "iiu", x, y, COORD_SCREEN); },
                    [self, k](const Reply& r) {
                        ObjectRef child;
                        if (!r.ok() || read_ref(r.message, child) < 0 || child.null() || child == self->m_ref) {
                            self->corner_done();
                            return;
                        }
                        self->locate(k, child);
                    });
    }

    // Step 3: the hit child's index, and in a table its row and column.
    void locate(int k, const ObjectRef& child)
    {
        auto self = shared_from_this();
        m_batch.add({child.bus, child.path, IFACE_ACCESSIBLE, "GetIndexInParent"}, {}, [self, k](const Reply& r) {
            std::int32_t index = -1;
            if (!r.ok() || sd_bus_message_read_basic(r.message, 'i', &index) < 0 || index < 0) {
                self->corner_done();
                return;
            }
            self->m_corners[k].index = index;
            if (!self->table()) {
                self->corner_done();
                return;
            }
            // Both answers count down one corner: the second to arrive finishes it.
            auto at = [index](sd_bus_message* m) { return sd_bus_message_append(m, "i", index); };
            auto left = std::make_shared<int>(2);
            auto store = [self, left](std::int32_t Corner::*field, int k2) {
                return [self, left, field, k2](const Reply& r2) {
                    std::int32_t v = -1;
                    if (r2.ok() && sd_bus_message_read_basic(r2.message, 'i', &v) >= 0)
                        self->m_corners[k2].*field = v;
                    if (--*left == 0)
                        self->corner_done();
                };
            };
            const auto& ref = self->m_ref;
            self->m_batch.add({ref.bus, ref.path, IFACE_TABLE, "GetRowAtIndex"}, at, store(&Corner::row, k));
            self->m_batch.add({ref.bus, ref.path, IFACE_TABLE, "GetColumnAtIndex"}, at, store(&Corner::column, k));
        });
    }

    void corner_done()
    {
        if (--m_pending == 0)
            fetch_range();
    }

    // Step 4: the children in the range, pipelined, each into its slot so the order is the screen's.
    void fetch_range()
    {
        auto& m = m_part.managed;
        if (table()) {
            const auto& top = m_corners[0];
            const auto& bottom = m_corners[1];
            m.first_row = std::clamp(top.row >= 0 ? top.row : 0, 0, m.rows - 1);
            m.first_column = std::clamp(top.column >= 0 ? top.column : 0, 0, m.columns - 1);
            m.last_row = std::clamp(bottom.row >= 0 ? bottom.row : m.rows - 1, m.first_row, m.rows - 1);
            m.last_column = std::clamp(bottom.column >= 0 ? bottom.column : m.columns - 1, m.first_column, m.columns - 1);
            // Cut to the bound: whole rows from the top, or the first columns of one row.
            const std::int32_t width = m.last_column - m.first_column + 1;
            if (width > MAX_VISIBLE_CHILDREN) {
                m.last_column = m.first_column + MAX_VISIBLE_CHILDREN - 1;
                m.last_row = m.first_row;
            } else {
                m.last_row = std::min(m.last_row, m.first_row + MAX_VISIBLE_CHILDREN / width - 1);
            }
            const std::int32_t cols = m.last_column - m.first_column + 1;
            const std::int32_t rows = m.last_row - m.first_row + 1;
            m_headers.resize(static_cast<std::size_t>(cols));
            m_slots.resize(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
            m_pending = cols + rows * cols;
            for (std::int32_t c = 0; c < cols; ++c)
                fetch(IFACE_TABLE, "GetColumnHeader", m.first_column + c, -1, m_headers[static_cast<std::size_t>(c)]);
            for (std::int32_t r = 0; r < rows; ++r)
                for (std::int32_t c = 0; c < cols; ++c)
                    fetch(IFACE_TABLE, "GetAccessibleAt", m.first_row + r, m.first_column + c,
                          m_slots[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)]);
            return;
        }
        const std::int32_t count = m.children > 0 ? static_cast<std::int32_t>(std::min<std::int64_t>(m.children, INT32_MAX)) : 0;
        if (count == 0) {
            finish();
            return;
        }
        m.first_row = std::clamp(m_corners[0].index >= 0 ? m_corners[0].index : 0, 0, count - 1);
        m.last_row = std::clamp(m_corners[1].index >= 0 ? m_corners[1].index : count - 1, m.first_row, count - 1);
        m.last_row = std::min(m.last_row, m.first_row + MAX_VISIBLE_CHILDREN - 1);
        const std::int32_t rows = m.last_row - m.first_row + 1;
        m_slots.resize(static_cast<std::size_t>(rows));
        m_pending = rows;
        for (std::int32_t r = 0; r < rows; ++r)
            fetch(IFACE_ACCESSIBLE, "GetChildAtIndex", m.first_row + r, -1, m_slots[static_cast<std::size_t>(r)]);
    }

    // One child call with one or two int arguments (`b` < 0: one), its answer into `slot`.
    void fetch(const char* iface, const char* member, std::int32_t a, std::int32_t b, ObjectRef& slot)
    {
        auto self = shared_from_this();
        m_batch.add({m_ref.bus, m_ref.path, iface, member},
                    [a, b](sd_bus_message* m) {
                        return b < 0 ? sd_bus_message_append(m, "i", a) : sd_bus_message_append(m, "ii", a, b);
                    },
                    [self, &slot](const Reply& r) {
                        if (r.ok())
                            (void)read_ref(r.message, slot);
                        if (--self->m_pending == 0)
                            self->finish();
                    });
    }

    void finish()
    {
        const auto& m = m_part.managed;
        for (std::size_t c = 0; c < m_headers.size(); ++c)
            if (!m_headers[c].null() && m_headers[c] != m_ref) {
                m_part.children.push_back(std::move(m_headers[c]));
                m_part.keys.push_back(column_header_key(m_ref, m.first_column + static_cast<std::int32_t>(c)));
            }
        const std::int32_t cols = table() ? m.last_column - m.first_column + 1 : 1;
        for (std::size_t i = 0; i < m_slots.size(); ++i) {
            if (m_slots[i].null() || m_slots[i] == m_ref)
                continue;
            const auto at = static_cast<std::int32_t>(i);
            m_part.children.push_back(std::move(m_slots[i]));
            m_part.keys.push_back(table() ? child_key(m_ref, m.first_row + at / cols, m.first_column + at % cols)
                                          : child_key(m_ref, m.first_row + at, -1));
        }
        if (m_done)
            std::exchange(m_done, nullptr)(std::move(m_part));
    }

    AtspiBatch& m_batch;
    ObjectRef m_ref;
    std::uint32_t m_interfaces;
    std::function<void(VisiblePart)> m_done;
    VisiblePart m_part;
    nd_core::Frame m_extents;
    bool m_has_extents = false;
    ObjectRef m_parent;
    Corner m_corners[2];
    int m_pending = 0;
    std::vector<ObjectRef> m_headers;
    std::vector<ObjectRef> m_slots;
};

} // namespace

void read_visible_part(AtspiBatch& batch, const ObjectRef& container, std::uint32_t interfaces,
                       std::function<void(VisiblePart)> done)
{
    std::make_shared<PartRead>(batch, container, interfaces, std::move(done))->start();
}

} // namespace nd_linux

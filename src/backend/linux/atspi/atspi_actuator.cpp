#include "backend/linux/atspi/atspi_actuator.h"
#include "backend/linux/atspi/atspi_visible_part.h"

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_names.h"
#include "backend/linux/atspi/atspi_value_routes.h"
#include "core/model/act_actions.h"
#include "core/model/policy.h"


namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

// How many ancestors is_secure_now looks through: a text object inside a password field is secure.
constexpr int SECURE_ANCESTOR_LEVELS = 4;

} // namespace

AtspiActuator::AtspiActuator(AtspiBus& bus) : m_bus(bus) {}

nd_core::Result<ObjectRef> AtspiActuator::resolve(const nd_core::WindowInfo& window, const nd_core::Element& element,
                                                  Deadline deadline)
{
    auto ref = parse_key(element.key);
    if (!ref) {
        // A child of a container that manages its descendants: ask the container for it again.
        auto child = parse_child_key(element.key);
        if (!child)
            return make_error(ErrorCode::element_not_found, "the element's key is not an AT-SPI object reference");
        ref = TRY(fetch_child(m_bus, *child, deadline));
    }
    auto pid = m_bus.connection_pid(ref->bus, deadline);
    if (!pid)
        return make_error(ErrorCode::element_not_found, "the element's app is no longer on the AT-SPI bus");
    if (window.pid > 0 && *pid != window.pid)
        return make_error(ErrorCode::element_not_found, "the element belongs to another process than the window");
    return *ref;
}

nd_core::Result<AtspiActuator::Live> AtspiActuator::live(const nd_core::WindowInfo& window,
                                                         const nd_core::Element& element, Deadline deadline)
{
    return inspect(TRY(resolve(window, element, deadline)), deadline);
}

nd_core::Result<AtspiActuator::Live> AtspiActuator::inspect(ObjectRef ref, Deadline deadline)
{
    Live out;
    out.ref = std::move(ref);
    std::optional<nd_core::Error> failure;
    auto check = [&failure](const Reply& r, std::string_view what) {
        if (!r.ok() && !failure)
            failure = error_from_dbus(r.error, what);
        return r.ok();
    };
    const std::string& bus = out.ref.bus;
    const std::string& path = out.ref.path;
    AtspiBatch batch(m_bus, deadline);
    batch.add({bus, path, IFACE_ACCESSIBLE, "GetRole"}, {}, [&](const Reply& r) {
        if (check(r, "GetRole"))
            (void)sd_bus_message_read_basic(r.message, 'u', &out.role);
    });
    batch.add({bus, path, IFACE_ACCESSIBLE, "GetState"}, {}, [&](const Reply& r) {
        if (check(r, "GetState"))
            (void)read_states(r.message, out.states);
    });
    batch.add({bus, path, IFACE_ACCESSIBLE, "GetInterfaces"}, {}, [&](const Reply& r) {
        if (check(r, "GetInterfaces"))
            (void)read_interfaces(r.message, out.interfaces);
    });
    batch.add({bus, path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_ACCESSIBLE, "Parent"), [&](const Reply& r) {
        if (r.ok() && sd_bus_message_enter_container(r.message, SD_BUS_TYPE_VARIANT, "(so)") > 0)
            (void)read_ref(r.message, out.parent);
    });
    batch.add({bus, path, IFACE_ACCESSIBLE, "GetIndexInParent"}, {}, [&](const Reply& r) {
        if (r.ok())
            (void)sd_bus_message_read_basic(r.message, 'i', &out.index_in_parent);
    });
    TRY_VOID(batch.run());
    if (failure)
        return *failure;
    if (out.states.has(ATSPI_STATE_DEFUNCT))
        return make_error(ErrorCode::element_not_found, "the element is defunct");
    return out;
}

nd_core::Result<bool> AtspiActuator::secure(const Live& object, Deadline deadline)
{
    if (is_secure_role(object.role) || nd_core::is_secure_element(atspi_role_name(object.role), 0))
        return true;
    // A text object inside a password field counts as the field: look a few ancestors up.
    ObjectRef at = object.parent;
    for (int level = 0; level < SECURE_ANCESTOR_LEVELS && !at.null() && at.path != ROOT_PATH; ++level) {
        std::uint32_t role = 0;
        ObjectRef parent;
        AtspiBatch batch(m_bus, deadline);
        batch.add({at.bus, at.path, IFACE_ACCESSIBLE, "GetRole"}, {}, [&](const Reply& r) {
            if (r.ok())
                (void)sd_bus_message_read_basic(r.message, 'u', &role);
        });
        batch.add({at.bus, at.path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_ACCESSIBLE, "Parent"),
                  [&](const Reply& r) {
                      if (r.ok() && sd_bus_message_enter_container(r.message, SD_BUS_TYPE_VARIANT, "(so)") > 0)
                          (void)read_ref(r.message, parent);
                  });
        TRY_VOID(batch.run());
        if (is_secure_role(role))
            return true;
        if (role == ATSPI_ROLE_FRAME || role == ATSPI_ROLE_DIALOG || role == ATSPI_ROLE_WINDOW ||
            role == ATSPI_ROLE_APPLICATION)
            break;
        at = std::move(parent);
    }
    return false;
}

nd_core::Result<void> AtspiActuator::expect_true(const Method& method, const ArgWriter& args, Deadline deadline)
{
    auto reply = TRY(m_bus.call(method, args, deadline));
    int ok = 0;
    if (sd_bus_message_read_basic(reply.get(), 'b', &ok) < 0)
        return make_error(ErrorCode::action_failed, std::string(method.member) + " sent no answer");
    if (!ok)
        return make_error(ErrorCode::action_failed, std::string(method.member) + " was refused by the app");
    return {};
}

nd_core::Result<std::vector<std::string>> AtspiActuator::action_names(const nd_core::WindowInfo& window,
                                                                      const nd_core::Element& element)
{
    Deadline deadline = deadline_in(m_timeout);
    ObjectRef ref = TRY(resolve(window, element, deadline));
    return live_action_names(m_bus, ref, deadline);
}

nd_core::Result<void> AtspiActuator::do_action(const nd_core::WindowInfo& window, const nd_core::Element& element,
                                               std::string_view action)
{
    Deadline deadline = deadline_in(m_timeout);
    ObjectRef ref = TRY(resolve(window, element, deadline));
    auto names = TRY(live_action_names(m_bus, ref, deadline));
    // The exact name first; toolkits differ in case ("click", GTK3 model buttons "Click") and in
    // separators ("click-ancestor", "click ancestor"): then as the act table compares them.
    std::int32_t index = -1;
    for (std::size_t i = 0; i < names.size() && index < 0; ++i)
        if (names[i] == action)
            index = static_cast<std::int32_t>(i);
    for (std::size_t i = 0; i < names.size() && index < 0; ++i)
        if (nd_core::same_action_name(names[i], action))
            index = static_cast<std::int32_t>(i);
    if (index < 0)
        return make_error(ErrorCode::action_not_offered, "the element has no action \"" + std::string(action.substr(0, 64)) +
                                                        "\" (its actions: " + nd_core::describe_actions(names) + ")");
    return expect_true({ref.bus, ref.path, IFACE_ACTION, "DoAction"},
                       [index](sd_bus_message* m) { return sd_bus_message_append(m, "i", index); }, deadline);
}

nd_core::Result<void> AtspiActuator::set_value(const nd_core::WindowInfo& window, const nd_core::Element& element,
                                               std::string_view value)
{
    Deadline deadline = deadline_in(m_timeout);
    Live object = TRY(live(window, element, deadline));
    if (TRY(secure(object, deadline)))
        return make_error(ErrorCode::secure_field_refused, "the element is a secure field");
    return ValueRoutes(m_bus, deadline).set(object, value);
}

nd_core::Result<void> AtspiActuator::insert_text(const nd_core::WindowInfo& window, const nd_core::Element& element,
                                                 std::string_view text)
{
    Deadline deadline = deadline_in(m_timeout);
    Live object = TRY(live(window, element, deadline));
    if (TRY(secure(object, deadline)))
        return make_error(ErrorCode::secure_field_refused, "the element is a secure field");
    return ValueRoutes(m_bus, deadline).insert(object, text);
}

nd_core::Result<void> AtspiActuator::select(const nd_core::WindowInfo& window, const nd_core::Element& element)
{
    Deadline deadline = deadline_in(m_timeout);
    Live object = TRY(live(window, element, deadline));
    if (object.parent.null() || object.index_in_parent < 0)
        return make_error(ErrorCode::action_not_offered, "the element has no parent to select it in");
    std::int32_t index = object.index_in_parent;
    auto done = expect_true({object.parent.bus, object.parent.path, IFACE_SELECTION, "SelectChild"},
                            [index](sd_bus_message* m) { return sd_bus_message_append(m, "i", index); }, deadline);
    if (done || done.error().code != ErrorCode::action_failed)
        return done;
    // A table's cell is selected with its row: GTK3's tree view takes SelectChild only when it has
    // one column, and its Table selects the row (AddRowSelection). A cell that holds the cells of a
    // column's several parts (GTK3: an icon and a name) sits one level further down.
    Live table = TRY(inspect(object.parent, deadline));
    if (table.role == ATSPI_ROLE_TABLE_CELL && !table.parent.null() && table.index_in_parent >= 0) {
        index = table.index_in_parent;
        table = TRY(inspect(table.parent, deadline));
    }
    if (table.interfaces & IF_TABLE) {
        auto row = m_bus.call({table.ref.bus, table.ref.path, IFACE_TABLE, "GetRowAtIndex"},
                              [index](sd_bus_message* m) { return sd_bus_message_append(m, "i", index); }, deadline);
        std::int32_t at = -1;
        if (row && sd_bus_message_read_basic(row->get(), 'i', &at) >= 0 && at >= 0 &&
            expect_true({table.ref.bus, table.ref.path, IFACE_TABLE, "AddRowSelection"},
                        [at](sd_bus_message* m) { return sd_bus_message_append(m, "i", at); }, deadline))
            return {};
    }
    return make_error(ErrorCode::action_failed,
                      "the element's parent does not select it (no Selection or Table that takes it, or refused)");
}

nd_core::Result<std::string> AtspiActuator::read_value(const nd_core::WindowInfo& window,
                                                       const nd_core::Element& element)
{
    Deadline deadline = deadline_in(m_timeout);
    Live object = TRY(live(window, element, deadline));
    if (TRY(secure(object, deadline)))
        return make_error(ErrorCode::secure_field_refused, "the element is a secure field; its value is never read");
    return ValueRoutes(m_bus, deadline).read(object);
}

nd_core::Result<bool> AtspiActuator::is_focused_now(const nd_core::WindowInfo& window, const nd_core::Element& element)
{
    Deadline deadline = deadline_in(m_timeout);
    Live object = TRY(live(window, element, deadline));
    return object.states.has(ATSPI_STATE_FOCUSED);
}

nd_core::Result<bool> AtspiActuator::is_secure_now(const nd_core::WindowInfo& window, const nd_core::Element& element)
{
    Deadline deadline = deadline_in(m_timeout);
    Live object = TRY(live(window, element, deadline));
    return secure(object, deadline);
}

nd_core::Result<void> AtspiActuator::grab_focus(const nd_core::WindowInfo& window, const nd_core::Element& element)
{
    Deadline deadline = deadline_in(m_timeout);
    Live object = TRY(live(window, element, deadline));
    if (!(object.interfaces & IF_COMPONENT))
        return make_error(ErrorCode::action_not_offered, "the element has no Component interface to take the focus");
    if (!object.states.has(ATSPI_STATE_FOCUSABLE))
        return make_error(ErrorCode::action_not_offered, "the element cannot take the keyboard focus (not focusable)");
    return expect_true({object.ref.bus, object.ref.path, IFACE_COMPONENT, "GrabFocus"}, {}, deadline);
}

nd_core::Result<std::vector<std::string>> AtspiActuator::key_bindings(const std::vector<nd_core::Element>& elements,
    std::chrono::milliseconds deadline)
{
    // For the desk's snapshot with keys: Action.GetActions of each element with actions, in one
    // batch; the binding is the third string of the first action (the one a press runs).
    std::vector<std::string> out(elements.size());
    AtspiBatch batch(m_bus, deadline_in(deadline));
    for (std::size_t i = 0; i < elements.size(); ++i) {
        if (elements[i].actions.empty())
            continue;
        auto ref = parse_key(elements[i].key);
        if (!ref)
            continue;
        batch.add({ref->bus, ref->path, IFACE_ACTION, "GetActions"}, {}, [&out, i](const Reply& r) {
            if (!r.ok() || sd_bus_message_enter_container(r.message, SD_BUS_TYPE_ARRAY, "(sss)") < 0)
                return;
            const char* name = nullptr;
            const char* description = nullptr;
            const char* keys = nullptr;
            // Gecko's ";;" (GTK's "mnemonic;sequence;shortcut", all empty) is no binding.
            if (sd_bus_message_read(r.message, "(sss)", &name, &description, &keys) > 0 && keys &&
                std::string_view(keys).find_first_not_of(';') != std::string_view::npos)
                out[i] = cut_utf8(keys, 256);
        });
    }
    TRY_VOID(batch.run());
    return out;
}

} // namespace nd_linux

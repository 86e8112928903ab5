// The choice route of set_value (atspi_value_routes.h): a select's options, wherever its toolkit
// keeps them, and the route that makes the select show one.

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_names.h"
#include "backend/linux/atspi/atspi_value_routes.h"
#include "core/model/act_actions.h"
#include "core/model/views.h"

#include <algorithm>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

// A select with more options than this is not searched.
constexpr std::size_t MAX_OPTIONS = 2000;
// How many scroll panes, viewports and panels a popup's list may sit in.
constexpr int MAX_WRAPPERS = 4;
// How many option names an error about a value none of them has lists.
constexpr std::size_t NAMED_OPTIONS = 12;

constexpr const char* PICK_IN_TAKEOVER =
    "foreground clicks on the select and then on its option in a takeover session may work";

bool is_option_container(std::string_view role)
{
    return role == "menu" || role == "list" || role == "list_box" || role == "popup_menu";
}

// What a popup may hold its list in (Java's: a scroll pane, its viewport).
bool is_wrapper(std::string_view role)
{
    return role == "scroll_pane" || role == "viewport" || role == "panel" || role == "filler";
}

// The roles a select's options come in, when they are its own children (a list box's).
bool is_option_role(std::string_view role)
{
    return role == "list_item" || role == "menu_item" || role == "radio_menu_item" || role == "check_menu_item" ||
           role == "tree_item" || role == "table_cell";
}

} // namespace

nd_core::Result<std::vector<ObjectRef>> ValueRoutes::children_of(const ObjectRef& ref)
{
    std::vector<ObjectRef> out;
    auto reply = TRY(m_bus.call({ref.bus, ref.path, IFACE_ACCESSIBLE, "GetChildren"}, {}, m_deadline));
    if (read_refs(reply.get(), out) < 0)
        return make_error(ErrorCode::action_failed, "GetChildren sent a malformed list");
    if (out.size() > MAX_OPTIONS)
        out.resize(MAX_OPTIONS);
    return out;
}

nd_core::Result<std::vector<std::uint32_t>> ValueRoutes::roles_of(const std::vector<ObjectRef>& refs)
{
    std::vector<std::uint32_t> roles(refs.size(), 0);
    AtspiBatch batch(m_bus, m_deadline);
    for (std::size_t i = 0; i < refs.size(); ++i)
        batch.add({refs[i].bus, refs[i].path, IFACE_ACCESSIBLE, "GetRole"}, {}, [&roles, i](const Reply& r) {
            if (r.ok())
                (void)sd_bus_message_read_basic(r.message, 'u', &roles[i]);
        });
    TRY_VOID(batch.run());
    return roles;
}

nd_core::Result<std::optional<ValueRoutes::WrappedList>> ValueRoutes::wrapped_list(const ObjectRef& lone_child)
{
    ObjectRef at = lone_child;
    auto role = atspi_role_name(TRY(roles_of({at})).front());
    for (int depth = 0; depth < MAX_WRAPPERS && is_wrapper(role); ++depth) {
        auto kids = TRY(children_of(at));
        auto roles = TRY(roles_of(kids));
        // The list where one shows, else the next wrapper down (a scroll pane's viewport, not its bars).
        std::optional<std::size_t> next;
        for (std::size_t i = 0; i < kids.size() && !next; ++i)
            if (is_option_container(atspi_role_name(roles[i])))
                next = i;
        for (std::size_t i = 0; i < kids.size() && !next; ++i)
            if (is_wrapper(atspi_role_name(roles[i])))
                next = i;
        if (!next)
            return std::optional<WrappedList>();
        at = kids[*next];
        role = atspi_role_name(roles[*next]);
    }
    if (!is_option_container(role))
        return std::optional<WrappedList>();
    auto items = TRY(children_of(at));
    if (items.empty())
        return std::optional<WrappedList>();
    return std::optional<WrappedList>(WrappedList{at, std::move(items)});
}

nd_core::Result<std::vector<ValueRoutes::Option>> ValueRoutes::options(const LiveObject& o)
{
    // A select's options are its children (a list box) or the children of the popup it holds
    // (Chromium and Gecko: combo_box > menu > menu_item; GTK3: combo_box > menu > menu_item), or
    // of the list that popup wraps (Java: combo_box > popup_menu > scroll_pane > viewport > list).
    struct Child {
        ObjectRef ref;
        std::uint32_t role = 0;
        std::vector<ObjectRef> children;
    };
    auto top = TRY(children_of(o.ref));
    std::vector<Child> children(top.size());
    AtspiBatch batch(m_bus, m_deadline);
    for (std::size_t i = 0; i < top.size(); ++i) {
        children[i].ref = top[i];
        const ObjectRef& ref = children[i].ref;
        batch.add({ref.bus, ref.path, IFACE_ACCESSIBLE, "GetRole"}, {}, [&children, i](const Reply& r) {
            if (r.ok())
                (void)sd_bus_message_read_basic(r.message, 'u', &children[i].role);
        });
        batch.add({ref.bus, ref.path, IFACE_ACCESSIBLE, "GetChildren"}, {}, [&children, i](const Reply& r) {
            if (r.ok())
                (void)read_refs(r.message, children[i].children);
        });
    }
    TRY_VOID(batch.run());
    std::vector<Option> out;
    auto list_all = [&out](const ObjectRef& container, const std::vector<ObjectRef>& items, bool wrapped) {
        for (std::size_t k = 0; k < items.size() && out.size() < MAX_OPTIONS; ++k)
            out.push_back({items[k], container, static_cast<std::int32_t>(k), {}, false, true, wrapped});
    };
    for (std::size_t i = 0; i < children.size(); ++i) {
        const auto& child = children[i];
        if (is_option_container(atspi_role_name(child.role)) && !child.children.empty()) {
            std::optional<WrappedList> inner;
            if (child.children.size() == 1)
                inner = TRY(wrapped_list(child.children.front()));
            if (inner)
                list_all(inner->list, inner->items, true);
            else
                list_all(child.ref, child.children, false);
        } else if (out.size() < MAX_OPTIONS) {
            out.push_back({child.ref, o.ref, static_cast<std::int32_t>(i), {}, false,
                           is_option_role(atspi_role_name(child.role))});
        }
    }
    AtspiBatch facts(m_bus, m_deadline);
    for (auto& option : out) {
        facts.add({option.ref.bus, option.ref.path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_ACCESSIBLE, "Name"),
                  [&option](const Reply& r) {
                      if (r.ok())
                          (void)read_string_variant(r.message, option.name);
                  });
        facts.add({option.ref.bus, option.ref.path, IFACE_ACCESSIBLE, "GetState"}, {}, [&option](const Reply& r) {
            AtspiStates states;
            if (r.ok() && read_states(r.message, states) >= 0)
                option.selected = states.has(ATSPI_STATE_SELECTED);
        });
    }
    TRY_VOID(facts.run());
    return out;
}

nd_core::Result<std::string> ValueRoutes::read_name(const ObjectRef& ref)
{
    auto reply =
        TRY(m_bus.call({ref.bus, ref.path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_ACCESSIBLE, "Name"), m_deadline));
    std::string name;
    if (read_string_variant(reply.get(), name) < 0)
        return make_error(ErrorCode::action_failed, "the select's Name came in a malformed reply");
    return name;
}

// GTK3 and Qt name a combo box by the option it shows; a browser names it by its label, and a list
// box (which shows its options) is named by its label everywhere.
nd_core::Result<std::optional<std::string>> ValueRoutes::shown_choice(const LiveObject& o,
                                                                      const std::vector<Option>& all)
{
    if (atspi_role_name(o.role) != "combo_box")
        return std::optional<std::string>();
    auto shown = TRY(read_name(o.ref));
    if (shown.empty() || std::none_of(all.begin(), all.end(), [&](const Option& x) { return x.name == shown; }))
        return std::optional<std::string>();
    return std::optional<std::string>(std::move(shown));
}

// Where a select shows its choice, that is what counts, not an option's `selected` state: GTK3's
// popup menu and Qt's popup list select an item the combo box does not take (GTK3 takes it from
// the item's own action, Qt from neither). So the option's own action goes first (Chromium's
// `select`, GTK3's `Click`), then the popup's Selection (Gecko, whose option action does nothing
// while the popup is shut), and either counts only once the select shows the option or, where it
// shows no choice (a browser's, named by its label), once the option reads `selected`.
nd_core::Result<void> ValueRoutes::set_choice(const LiveObject& o, std::string_view value)
{
    auto all = TRY(options(o));
    auto it = std::find_if(all.begin(), all.end(), [&](const Option& option) { return option.name == value; });
    if (std::none_of(all.begin(), all.end(), [](const Option& option) { return option.listed; }))
        return no_route(ErrorCode::action_not_offered, EditKind::choice, atspi_role_name(o.role),
                        "it lists no options (GTK4 and Qt Quick make them only while its popup is open, and GTK 4.8 "
                        "leaves them unnamed, without actions)",
                        PICK_IN_TAKEOVER);
    if (it == all.end()) {
        std::string names;
        for (std::size_t i = 0; i < all.size() && i < NAMED_OPTIONS; ++i)
            names += (i ? ", \"" : "\"") + nd_core::cut_text(all[i].name, 40) + "\"";
        if (all.size() > NAMED_OPTIONS)
            names += ", ...";
        return make_error(ErrorCode::invalid_arguments, "none of the select's " + std::to_string(all.size()) +
                                                            " options is named exactly as the value (they are " +
                                                            names + ")");
    }
    const auto shown = TRY(shown_choice(o, all));
    if (shown ? *shown == value : it->selected)
        return {};
    const Option option = *it;
    auto chosen = [&]() -> nd_core::Result<bool> {
        auto now = TRY(shown_choice(o, all));
        if (now || shown)
            return now == value;
        auto reply = TRY(m_bus.call({option.ref.bus, option.ref.path, IFACE_ACCESSIBLE, "GetState"}, {}, m_deadline));
        AtspiStates states;
        if (read_states(reply.get(), states) < 0)
            return make_error(ErrorCode::action_failed, "GetState sent a malformed set");
        return states.has(ATSPI_STATE_SELECTED);
    };
    // Java's popup list takes an option's click and its own Selection, and the combo box's name
    // follows them, but the combo box keeps its choice: only its own Selection sets that.
    if (option.wrapped && (o.interfaces & IF_SELECTION)) {
        const std::int32_t index = option.index;
        const bool took = TRY(call_bool({o.ref.bus, o.ref.path, IFACE_SELECTION, "SelectChild"},
                                        [index](sd_bus_message* m) { return sd_bus_message_append(m, "i", index); }));
        if (took && TRY(settle(chosen)))
            return {};
        return no_route(ErrorCode::action_failed, EditKind::choice, atspi_role_name(o.role),
                        took ? "it took Selection.SelectChild but does not show the option"
                             : "it refused Selection.SelectChild, the one route to its choice (its popup's list "
                               "only changes its name)",
                        PICK_IN_TAKEOVER);
    }
    auto names = live_action_names(m_bus, option.ref, m_deadline);
    if (names) {
        if (auto choice = nd_core::choose_action(nd_core::ActKind::click, *names)) {
            auto at = std::find(names->begin(), names->end(), choice->action);
            const auto action = static_cast<std::int32_t>(at - names->begin());
            if (TRY(call_bool({option.ref.bus, option.ref.path, IFACE_ACTION, "DoAction"},
                              [action](sd_bus_message* m) { return sd_bus_message_append(m, "i", action); })) &&
                TRY(settle(chosen)))
                return {};
        }
    }
    const std::int32_t index = option.index;
    auto took = m_bus.call({option.container.bus, option.container.path, IFACE_SELECTION, "SelectChild"},
                           [index](sd_bus_message* m) { return sd_bus_message_append(m, "i", index); }, m_deadline);
    int ok = 0;
    if (took && sd_bus_message_read_basic(took->get(), 'b', &ok) >= 0 && ok && TRY(settle(chosen)))
        return {};
    if (auto now = TRY(shown_choice(o, all)))
        return no_route(ErrorCode::action_failed, EditKind::choice, atspi_role_name(o.role),
                        "neither the option's own action nor the popup's Selection.SelectChild made it show the "
                        "option (it still shows \"" + nd_core::cut_text(*now, 80) + "\")",
                        PICK_IN_TAKEOVER);
    return no_route(ErrorCode::action_failed, EditKind::choice, atspi_role_name(o.role),
                    "neither the option's own action nor the popup's Selection.SelectChild selected it", PICK_IN_TAKEOVER);
}

} // namespace nd_linux

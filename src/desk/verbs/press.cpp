#include "desk/desk.h"
#include "desk/desk_geometry.h"
#include "desk/desk_nodes.h"
#include "desk/verbs/act_verb_list.h"

#include <algorithm>
#include <array>

namespace nd_desk::verbs {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

constexpr std::array<std::string_view, 5> SELECTED_ROLES = {"page_tab", "list_item", "table_row", "tree_item", "table_cell"};
constexpr std::array<std::string_view, 4> MENU_ENTRY_ROLES = {"menu_item", "check_menu_item", "radio_menu_item", "tearoff_menu_item"};
constexpr std::chrono::milliseconds MENU_OPEN_TIMEOUT{1500};
constexpr std::chrono::milliseconds MENU_POLL{50};

bool one_of(std::string_view role, auto const& roles) { return std::find(roles.begin(), roles.end(), role) != roles.end(); }

nlohmann::json pressed(std::string_view id, std::string_view how)
{
    return {{"pressed", id}, {"how", how}};
}

// The menu row with `key` in a fresh read of the window, with its frame; nullopt when it is gone.
nd_core::Result<std::optional<nd_core::Element>> fresh_menu(Desk& desk, const nd_core::WindowInfo& window, const std::string& key)
{
    auto snap = TRY(desk.read(window));
    for (std::int32_t row = 0; row < snap->size(); ++row)
        if (snap->elements[static_cast<std::size_t>(row)].key == key) {
            auto framed = TRY(framed_elements(desk, *snap, std::vector<std::int32_t>{row}));
            return std::optional<nd_core::Element>(framed[static_cast<std::size_t>(row)]);
        }
    return std::optional<nd_core::Element>{};
}

// Polls a fresh read until the menu row with `key` shows with a frame, for up to `timeout`.
nd_core::Result<std::optional<nd_core::Element>> wait_showing(Desk& desk, const CallScope& scope,
    const nd_core::WindowInfo& window, const std::string& key, std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        auto menu = TRY(fresh_menu(desk, window, key));
        if (menu && menu->is(nd_core::STATE_SHOWING) && menu->has_frame && menu->frame.has_area())
            return menu;
        if (std::chrono::steady_clock::now() >= deadline)
            return std::optional<nd_core::Element>{};
        if (!scope.stop.sleep_for(MENU_POLL))
            return make_error(ErrorCode::stopped_by_kill_switch, "the press was stopped while a menu opened");
    }
}

// A menu is clicked at its centre; a hidden one first has the menus above it opened, outermost
// first, each clicked once it shows (one whose inner menu already shows is open and is skipped).
// The allowlist gate is the node's own window: menus pop up in windows of their own that the
// window list does not name.
nd_core::Result<nlohmann::json> press_menu(Desk& desk, const CallScope& scope, const nd_core::ElementRef& ref, std::string_view id)
{
    std::vector<std::string> chain; // keys, outermost first, the node last
    const auto& elements = ref.snapshot->elements;
    for (auto p = elements[static_cast<std::size_t>(ref.index)].parent; p >= 0; p = elements[static_cast<std::size_t>(p)].parent)
        if (elements[static_cast<std::size_t>(p)].role == "menu")
            chain.insert(chain.begin(), elements[static_cast<std::size_t>(p)].key);
    chain.push_back(ref.element().key);
    std::int32_t opened = 0;
    nd_core::Point last{};
    for (std::size_t i = 0; i < chain.size(); ++i) {
        auto menu = TRY(wait_showing(desk, scope, ref.window(), chain[i], i == 0 ? std::chrono::milliseconds{0} : MENU_OPEN_TIMEOUT));
        if (!menu)
            return make_error(i == 0 ? ErrorCode::element_not_ready : ErrorCode::action_failed,
                i == 0 ? std::string("not sent: the menu does not show and no menu above it does: open its menu bar or window first")
                       : std::string("a menu above the node did not open: read the window with desk_snapshot and press "
                                     "the menus one by one"));
        if (i + 1 < chain.size()) {
            auto inner = TRY(fresh_menu(desk, ref.window(), chain[i + 1]));
            if (inner && inner->is(nd_core::STATE_SHOWING))
                continue;
        }
        last = centre_of(menu->frame);
        TRY_VOID(click_point(desk, scope, last));
        if (i + 1 < chain.size())
            ++opened;
    }
    auto out = pressed(id, "click");
    out["x"] = last.x;
    out["y"] = last.y;
    if (opened > 0)
        out["opened_menus"] = opened;
    return out;
}

} // namespace

VerbDef press()
{
    return {
        .decl = {
            .name = "desk_press",
            .description = "Presses a node: selects a tab or row; runs a menu entry's action; opens the menus above a hidden "
                           "menu and clicks a menu at its centre; clicks another node at its centre when a hit test there "
                           "finds it, else runs its own click action (press, check, Toggle, ...: the one the driver's click "
                           "runs). how says which was done.",
            .args = {{"id", ArgType::string, "the node's id (<snapshot>:<N>) from desk_snapshot or desk_find", true}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto id = *arg_string(args, "id");
            auto ref = TRY(resolve_node(desk, id));
            const auto& e = ref.element();
            if (e.secure())
                return make_error(ErrorCode::secure_field_refused, "the node is a password field: leave it to the person");
            if (!e.is(nd_core::STATE_ENABLED) && ref.index > 0)
                return make_error(ErrorCode::element_not_ready, "not sent: the node (" + e.role + ") is disabled; wait until "
                    "desk_snapshot shows it enabled, then press it again");
            std::string select_failed;
            if (one_of(e.role, SELECTED_ROLES) && (e.role == "page_tab" || e.is(nd_core::STATE_SELECTABLE))) {
                nd_core::Result<void> selected;
                {
                    auto lock = desk.lock_backend();
                    auto* actuator = desk.backend().actuator();
                    selected = actuator ? actuator->select(ref.window(), e)
                                        : make_error(ErrorCode::backend_unavailable, "this desk has no element actions");
                }
                if (selected)
                    return VerbReply{pressed(id, "selected"), std::nullopt};
                // Its parent does not select (a list that only activates): press it as any node.
                select_failed = selected.error().message;
            }
            if (one_of(e.role, MENU_ENTRY_ROLES)) {
                auto action = TRY(run_default_action(desk, ref));
                auto out = pressed(id, "action");
                out["action"] = action;
                return VerbReply{std::move(out), std::nullopt};
            }
            if (e.role == "menu")
                return VerbReply{TRY(press_menu(desk, scope, ref, id)), std::nullopt};
            auto hit = TRY(hit_test(desk, ref));
            if (hit.point) {
                TRY_VOID(click_point(desk, scope, *hit.point));
                auto out = pressed(id, "click");
                out["x"] = hit.point->x;
                out["y"] = hit.point->y;
                return VerbReply{std::move(out), std::nullopt};
            }
            auto action = run_default_action(desk, ref);
            if (!action)
                return make_error(action.error().code,
                    "no click (" + hit.miss + ") and no action: " + action.error().message +
                        "; bring its window to the front with desk_focus and press again");
            auto out = pressed(id, "action");
            out["action"] = *action;
            out["not_clicked"] = hit.miss;
            if (!select_failed.empty())
                out["not_selected"] = select_failed;
            return VerbReply{std::move(out), std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs

#include "desk/desk_background.h"

#include "core/encode/utf8.h"
#include "desk/desk.h"
#include "desk/desk_input.h"
#include "desk/desk_nodes.h"
#include "desk/desk_targets.h"

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

std::int64_t characters(std::string_view text)
{
    std::int64_t n = 0;
    for (std::size_t i = 0; i < text.size(); i += std::max<std::size_t>(1, nd_core::utf8_sequence_length(text, i)))
        ++n;
    return n;
}

bool takes_text(const nd_core::Element& e)
{
    return e.is(nd_core::STATE_EDITABLE) && e.is(nd_core::STATE_SHOWING);
}

// The field background type writes into, in its fresh read.
nd_core::Result<nd_core::ElementRef> text_field(Desk& desk, const nlohmann::json& args)
{
    if (auto id = arg_string(args, "id")) {
        auto ref = TRY(resolve_node(desk, *id));
        if (names_window(args)) {
            const auto named = TRY(desk.pick_window(args));
            if (named.window_id != ref.window().window_id)
                return make_error(ErrorCode::invalid_arguments,
                    "id names a node of another window than window or pid; give one of them, or both of the same window");
        }
        return ref;
    }
    if (!names_window(args))
        return make_error(ErrorCode::background_refused,
            "background input needs its target: name the window (window or pid) or the field (id)");
    const auto window = TRY(desk.pick_window(args));
    const auto snap = TRY(desk.read(window));
    std::optional<std::int32_t> focused, only;
    int fields = 0;
    for (std::int32_t row = 1; row < snap->size(); ++row) {
        const auto& e = snap->elements[static_cast<std::size_t>(row)];
        if (e.is(nd_core::STATE_FOCUSED) && e.secure())
            return make_error(ErrorCode::secure_field_refused,
                "not sent: the focused field is a password field; leave it to the person");
        if (!takes_text(e) || e.secure())
            continue;
        if (e.is(nd_core::STATE_FOCUSED))
            focused = row;
        ++fields;
        only = row;
    }
    if (focused)
        return nd_core::ElementRef{snap, *focused};
    if (fields == 1)
        return nd_core::ElementRef{snap, *only};
    return make_error(ErrorCode::background_refused,
        "the window \"" + window.title + "\" has " + std::to_string(fields) +
            " text fields and none has the keyboard focus: name the field with id (a node id from desk_snapshot or desk_find)");
}

} // namespace

nd_core::Result<nd_core::WindowInfo> focus_field(Desk& desk, DeskInput& input, const nlohmann::json& args)
{
    const auto ref = TRY(text_field(desk, args));
    const auto& e = ref.element();
    auto window = ref.window();
    TRY_VOID(desk.check_allowed(window));
    if (e.secure())
        return make_error(ErrorCode::secure_field_refused, "not sent: the field is a password field; leave it to the person");
    if (!window.active) {
        TRY_VOID(input.raise(window));
        window.active = true;
    }
    auto lock = desk.lock_backend();
    auto* actuator = desk.backend().actuator();
    if (!actuator)
        return make_error(ErrorCode::backend_unavailable, "this desk has no element actions to focus the field with");
    TRY_VOID(actuator->grab_focus(window, e));
    return window;
}

nd_core::Result<VerbReply> by_input_mode(Desk& desk, const std::function<nd_core::Result<VerbReply>()>& background,
    const std::function<nd_core::Result<VerbReply>()>& foreground)
{
    using Mode = DeskConfig::InputMode;
    const auto mode = desk.config().input_mode;
    if (mode == Mode::foreground)
        return foreground();
    auto sent = background();
    if (mode == Mode::background || sent || sent.error().code != ErrorCode::background_refused)
        return sent;
    auto reply = TRY(foreground());
    reply.result["input"] = "foreground";
    reply.result["background_refused"] = sent.error().message;
    return reply;
}

nd_core::Result<VerbReply> background_type(Desk& desk, DeskInput& input, const nlohmann::json& args, std::string_view text)
{
    const auto ref = TRY(text_field(desk, args));
    const auto& e = ref.element();
    const auto& window = ref.window();
    TRY_VOID(desk.check_allowed(window));
    if (e.secure())
        return make_error(ErrorCode::secure_field_refused, "not sent: the field is a password field; leave it to the person");
    if (!e.is(nd_core::STATE_EDITABLE))
        return make_error(ErrorCode::background_refused,
            "the node (" + e.role + ") takes no text through its own interface: name a text field");
    if (!e.is(nd_core::STATE_ENABLED))
        return make_error(ErrorCode::background_refused, "the field (" + e.role + ") is disabled: it takes no text");
    TRY_VOID(input.check());
    std::optional<std::string> before, after;
    {
        auto lock = desk.lock_backend();
        auto* actuator = desk.backend().actuator();
        if (!actuator)
            return make_error(ErrorCode::background_refused, "this desk has no element interfaces to type through");
        if (TRY(actuator->is_secure_now(window, e)))
            return make_error(ErrorCode::secure_field_refused, "not sent: the field is a password field; leave it to the person");
        if (auto value = actuator->read_value(window, e))
            before = *value;
        auto inserted = actuator->insert_text(window, e, text);
        if (!inserted) {
            if (inserted.error().code == ErrorCode::unsupported)
                return make_error(ErrorCode::background_refused,
                    "the field (" + e.role + ") does not take text through its own interface: " + inserted.error().message);
            return std::move(inserted).error();
        }
        if (auto value = actuator->read_value(window, e))
            after = *value;
    }
    const auto typed = characters(text);
    nlohmann::json out{{"typed", typed}, {"window", window.title}, {"pid", window.pid}, {"input", "background"},
        {"route", "text interface"}, {"field", {{"role", e.role}, {"name", nd_core::utf8_cut(e.name, 80)}}}};
    // Read back: the field now holds its old text with this one inserted somewhere.
    const bool landed = before && after && after->size() == before->size() + text.size() &&
                        after->find(text) != std::string::npos;
    if (!landed)
        out["unverified"] = {{"effect", "the text was given to the field's own text interface"},
            {"note", before && after ? "the field's text did not read back with it inserted"
                                     : "the field's text could not be read back"},
            {"escalation", "read the field with desk_read before typing again; if the text is missing, type it in the "
                           "foreground ([input] mode = \"foreground\")"}};
    return VerbReply{std::move(out), std::nullopt};
}

} // namespace nd_desk

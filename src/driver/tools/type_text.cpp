#include "core/engine/guarded_input.h"
#include "core/model/act_actions.h"
#include "core/model/schemas.h"
#include "driver/act_flow.h"
#include "driver/common.h"
#include "driver/tools/tools.h"

#include <algorithm>
#include <thread>

namespace nd_driver::tools {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

// A toolkit moves the keyboard focus on its own main loop, after it has handled the click; keys
// that come before that can be lost (GTK3 under load drops the first ones). So the first key waits
// until the element says it has the focus, and none is sent when it never does.
constexpr std::chrono::milliseconds FOCUS_WAIT{1000};
constexpr std::chrono::milliseconds FOCUS_POLL{10};

nd_core::Result<void> wait_for_focus(ToolEnv& env, const nd_core::ElementRef& ref)
{
    auto* actuator = env.engine.backend().actuator();
    if (!actuator)
        return nd_core::Ok{};
    const auto end = std::chrono::steady_clock::now() + FOCUS_WAIT;
    for (;;) {
        auto focused = actuator->is_focused_now(ref.window(), ref.element());
        if (!focused.ok())
            return std::move(focused).error();
        if (*focused)
            return nd_core::Ok{};
        if (std::chrono::steady_clock::now() >= end)
            return make_error(ErrorCode::focus_changed,
                "element " + std::to_string(ref.index) + " did not take the keyboard focus after the click; nothing was typed");
        std::this_thread::sleep_for(FOCUS_POLL);
    }
}

nd_core::Result<void> perform(ToolEnv& env, const Args& args, const nd_core::ElementRef& ref, nd_core::ActResult& r)
{
    const auto& e = ref.element();
    if (e.secure())
        return make_error(ErrorCode::secure_field_refused, "element " + std::to_string(ref.index) + " is a secure field");
    const auto text = args.string("text").value_or("");
    if (args.string("delivery_mode").value_or("background") != "foreground") {
        if (!e.is(nd_core::STATE_EDITABLE)) {
            nd_core::Error err(ErrorCode::action_not_offered,
                "element " + std::to_string(ref.index) + " (" + e.role + ") is not editable");
            // A terminal takes what its keys say and offers no text to edit (VTE, Konsole).
            if (e.role == "terminal")
                err.escalation_reason = "a terminal takes keys, not text: a foreground type_text in a takeover "
                                        "session types into it";
            return err;
        }
        auto* actuator = env.engine.backend().actuator();
        if (!actuator)
            return make_error(ErrorCode::backend_unavailable, "the backend has no element actions");
        r.path = "semantic";
        // A last line break into a GTK single-line field is its Enter: its "activate" action.
        const auto typed = nd_core::typed_enter(text, e, env.engine.backend().background_routes(ref.window()).toolkit);
        if (typed.inserts())
            TRY_VOID(actuator->insert_text(ref.window(), e, typed.text));
        if (!typed.action.empty())
            if (auto entered = actuator->do_action(ref.window(), e, typed.action); !entered) {
                auto err = std::move(entered).error();
                err.message = typed.failed_enter(err.message);
                return err;
            }
        r.typed_characters = static_cast<std::int64_t>(
            std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
        return nd_core::Ok{};
    }
    TRY_VOID(require_focus(env, ref.window()));
    nd_core::GuardedInput input(env.engine, *env.session);
    forward_progress(input, env.call);
    r.path = "synthetic";
    // An element that has the keyboard focus already is typed into where its caret is. A click
    // would move the caret, and a click soon after the caller's own one is a double click to the
    // toolkit (Chromium then drops the first key typed after it).
    auto* actuator = env.engine.backend().actuator();
    bool focused = false;
    if (actuator && e.is(nd_core::STATE_FOCUSABLE)) {
        auto now = actuator->is_focused_now(ref.window(), e);
        focused = now.ok() && *now;
    }
    if (!focused) {
        auto point = TRY(click_point(env, ref));
        r.took_cursor = true;
        TRY_VOID(input.click(point, nd_core::MouseButton::left, 1));
        if (e.is(nd_core::STATE_FOCUSABLE))
            TRY_VOID(wait_for_focus(env, ref));
    }
    r.typed_characters = TRY(input.type_text(text));
    return nd_core::Ok{};
}

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args& args)
{
    if (args.string("delivery_mode").value_or("background") == "foreground")
        TRY_VOID(require_takeover(env, "delivery_mode foreground"));
    return run_element_act(env, args, "type_text",
        [&](ToolEnv& e, const nd_core::ElementRef& ref, nd_core::ActResult& r) { return perform(e, args, ref, r); });
}

} // namespace

ToolDef type_text()
{
    return {
        .decl = {
            .name = "type_text",
            .title = "Type text",
            .description = "Types text into an editable element. Headless (default): through its text interface; "
                           "a final line break is a GTK field's Enter. Foreground: clicks it and types key by key, "
                           "its window active. Never into secure fields.",
            .args = {arg::element_token(),
                {.name = "text", .type = ArgType::string, .description = "The text to type (UTF-8).", .required = true,
                    .strict = true, .max_length = 100000},
                arg::delivery_mode(), arg::observe()},
            .annotations = {.destructive = true},
            .output_schema = [] { return nd_core::schemas::act_result_schema(); },
        },
        .cls = ToolClass::act,
        .handler = run,
    };
}

} // namespace nd_driver::tools

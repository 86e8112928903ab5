#include "core/engine/act_result.h"

namespace nd_core {

std::string_view readback_name(Readback r)
{
    switch (r) {
    case Readback::match: return "match";
    case Readback::mismatch: return "mismatch";
    case Readback::unverified: return "unverified";
    }
    return "unverified";
}

void judge(ActResult& r)
{
    if (r.readback) {
        r.verified = *r.readback == Readback::match;
    } else {
        r.verified = !r.diff.empty() || r.settle.window_closed;
    }
    r.effect = r.verified ? "confirmed" : "dispatched";
    r.escalation.reset();
    if (!r.verified && r.path == "semantic" && !r.readback)
        r.escalation = Escalation{"takeover",
            "the element's action ran but the window did not change; a foreground action in a takeover may work"};
}

void write_act_fields(JsonWriter& w, const ActResult& r)
{
    w.field("ok", true);
    w.field("effect", r.effect);
    w.field("verified", r.verified);
    w.field("path", r.path);
    w.field("took_cursor", r.took_cursor);
    w.key("escalation");
    if (r.escalation)
        w.begin_object().field("recommend", r.escalation->recommend).field("reason", r.escalation->reason).end_object();
    else
        w.null();
    w.key("diff");
    write_diff_json(w, r.diff, *r.after);
    w.field("snapshot_id", r.after->id);
    w.key("settle")
        .begin_object()
        .field("settled", r.settle.settled)
        .field("ms", r.settle.ms)
        .field("reads", r.settle.reads)
        .end_object();
    if (r.readback)
        w.field("readback", readback_name(*r.readback));
    if (r.typed_characters)
        w.field("typed_characters", *r.typed_characters);
    if (r.settle.window_closed)
        w.field("window_closed", true);
}

void write_error_object(JsonWriter& w, const Error& e)
{
    const auto& info = error_info(e.code);
    w.begin_object();
    w.field("code", info.name);
    w.field("message", e.message);
    w.key("disposition").begin_object().field("retry", retry_name(info.retry)).end_object();
    w.field("suggestion", info.suggestion);
    if (e.code == ErrorCode::ambiguous_target || e.code == ErrorCode::ambiguous_window_target) {
        w.key("candidates").begin_array();
        for (std::size_t i = 0; i < e.candidates.size() && i < MAX_CANDIDATES; ++i) {
            const auto& c = e.candidates[i];
            w.begin_object()
                .field("window_id", c.window_id)
                .field("pid", c.pid)
                .field("app", sanitize_app_name(c.app))
                .end_object();
        }
        w.end_array();
        if (e.candidates_truncated || e.candidates.size() > MAX_CANDIDATES)
            w.field("candidates_truncated", true);
    }
    if (e.effect)
        w.field("effect", *e.effect);
    if (e.typed_characters)
        w.field("typed_characters", *e.typed_characters);
    if (e.paused_reason)
        w.field("paused_reason", *e.paused_reason);
    if (e.escalation_reason)
        w.key("escalation").begin_object().field("recommend", "takeover").field("reason", *e.escalation_reason).end_object();
    w.end_object();
}

} // namespace nd_core

#pragma once

// The result of an act (§1, §7): what happened (effect, verified), how (path, took_cursor), what to
// do if nothing did (escalation), what changed (diff against a settled re-read, with its
// snapshot_id and settle), set_value's readback, and an optional observation (§7.1).

#include "core/model/diff.h"
#include "core/engine/engine.h"
#include "core/encode/json_writer.h"

#include <optional>
#include <string>

namespace nd_core {

enum class Readback : std::uint8_t { match, mismatch, unverified };
std::string_view readback_name(Readback);

struct Escalation {
    std::string recommend; // e.g. "takeover"
    std::string reason;
};

struct ActResult {
    std::string effect = "dispatched"; // confirmed | dispatched
    bool verified = false;
    std::string path = "semantic";     // semantic | synthetic
    bool took_cursor = false;
    std::optional<Escalation> escalation;
    Diff diff;
    SnapshotPtr after; // the settled re-read
    SettleInfo settle;
    std::optional<Readback> readback;
    std::optional<std::int64_t> typed_characters;
};

// Fills effect, verified and escalation from the diff and readback: a change seen, a readback
// match or the window closing (settle.window_closed) confirms; a mismatch never does; a semantic
// act with no visible change recommends takeover.
void judge(ActResult&);

// Writes the act's fields into an open JSON object (ok, effect, verified, path, took_cursor,
// escalation, diff, snapshot_id, settle, readback?, typed_characters?, window_closed?).
void write_act_fields(JsonWriter&, const ActResult&);

// The error object of §2.1 without "ok" (error envelopes and observe errors share it).
void write_error_object(JsonWriter&, const Error&);

} // namespace nd_core

#include "core/model/schemas.h"

#include "core/errors.h"

namespace nd_core::schemas {

namespace {

nlohmann::json nullable(nlohmann::json schema)
{
    return {{"anyOf", nlohmann::json::array({std::move(schema), {{"type", "null"}}})}};
}

nlohmann::json obj(nlohmann::json properties, nlohmann::json required)
{
    return {{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}};
}

const nlohmann::json STRING = {{"type", "string"}};
const nlohmann::json INTEGER = {{"type", "integer"}};
const nlohmann::json BOOLEAN = {{"type", "boolean"}};

} // namespace

nlohmann::json error_object_schema(bool with_code_enum)
{
    nlohmann::json codes = nlohmann::json::array();
    for (const auto& row : error_table())
        codes.push_back(row.name);
    nlohmann::json code = with_code_enum ? nlohmann::json{{"type", "string"}, {"enum", codes}} : STRING;
    auto candidate = obj({{"window_id", INTEGER}, {"pid", INTEGER}, {"app", {{"type", "string"}, {"maxLength", 256}}}},
        {"window_id", "pid", "app"});
    return obj(
        {
            {"code", code},
            {"message", STRING},
            {"disposition",
                obj({{"retry", {{"type", "string"}, {"enum", {"safe", "unsafe", "after_refresh", "never"}}}}}, {"retry"})},
            {"suggestion", STRING},
            {"candidates", {{"type", "array"}, {"maxItems", MAX_CANDIDATES}, {"items", candidate}}},
            {"candidates_truncated", BOOLEAN},
            {"effect", {{"type", "string"}, {"enum", {"refused", "stopped"}}}},
            {"typed_characters", INTEGER},
            {"paused_reason", {{"type", "string"}, {"enum", {"pointer_moved", "key_pressed", "button_pressed"}}}},
            {"escalation", obj({{"recommend", STRING}, {"reason", STRING}}, {"recommend", "reason"})},
        },
        {"code", "message", "disposition", "suggestion"});
}

const nlohmann::json& error_schema()
{
    static const nlohmann::json schema = [] {
        auto s = obj({{"ok", {{"const", false}}}, {"error", error_object_schema()}}, {"ok", "error"});
        s["$schema"] = "http://json-schema.org/draft-07/schema#";
        return s;
    }();
    return schema;
}

nlohmann::json frame_schema()
{
    return obj({{"x", INTEGER}, {"y", INTEGER}, {"w", INTEGER}, {"h", INTEGER}}, {"x", "y", "w", "h"});
}

nlohmann::json window_schema()
{
    return obj({{"window_id", INTEGER}, {"pid", INTEGER}, {"app", STRING}, {"title", STRING},
                   {"frame", frame_schema()}, {"active", BOOLEAN}},
        {"window_id", "pid", "app", "title", "frame", "active"});
}

nlohmann::json diff_schema()
{
    auto entry = obj({{"kind", {{"type", "string"}, {"enum", {"added", "removed", "changed"}}}},
                         {"element_index", INTEGER}, {"element_token", STRING}, {"role", STRING}, {"name", STRING},
                         {"field", {{"type", "string"}, {"enum", {"name", "value", "states"}}}}, {"from", STRING},
                         {"to", STRING}},
        {"kind", "element_index", "role", "name"});
    return obj({{"structural", BOOLEAN}, {"added", INTEGER}, {"removed", INTEGER}, {"changed", INTEGER},
                   {"entries", {{"type", "array"}, {"items", entry}}}, {"truncated", BOOLEAN}},
        {"structural", "added", "removed", "changed", "entries", "truncated"});
}

nlohmann::json observe_schema()
{
    auto err = error_object_schema();
    return obj({{"snapshot_id", STRING}, {"truncated", BOOLEAN}, {"elements", {{"type", "array"}}},
                   {"tree_text", STRING},
                   {"screenshot", obj({{"mime_type", STRING}, {"width", INTEGER}, {"height", INTEGER}},
                                      {"mime_type", "width", "height"})},
                   {"error", err}, {"screenshot_error", err}},
        nlohmann::json::array());
}

nlohmann::json act_result_schema(nlohmann::json extra)
{
    nlohmann::json props = {
        {"ok", {{"const", true}}},
        {"effect", {{"type", "string"}, {"enum", {"confirmed", "dispatched"}}}},
        {"verified", BOOLEAN},
        {"path", {{"type", "string"}, {"enum", {"semantic", "synthetic"}}}},
        {"took_cursor", BOOLEAN},
        {"escalation", nullable(obj({{"recommend", STRING}, {"reason", STRING}}, {"recommend", "reason"}))},
        {"diff", diff_schema()},
        {"snapshot_id", STRING},
        {"settle", obj({{"settled", BOOLEAN}, {"ms", INTEGER}, {"reads", INTEGER}}, {"settled", "ms", "reads"})},
        {"readback", {{"type", "string"}, {"enum", {"match", "mismatch", "unverified"}}}},
        {"typed_characters", INTEGER},
        {"window_closed", {{"const", true}}},
        {"observe", observe_schema()},
    };
    for (auto& [k, v] : extra.items())
        props[k] = v;
    return obj(std::move(props),
        {"ok", "effect", "verified", "path", "took_cursor", "escalation", "diff", "snapshot_id", "settle"});
}

nlohmann::json takeover_schema()
{
    return obj({{"on", BOOLEAN}, {"indicator", BOOLEAN}, {"paused", BOOLEAN},
                   {"paused_reason", {{"type", "string"}, {"enum", {"pointer_moved", "key_pressed", "button_pressed"}}}},
                   {"reason", STRING}},
        {"on", "indicator", "paused"});
}

} // namespace nd_core::schemas

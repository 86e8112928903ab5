#include "driver/tools/session_json.h"

#include "core/model/schemas.h"

namespace nd_driver::tools {

nlohmann::json session_json(const nd_core::Engine& engine, const nd_core::Session* s)
{
    if (!s || s->end != nd_core::SessionEnd::none)
        return {{"ok", true}, {"session", nullptr}, {"active", false}, {"input", "headless"},
            {"takeover", {{"on", false}, {"indicator", false}, {"paused", false}}}};
    nlohmann::json takeover = {{"on", s->takeover.on}, {"indicator", s->takeover.indicator},
        {"paused", s->takeover.paused}};
    if (s->takeover.paused_reason && s->takeover.paused)
        takeover["paused_reason"] = *s->takeover.paused_reason;
    if (s->takeover.reason)
        takeover["reason"] = *s->takeover.reason;
    auto remaining_ms = s->lease_expires_ms - engine.now_ms();
    nlohmann::json out = {{"ok", true}, {"session", s->id}, {"active", remaining_ms > 0},
        {"apps", s->scope.apps()}, {"input", nd_core::input_mode_name(s->input)}, {"takeover", takeover},
        {"clipboard_read", s->clipboard_read}, {"lease_remaining_s", std::max<std::int64_t>(0, remaining_ms / 1000)}};
    if (s->virtual_cursor)
        out["cursor"] = {{"x", s->virtual_cursor->x}, {"y", s->virtual_cursor->y}};
    return out;
}

std::string session_text(const nlohmann::json& j)
{
    if (j["session"].is_null())
        return "no session; call start_session\n";
    std::string apps;
    for (const auto& a : j["apps"])
        apps += (apps.empty() ? "" : ", ") + a.get<std::string>();
    const auto& t = j["takeover"];
    std::string text = "session " + j["session"].get<std::string>() + ": apps [" + apps + "], input "
        + j["input"].get<std::string>() + ", takeover " + (t["on"].get<bool>() ? "on" : "off");
    if (t["paused"].get<bool>())
        text += " (paused: " + t.value("paused_reason", std::string("person")) + ")";
    if (t.contains("reason"))
        text += " (" + t["reason"].get<std::string>() + ")";
    text += ", clipboard_read " + std::string(j["clipboard_read"].get<bool>() ? "yes" : "no") + ", lease "
        + std::to_string(j["lease_remaining_s"].get<std::int64_t>()) + " s\n";
    return text;
}

nlohmann::json session_schema()
{
    return {{"type", "object"},
        {"properties",
            {{"ok", {{"const", true}}}, {"session", {{"type", {"string", "null"}}}}, {"active", {{"type", "boolean"}}},
                {"apps", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                {"input", {{"type", "string"}, {"enum", {"headless", "takeover"}}}},
                {"takeover", nd_core::schemas::takeover_schema()}, {"clipboard_read", {{"type", "boolean"}}},
                {"lease_remaining_s", {{"type", "integer"}}},
                {"cursor",
                    {{"type", "object"}, {"properties", {{"x", {{"type", "integer"}}}, {"y", {{"type", "integer"}}}}},
                        {"required", {"x", "y"}}}}}},
        {"required", {"ok", "session", "active", "input", "takeover"}}};
}

} // namespace nd_driver::tools

#include "desk/desk.h"
#include "desk/verbs/vision_verb_list.h"
#include "desk/vision/vision_shot.h"
#include "desk/vision/vision_state.h"
#include "mcp/tool_decl.h"

#include <cmath>

namespace nd_desk::verbs {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

// region {x, y, w, h}: whole numbers, w and h at least 1, nothing else.
nd_core::Result<nd_core::Frame> region_arg(const nlohmann::json& region)
{
    std::int64_t v[4] = {};
    const char* names[4] = {"x", "y", "w", "h"};
    for (const auto& [key, value] : region.items())
        if (key != "x" && key != "y" && key != "w" && key != "h")
            return make_error(ErrorCode::invalid_arguments, "region: has " + key.substr(0, 64) + "; it takes x, y, w and h only");
    for (int i = 0; i < 4; ++i) {
        auto it = region.find(names[i]);
        const auto n = it == region.end() ? std::nullopt : nd_mcp::whole_int64(*it);
        if (!n)
            return make_error(ErrorCode::invalid_arguments,
                std::string("region.") + names[i] + ": required, a whole number of screenshot pixels");
        if (*n < -65535 || *n > 65535)
            return make_error(ErrorCode::invalid_arguments, std::string("region.") + names[i] + ": out of range");
        v[i] = *n;
    }
    if (v[2] < 1 || v[3] < 1)
        return make_error(ErrorCode::invalid_arguments, "region: w and h must be at least 1");
    return nd_core::Frame{static_cast<std::int32_t>(v[0]), static_cast<std::int32_t>(v[1]), static_cast<std::int32_t>(v[2]),
        static_cast<std::int32_t>(v[3])};
}

std::string number(double v) { return nlohmann::json(round4(v)).dump(); }

} // namespace

VerbDef look()
{
    return {
        .decl = {
            .name = "desk_look",
            .description = "A JPEG of the whole screen scaled to max_edge, or of region (screenshot pixels of the session's "
                           "latest screenshot) at full resolution with the mapping of its pixels to computer_act x,y. "
                           "Password fields are blacked out.",
            .args = {session_arg(), max_edge_arg(), workspace_only_arg(),
                {"region", ArgType::object, "{x, y, w, h} in screenshot pixels: that part at full resolution"}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            TRY_VOID(vision_allowed(desk, "look"));
            const auto name = TRY(vision_session_name(desk, scope, args));
            const auto session = desk.vision_sessions().get(name);
            auto region = args.find("region");
            if (region == args.end() || region->is_null()) {
                const auto picture = TRY(screen_picture(desk, max_edge_of(args)));
                desk.vision_sessions().put_shot(name, picture.shot);
                return picture_reply({{"session", name}, {"screenshot", picture_json(picture)}}, picture);
            }
            const auto asked = TRY(region_arg(*region));
            const auto seen = session.shot ? session.shot : desk.vision_sessions().any_shot();
            const auto screen = TRY(vision_screen_size(desk));
            const double scale = seen ? seen->scale() : 1.0;
            // The screen pixels the region covers, clipped to the screen.
            const auto x0 = std::max<std::int64_t>(0, std::llround(asked.x * scale));
            const auto y0 = std::max<std::int64_t>(0, std::llround(asked.y * scale));
            const auto x1 = std::min<std::int64_t>(screen.width, std::llround((asked.x + asked.w) * scale));
            const auto y1 = std::min<std::int64_t>(screen.height, std::llround((asked.y + asked.h) * scale));
            if (x1 <= x0 || y1 <= y0)
                return make_error(ErrorCode::invalid_arguments,
                    "region: lies off the screen (" + std::to_string(seen ? seen->width : screen.width) + "x" +
                        std::to_string(seen ? seen->height : screen.height) + " screenshot pixels)");
            const nd_core::Frame rect{static_cast<std::int32_t>(x0), static_cast<std::int32_t>(y0),
                static_cast<std::int32_t>(x1 - x0), static_cast<std::int32_t>(y1 - y0)};
            const auto picture = TRY(region_picture(desk, rect));
            nlohmann::json out{{"session", name}, {"screenshot", picture_json(picture)},
                {"screen_region", {rect.x, rect.y, rect.w, rect.h}},
                // Pixel (px, py) of this image is computer_act x = x0 + px * per_pixel, and so for y.
                {"mapping", {{"x0", round4(rect.x / scale)}, {"y0", round4(rect.y / scale)}, {"per_pixel", round4(1.0 / scale)},
                                {"text", "computer_act x = " + number(rect.x / scale) + " + px * " + number(1.0 / scale) +
                                             ", y = " + number(rect.y / scale) + " + py * " + number(1.0 / scale)}}}};
            out["screenshot"].erase("scale");
            return picture_reply(std::move(out), picture);
        },
    };
}

} // namespace nd_desk::verbs

#include "desk/models/ground.h"
#include "desk/models/model_tool.h"

namespace nd_desk::model_tool_list {

namespace {
constexpr std::size_t MAX_TARGET = 2048;
constexpr int GROUND_MAX_TOKENS = 256;
} // namespace

ModelToolDef ground()
{
    return {
        .decl = {
            .name = "model_ground",
            .description = "Finds a target on a PNG with a model; answers {x, y} in desk coordinates within area, served, usage.",
            .args = {
                {"png_b64", nd_mcp::ArgType::string, "base64 PNG", true},
                {.name = "target", .type = nd_mcp::ArgType::string, .description = "what to find",
                    .required = true, .max_length = MAX_TARGET},
                {"area", nd_mcp::ArgType::object, "{left?, top?, width, height}: the desk rectangle the PNG shows, not its size", true},
                model_timeout_arg(),
            },
            .details = "The model answers a point from 0 to 1000 across and down the image; 1000 maps onto the last pixel "
                       "of area. A point outside 0 to 1000 is an error.",
            .annotations = {.read_only = true, .open_world = true},
        },
        .handler = [](ModelClient& client, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<nlohmann::json> {
            const std::string target = args["target"].get<std::string>();
            if (target.empty())
                return nd_core::make_error(nd_core::ErrorCode::invalid_arguments, "target: is empty; name what to find");
            const auto area = TRY(read_area(args["area"]));
            const auto& png = args["png_b64"].get_ref<const std::string&>();
            TRY_VOID(check_png_b64(png, "png_b64"));
            ChatCall call;
            call.role = ModelRole::ground;
            call.messages = ground_messages(png, target);
            call.max_tokens = GROUND_MAX_TOKENS;
            call.timeout_ms = model_timeout(args);
            auto reply = TRY(client.chat(call, scope.stop));
            const auto point = TRY(read_point(reply.content));
            const auto [x, y] = desk_point(point, area);
            return nlohmann::json{{"x", x}, {"y", y}, {"served", reply.served}, {"usage", reply.usage}};
        },
    };
}

} // namespace nd_desk::model_tool_list

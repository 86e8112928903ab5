#include "desk/models/model_tool.h"

namespace nd_desk::model_tool_list {

namespace {
constexpr std::size_t MAX_IMAGES = 16;
constexpr int ASK_MAX_TOKENS = 4096;
} // namespace

ModelToolDef ask()
{
    return {
        .decl = {
            .name = "model_ask",
            .description = "Asks a model, with PNG screenshots if given; answers {text, served, usage}.",
            .args = {
                {"prompt", nd_mcp::ArgType::string, "the question", true},
                {.name = "images", .type = nd_mcp::ArgType::string_array, .description = "base64 PNGs",
                    .max_length = MAX_IMAGES},
                model_timeout_arg(),
            },
            .details = "The answer is capped at 4096 tokens.",
            .annotations = {.read_only = true, .open_world = true},
        },
        .handler = [](ModelClient& client, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<nlohmann::json> {
            const std::string prompt = args["prompt"].get<std::string>();
            if (prompt.empty())
                return nd_core::make_error(nd_core::ErrorCode::invalid_arguments, "prompt: is empty");
            nlohmann::json content = nlohmann::json::array({{{"type", "text"}, {"text", prompt}}});
            if (auto images = args.find("images"); images != args.end())
                for (std::size_t i = 0; i < images->size(); ++i) {
                    const auto& png = (*images)[i].get_ref<const std::string&>();
                    TRY_VOID(check_png_b64(png, "images[" + std::to_string(i) + "]"));
                    content.push_back({{"type", "image_url"}, {"image_url", {{"url", "data:image/png;base64," + png}}}});
                }
            ChatCall call;
            call.role = ModelRole::ask;
            call.messages = nlohmann::json::array({{{"role", "user"}, {"content", std::move(content)}}});
            call.max_tokens = ASK_MAX_TOKENS;
            call.timeout_ms = model_timeout(args);
            auto reply = TRY(client.chat(call, scope.stop));
            return nlohmann::json{{"text", std::move(reply.content)}, {"served", reply.served}, {"usage", reply.usage}};
        },
    };
}

} // namespace nd_desk::model_tool_list

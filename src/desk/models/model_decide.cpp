#include "desk/models/decide.h"
#include "desk/models/model_tool.h"

namespace nd_desk::model_tool_list {

ModelToolDef decide()
{
    return {
        .decl = {
            .name = "model_decide",
            .description =
                "Asks a model yes/no and choice questions about a state; answers {answers: {key: {probability}} or "
                "{key: {choice, confidence, probabilities}}, served, usage}.",
            .args = {
                {"state", nd_mcp::ArgType::json,
                    "text, JSON, or a list of text and image_url (data:image/png;base64) parts",
                    true},
                {"questions", nd_mcp::ArgType::object,
                    "{key: {type: \"yesno\"|\"choice\", instructions, criteria?, choices?}}", true},
                {"image", nd_mcp::ArgType::boolean, "the state holds a screenshot (the verify model answers)"},
                model_timeout_arg(),
            },
            .details = "One request asks every question; the probabilities come from the token log-probabilities where each "
                       "answer starts when the endpoint gives them, else from the reply's confidence (each answer's from "
                       "says which). docs/models.md tells how.",
            .annotations = {.read_only = true, .open_world = true},
        },
        .handler = [](ModelClient& client, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<nlohmann::json> {
            auto questions = TRY(read_questions(args["questions"]));
            auto parts = TRY(state_parts(args["state"]));
            ChatCall call;
            call.role = arg_bool(args, "image").value_or(false) ? ModelRole::verify : ModelRole::decide;
            call.messages = decide_messages(parts, questions);
            call.max_tokens = decide_max_tokens(questions.size());
            call.logprobs = true;
            call.timeout_ms = model_timeout(args);
            auto reply = TRY(client.chat(call, scope.stop));
            auto answers = TRY(read_decisions(questions, reply));
            return nlohmann::json{{"answers", std::move(answers)}, {"served", reply.served}, {"usage", reply.usage}};
        },
    };
}

} // namespace nd_desk::model_tool_list

// The model tools' pieces without HTTP: [models] in config.toml, model_decide's questions, state,
// prompt and probabilities, model_ground's point and its mapping, and reading a chat completion.

#include "desk/config.h"
#include "desk/models/decide.h"
#include "desk/models/ground.h"
#include "desk/models/model_client.h"
#include "desk/models/model_tool.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace nd_desk;
using nlohmann::json;

namespace {

TEST(ModelsConfig, DefaultsReachOpenRouterWithItsVariable)
{
    auto config = parse_config("");
    ASSERT_TRUE(config.ok());
    EXPECT_EQ(config->models.base_url, "https://openrouter.ai/api/v1");
    EXPECT_EQ(config->models.api_key_env, "OPENROUTER_API_KEY");
    EXPECT_EQ(config->models.timeout_ms, 30000);
    for (auto role : {ModelRole::decide, ModelRole::verify, ModelRole::ask, ModelRole::ground})
        EXPECT_FALSE(config->models.model_for(role).empty());
    EXPECT_EQ(config->model_key_variables(), std::vector<std::string>{"OPENROUTER_API_KEY"});
}

TEST(ModelsConfig, EveryKeyIsReadAndOneModelPerRole)
{
    auto config = parse_config(R"([models]
base_url = "http://127.0.0.1:9/v1/"
api_key_env = "MY_KEY"
timeout_ms = 1500
decide = "d/model"
verify = "v/model"
ask = "a/model"
ground = "g/model"
)");
    ASSERT_TRUE(config.ok()) << config.error().message;
    const auto& m = config->models;
    EXPECT_EQ(m.base_url, "http://127.0.0.1:9/v1"); // the trailing slash is dropped
    EXPECT_EQ(m.api_key_env, "MY_KEY");
    EXPECT_EQ(m.timeout_ms, 1500);
    EXPECT_EQ(m.model_for(ModelRole::decide), "d/model");
    EXPECT_EQ(m.model_for(ModelRole::verify), "v/model");
    EXPECT_EQ(m.model_for(ModelRole::ask), "a/model");
    EXPECT_EQ(m.model_for(ModelRole::ground), "g/model");
    EXPECT_EQ(config->model_key_variables(), (std::vector<std::string>{"OPENROUTER_API_KEY", "MY_KEY"}));
}

TEST(ModelsConfig, EveryBadValueIsRefusedByItsKey)
{
    const std::pair<const char*, const char*> cases[] = {
        {"[models]\nbase_url = \"ftp://x\"", "models.base_url"},
        {"[models]\nbase_url = 3", "models.base_url"},
        {"[models]\napi_key_env = \"A B\"", "models.api_key_env"},
        {"[models]\napi_key_env = \"\"", "models.api_key_env"},
        {"[models]\ntimeout_ms = 5", "models.timeout_ms"},
        {"[models]\ntimeout_ms = 1.5", "models.timeout_ms"},
        {"[models]\ntimeout_ms = 9999999", "models.timeout_ms"},
        {"[models]\ndecide = \"\"", "models.decide"},
        {"[models]\nground = 1", "models.ground"},
        {"[models]\nmodel = \"x\"", "unknown key models.model"},
        {"models = 1", "[models] must be a table"},
    };
    for (const auto& [text, what] : cases) {
        auto config = parse_config(text);
        ASSERT_FALSE(config.ok()) << text;
        EXPECT_NE(config.error().message.find(what), std::string::npos) << text << " -> " << config.error().message;
    }
}

TEST(DecideQuestions, ReadEveryShapeAndRefuseEveryBadOne)
{
    auto ok = read_questions(json::parse(R"({
        "saved": {"type": "yesno", "instructions": "Is the file saved?", "criteria": ["no * in the title"]},
        "typo": {"type": "noul", "instructions": "Is a dialog open?"},
        "page": {"type": "choice", "instructions": "Which page?", "choices": ["Home", "Settings", "About"]}})"));
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    ASSERT_EQ(ok->size(), 3u);
    const auto& page = (*ok)[0]; // keys come sorted
    EXPECT_EQ(page.key, "page");
    EXPECT_FALSE(page.yes_no);
    EXPECT_EQ(page.choices.size(), 3u);
    EXPECT_TRUE((*ok)[2].yes_no); // "noul" is the seed's spelling of yes/no
    EXPECT_EQ((*ok)[1].criteria, std::vector<std::string>{"no * in the title"});

    const std::pair<const char*, const char*> bad[] = {
        {R"({})", "questions: must be an object of at least one"},
        {R"([])", "questions: must be an object"},
        {R"({"a": {"type": "maybe", "instructions": "x"}})", "questions.a.type"},
        {R"({"a": {"type": "yesno"}})", "questions.a.instructions"},
        {R"({"a": {"type": "yesno", "instructions": ""}})", "questions.a.instructions"},
        {R"({"a": {"type": "yesno", "instructions": "x", "extra": 1}})", "unknown field extra"},
        {R"({"a": {"type": "yesno", "instructions": "x", "choices": ["p", "q"]}})", "questions.a.choices"},
        {R"({"a": {"type": "choice", "instructions": "x", "choices": ["p"]}})", "2 to 26"},
        {R"({"a": {"type": "choice", "instructions": "x", "choices": ["p", "p"]}})", "listed twice"},
        {R"({"a": {"type": "choice", "instructions": "x"}})", "questions.a.choices"},
        {R"({"a b": {"type": "yesno", "instructions": "x"}})", "a question's key"},
        {R"({"a": {"type": "yesno", "instructions": "x", "criteria": 3}})", "questions.a.criteria"},
        {R"({"a": "yes?"})", "questions.a: must be"},
    };
    for (const auto& [text, what] : bad) {
        auto r = read_questions(json::parse(text));
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_NE(r.error().message.find(what), std::string::npos) << text << " -> " << r.error().message;
    }
    json many = json::object();
    for (int i = 0; i < 33; ++i)
        many["q" + std::to_string(i)] = {{"type", "yesno"}, {"instructions", "x"}};
    EXPECT_FALSE(read_questions(many).ok());
}

TEST(DecideState, TextJsonAndPartsBecomeMessageParts)
{
    auto text = state_parts("the editor shows hello");
    ASSERT_TRUE(text.ok());
    EXPECT_EQ((*text)[0]["text"], "the editor shows hello");

    auto object = state_parts(json{{"title", "Editor"}});
    ASSERT_TRUE(object.ok());
    EXPECT_EQ((*object)[0]["text"], R"({"title":"Editor"})");

    auto parts = state_parts(json::parse(R"([{"type": "text", "text": "shot:"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}])"));
    ASSERT_TRUE(parts.ok());
    ASSERT_EQ(parts->size(), 2u);
    EXPECT_EQ((*parts)[1]["image_url"]["url"], "data:image/png;base64,iVBORw0KGgo=");

    EXPECT_FALSE(state_parts("").ok());
    EXPECT_FALSE(state_parts(json::parse(R"([{"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}])")).ok());
    EXPECT_FALSE(state_parts(json::parse(R"([{"type": "text", "text": 3}])")).ok());
    // A list that is not parts is JSON, sent as text.
    auto list = state_parts(json::parse(R"([1, 2])"));
    ASSERT_TRUE(list.ok());
    EXPECT_EQ((*list)[0]["text"], "[1,2]");
}

TEST(DecidePrompt, NamesEveryQuestionItsCriteriaAndLetteredOptions)
{
    auto questions = read_questions(json::parse(R"({
        "saved": {"type": "yesno", "instructions": "Is it saved?", "criteria": "no asterisk"},
        "page": {"type": "choice", "instructions": "Which page?", "choices": ["Home", "Settings"]}})"));
    ASSERT_TRUE(questions.ok());
    auto messages = decide_messages(json::array({{{"type", "text"}, {"text", "STATE"}}}), *questions);
    ASSERT_EQ(messages.size(), 2u);
    EXPECT_EQ(messages[0]["role"], "system");
    const auto& content = messages[1]["content"];
    EXPECT_EQ(content[1]["text"], "STATE");
    const std::string asked = content.back()["text"];
    for (const char* piece : {"- saved (yes/no): Is it saved?", "Criteria: no asterisk", "- page (choice): Which page?",
             "A. Home", "B. Settings", "\"saved\": {\"answer\": \"yes\" or \"no\""})
        EXPECT_NE(asked.find(piece), std::string::npos) << piece << "\n" << asked;
}

// A reply's tokens with their alternatives, spelling `content` one character run at a time.
ChatAnswer reply_with(const std::string& content, std::vector<TokenLogprob> tokens)
{
    ChatAnswer a;
    a.content = content;
    a.logprobs = std::move(tokens);
    return a;
}

TEST(DecideAnswers, ProbabilitiesComeFromTheLogprobsWhereTheAnswerStarts)
{
    auto questions = read_questions(json::parse(R"({
        "saved": {"type": "yesno", "instructions": "?"},
        "page": {"type": "choice", "instructions": "?", "choices": ["Home", "Settings", "About"]}})"));
    ASSERT_TRUE(questions.ok());
    // {"page": {"answer": "B", "confidence": 0.9}, "saved": {"answer": "yes", "confidence": 0.5}}
    std::vector<TokenLogprob> t = {
        {"{\"page\": {\"answer\": \"", -0.01, {}},
        {"B", std::log(0.6), {{"B", std::log(0.6)}, {"A", std::log(0.3)}, {"C", std::log(0.05)}, {"Z", std::log(0.05)}}},
        {"\", \"confidence\": 0.9}, \"saved\": {\"answer\": ", -0.01, {}},
        {"\"yes", std::log(0.72), {{"\"yes", std::log(0.72)}, {"\"no", std::log(0.18)}, {"\"Yes", std::log(0.08)}, {"\"maybe", std::log(0.02)}}},
        {"\", \"confidence\": 0.5}}", -0.01, {}},
    };
    std::string content;
    for (const auto& tok : t)
        content += tok.token;
    auto answers = read_decisions(*questions, reply_with(content, t));
    ASSERT_TRUE(answers.ok()) << answers.error().message;
    EXPECT_EQ((*answers)["saved"]["from"], "logprobs");
    EXPECT_NEAR((*answers)["saved"]["probability"].get<double>(), 0.8 / 0.98, 1e-3); // yes + Yes over yes + Yes + no
    const auto& page = (*answers)["page"];
    EXPECT_EQ(page["choice"], "Settings");
    EXPECT_EQ(page["from"], "logprobs");
    EXPECT_NEAR(page["confidence"].get<double>(), 0.6 / 0.95, 1e-3);
    EXPECT_NEAR(page["probabilities"]["Home"].get<double>(), 0.3 / 0.95, 1e-3);
    EXPECT_NEAR(page["probabilities"]["About"].get<double>(), 0.05 / 0.95, 1e-3);
}

TEST(DecideAnswers, WithoutLogprobsTheReplysConfidenceGivesThem)
{
    auto questions = read_questions(json::parse(R"({
        "saved": {"type": "yesno", "instructions": "?"},
        "open": {"type": "yesno", "instructions": "?"},
        "page": {"type": "choice", "instructions": "?", "choices": ["Home", "Settings", "About"]}})"));
    ASSERT_TRUE(questions.ok());
    auto answers = read_decisions(*questions, reply_with("```json\n{\"saved\": {\"answer\": \"no\", \"confidence\": 0.8}, "
                                                         "\"open\": {\"answer\": \"Yes\"}, \"page\": {\"answer\": \"A\", \"confidence\": 0.7}}\n```", {}));
    ASSERT_TRUE(answers.ok()) << answers.error().message;
    EXPECT_NEAR((*answers)["saved"]["probability"].get<double>(), 0.2, 1e-9);
    EXPECT_EQ((*answers)["saved"]["from"], "answer");
    EXPECT_EQ((*answers)["open"]["probability"], 1.0); // no confidence: sure
    EXPECT_EQ((*answers)["page"]["choice"], "Home");
    EXPECT_NEAR((*answers)["page"]["probabilities"]["Settings"].get<double>(), 0.15, 1e-9);
    EXPECT_EQ((*answers)["page"]["from"], "answer");
}

TEST(DecideAnswers, AReplyThatIsNotTheAnswerSaysWhat)
{
    auto questions = read_questions(json::parse(R"({"saved": {"type": "yesno", "instructions": "?"},
        "page": {"type": "choice", "instructions": "?", "choices": ["Home", "Settings"]}})"));
    ASSERT_TRUE(questions.ok());
    const std::pair<const char*, const char*> bad[] = {
        {"I think so", "holds no JSON object"},
        {R"({"page": {"answer": "A"}})", "does not answer saved"},
        {R"({"page": {"answer": "A"}, "saved": {"answer": "perhaps"}})", "answers it \"perhaps\""},
        {R"({"page": {"answer": "Q"}, "saved": {"answer": "yes"}})", "none of its options' letters"},
        {R"({"page": {"answer": "A"}, "saved": {"answer": "yes", "confidence": "high"}})", "confidence is not a number"},
    };
    for (const auto& [text, what] : bad) {
        auto r = read_decisions(*questions, reply_with(text, {}));
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_NE(r.error().message.find(what), std::string::npos) << text << " -> " << r.error().message;
    }
}

TEST(GroundPoint, ReadsTheShapesModelsAnswerAndRefusesOutside)
{
    const std::pair<const char*, std::pair<double, double>> ok[] = {
        {R"({"x": 500, "y": 250})", {500, 250}},
        {"```json\n{\"x\": 0, \"y\": 1000}\n```", {0, 1000}},
        {"[12.5, 900]", {12.5, 900}},
        {"The button is at (300, 40).", {300, 40}},
        {"<point>710 88</point>", {710, 88}},
    };
    for (const auto& [text, want] : ok) {
        auto p = read_point(text);
        ASSERT_TRUE(p.ok()) << text << " -> " << p.error().message;
        EXPECT_DOUBLE_EQ(p->x, want.first) << text;
        EXPECT_DOUBLE_EQ(p->y, want.second) << text;
    }
    for (const char* text : {R"({"x": 1001, "y": 5})", "[-1, 5]", "(5, 2000)"}) {
        auto p = read_point(text);
        ASSERT_FALSE(p.ok()) << text;
        EXPECT_NE(p.error().message.find("outside 0 to 1000"), std::string::npos) << p.error().message;
    }
    EXPECT_NE(read_point("no idea").error().message.find("holds no point"), std::string::npos);
}

using Pixel = std::pair<std::int64_t, std::int64_t>;

TEST(GroundPoint, MapsOntoTheAreaWithItsOriginAndTheLastPixelAt1000)
{
    GroundArea area{100, -50, 201, 101};
    EXPECT_EQ(desk_point({0, 0}, area), Pixel(100, -50));
    EXPECT_EQ(desk_point({1000, 1000}, area), Pixel(300, 50)); // the last pixel
    EXPECT_EQ(desk_point({500, 500}, area), Pixel(200, 0));
    GroundArea one{7, 9, 1, 1};
    EXPECT_EQ(desk_point({1000, 1000}, one), Pixel(7, 9));

    auto a = read_area(json::parse(R"({"width": 10, "height": 20})"));
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->left, 0);
    EXPECT_EQ(a->height, 20);
    for (const char* bad : {R"({"width": 0, "height": 5})", R"({"height": 5})", R"({"width": 1.5, "height": 5})",
             R"({"width": 5, "height": 5, "depth": 1})", R"([1, 2])", R"({"width": 5, "height": 5, "left": "a"})"})
        EXPECT_FALSE(read_area(json::parse(bad)).ok()) << bad;
}

TEST(ChatAnswer, ReadsContentUsageServedAndLogprobs)
{
    auto a = read_chat_answer("asked/model", R"({"id": "gen-1", "model": "vendor/build-7", "choices": [{"message":
        {"role": "assistant", "content": "hi"}, "logprobs": {"content": [{"token": "hi", "logprob": -0.1,
        "top_logprobs": [{"token": "hi", "logprob": -0.1}, {"token": "ho", "logprob": -2.5}]}]}}],
        "usage": {"prompt_tokens": 40, "completion_tokens": 1, "prompt_tokens_details": {"cached_tokens": 32}}})");
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a->content, "hi");
    EXPECT_EQ(a->usage, json::parse(R"({"model": "asked/model", "input_tokens": 40, "output_tokens": 1, "cached_tokens": 32})"));
    EXPECT_EQ(a->served, json::parse(R"({"model": "asked/model", "build": "vendor/build-7", "id": "gen-1"})"));
    ASSERT_EQ(a->logprobs.size(), 1u);
    EXPECT_EQ(a->logprobs[0].top.size(), 2u);

    auto bare = read_chat_answer("m", R"({"choices": [{"message": {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}}]})");
    ASSERT_TRUE(bare.ok());
    EXPECT_EQ(bare->content, "ab");
    EXPECT_EQ(bare->served, json::parse(R"({"model": "m", "build": null, "id": null})"));
    EXPECT_EQ(bare->usage, json::parse(R"({"model": "m", "input_tokens": null, "output_tokens": null, "cached_tokens": null})"));

    const std::pair<const char*, const char*> bad[] = {
        {"<html>", "not a JSON object"},
        {R"({"choices": []})", "no choices"},
        {R"({"choices": [{"message": {"content": null, "refusal": "I cannot"}}]})", "the model refused: I cannot"},
        {R"({"choices": [{"message": {"content": ""}, "finish_reason": "length"}]})", "used all its tokens"},
        {R"({"error": {"message": "provider down", "code": 502}})", "provider down"},
    };
    for (const auto& [body, what] : bad) {
        auto r = read_chat_answer("m", body);
        ASSERT_FALSE(r.ok()) << body;
        EXPECT_NE(r.error().message.find(what), std::string::npos) << body << " -> " << r.error().message;
    }
}

TEST(ChatRequest, NamesTheModelAsksLogprobsAndBoundsTokens)
{
    ChatCall call;
    call.messages = json::array({{{"role", "user"}, {"content", "q"}}});
    call.max_tokens = 64;
    call.logprobs = true;
    auto body = chat_request_body("m/1", call);
    EXPECT_EQ(body["model"], "m/1");
    EXPECT_EQ(body["max_tokens"], 64);
    EXPECT_EQ(body["logprobs"], true);
    EXPECT_EQ(body["top_logprobs"], TOP_LOGPROBS);
    EXPECT_EQ(body["temperature"], 0);
    call.logprobs = false;
    EXPECT_FALSE(chat_request_body("m/1", call).contains("logprobs"));
}

TEST(ModelTools, OneRegistryOfThreeWithDeclaredArguments)
{
    ASSERT_EQ(model_tools().size(), 3u);
    EXPECT_NE(find_model_tool("model_decide"), nullptr);
    EXPECT_NE(find_model_tool("model_ask"), nullptr);
    EXPECT_NE(find_model_tool("model_ground"), nullptr);
    EXPECT_EQ(find_model_tool("model_other"), nullptr);
    auto schema = nd_mcp::input_schema(find_model_tool("model_decide")->decl);
    EXPECT_EQ(schema["properties"]["state"]["type"], json::parse(R"(["string", "object", "array"])"));
    EXPECT_TRUE(check_png_b64("iVBORw0KGgoAAAANSUhEUg==", "png_b64").ok());
    EXPECT_NE(check_png_b64("aGVsbG8=", "png_b64").error().message.find("not a PNG"), std::string::npos);
    EXPECT_NE(check_png_b64("%%%", "png_b64").error().message.find("not base64"), std::string::npos);
}

} // namespace

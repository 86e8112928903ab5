// The model tools through a real daemon on the wire, against a fake OpenAI-compatible endpoint on
// 127.0.0.1 (tests/support/fake_openai.h): the request each sends (the role's model, the key, the
// image parts, the logprobs), every answer shape, the mapping onto area, every failure an endpoint
// can give, retries, timeouts, connection reuse, a proxy from the environment, a stop in flight, and
// that no key reaches an answer or a log line. Nothing here reaches the internet.

#include "desk_test_support.h"
#include "support/fake_openai.h"

#include <chrono>
#include <cstdlib>
#include <future>
#include <mutex>

namespace {

namespace w = nd_desk::wire;
using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* KEY = "sk-test-4c2f9b7e1d5a";
constexpr const char* KEY_VARIABLE = "NISH_TEST_MODEL_KEY";
// A 1x1 PNG.
constexpr const char* PNG =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

class ModelTools : public ::testing::Test {
protected:
    void start(const std::function<void(nd_desk::ModelsConfig&)>& adjust = {}, bool with_key = true)
    {
        nd_desk::DeskConfig config;
        auto& m = config.models;
        m.base_url = m_fake.base_url();
        m.api_key_env = KEY_VARIABLE;
        m.timeout_ms = 5000;
        m.decide = "t/decide";
        m.verify = "t/verify";
        m.ask = "t/ask";
        m.ground = "t/ground";
        if (adjust)
            adjust(m);
        m_daemon = std::make_unique<nd_test::MockDaemon>(m_dir.socket(), std::move(config), [&](nd_desk::DaemonOptions& o) {
            o.log = [this](const std::string& line) {
                std::lock_guard lock(m_log_mutex);
                m_log += line + "\n";
            };
            o.model_keys = [with_key](const std::string& variable) -> std::optional<std::string> {
                if (with_key && variable == KEY_VARIABLE)
                    return std::string(KEY);
                return std::nullopt;
            };
        });
    }

    w::Response call(const std::string& tool, json args, std::chrono::seconds within = 20s)
    {
        auto client = w::Client::connect(m_dir.socket());
        EXPECT_TRUE(client.ok()) << client.error().message;
        if (!client.ok())
            return w::error_text("no connection");
        auto r = client->call(w::Request{"", tool, std::move(args)}, w::Clock::now() + within);
        EXPECT_EQ(r.status, w::Client::CallStatus::answered) << r.failure;
        EXPECT_EQ(r.response.text.find(KEY), std::string::npos) << "the key in an answer: " << r.response.text;
        return r.response;
    }

    json ok(const std::string& tool, json args)
    {
        auto r = call(tool, std::move(args));
        EXPECT_FALSE(r.is_error) << r.text;
        return json::parse(r.text, nullptr, false);
    }

    std::string failure(const std::string& tool, json args)
    {
        auto r = call(tool, std::move(args));
        EXPECT_TRUE(r.is_error) << r.text;
        return r.text;
    }

    static json ask_args() { return {{"prompt", "What is on the screen?"}}; }
    static json yes_no() { return {{"saved", {{"type", "yesno"}, {"instructions", "Is the file saved?"}}}}; }
    static nd_test::FakeReply reply(const std::string& content) { return {200, nd_test::FakeOpenAI::chat_completion(content)}; }
    static nd_test::FakeReply status(int code, std::string body = "{}") { return {code, std::move(body)}; }

    std::string log()
    {
        std::lock_guard lock(m_log_mutex);
        return m_log;
    }

    nd_test::FakeOpenAI m_fake;
    nd_test::TempDir m_dir{"model-tools"};
    std::unique_ptr<nd_test::MockDaemon> m_daemon;
    std::mutex m_log_mutex;
    std::string m_log;
};

TEST_F(ModelTools, DecideAsksTheDecideModelOnceAndTakesTheProbabilityFromLogprobs)
{
    start();
    // The answer token "yes" with "no" behind it: P(yes) = 0.75 / (0.75 + 0.25).
    json body = json::parse(nd_test::FakeOpenAI::chat_completion(R"({"saved": {"answer": "yes", "confidence": 0.9}})"));
    body["choices"][0]["logprobs"] = {{"content", json::array({
        {{"token", R"({"saved": {"answer": ")"}, {"logprob", -0.01}, {"top_logprobs", json::array()}},
        {{"token", "yes"}, {"logprob", std::log(0.75)}, {"top_logprobs", json::array({
            {{"token", "yes"}, {"logprob", std::log(0.75)}}, {{"token", "no"}, {"logprob", std::log(0.25)}}})}},
        {{"token", R"(", "confidence": 0.9}})"}, {"logprob", -0.01}, {"top_logprobs", json::array()}},
    })}};
    m_fake.push({200, body.dump()});
    auto answer = ok("model_decide", {{"state", "Editor - notes.txt (no asterisk)"}, {"questions", yes_no()}});
    EXPECT_NEAR(answer["answers"]["saved"]["probability"].get<double>(), 0.75, 1e-4);
    EXPECT_EQ(answer["answers"]["saved"]["from"], "logprobs");
    EXPECT_EQ(answer["served"], json::parse(R"({"model": "t/decide", "build": "fake/model-build", "id": "gen-test-1"})"));
    EXPECT_EQ(answer["usage"], json::parse(R"({"model": "t/decide", "input_tokens": 11, "output_tokens": 3, "cached_tokens": 2})"));

    auto requests = m_fake.requests();
    ASSERT_EQ(requests.size(), 1u);
    const auto& r = requests[0];
    EXPECT_EQ(r.method, "POST");
    EXPECT_EQ(r.target, "/v1/chat/completions");
    EXPECT_EQ(r.headers.at("authorization"), std::string("Bearer ") + KEY);
    EXPECT_EQ(r.headers.at("content-type"), "application/json");
    auto sent = json::parse(r.body);
    EXPECT_EQ(sent["model"], "t/decide");
    EXPECT_EQ(sent["logprobs"], true);
    EXPECT_EQ(sent["top_logprobs"], nd_desk::TOP_LOGPROBS);
    EXPECT_NE(sent["messages"].dump().find("Editor - notes.txt"), std::string::npos);
    EXPECT_NE(sent["messages"].dump().find("Is the file saved?"), std::string::npos);
}

TEST_F(ModelTools, AScreenshotStateGoesToTheVerifyModelWithItsImageParts)
{
    start();
    m_fake.push(reply(R"({"page": {"answer": "B", "confidence": 0.8}})"));
    const std::string url = std::string("data:image/png;base64,") + PNG;
    auto answer = ok("model_decide", {{"state", json::array({{{"type", "text"}, {"text", "the window:"}},
                                                {{"type", "image_url"}, {"image_url", {{"url", url}}}}})},
                                         {"questions", {{"page", {{"type", "choice"}, {"instructions", "Which tab is open?"},
                                                                      {"choices", {"General", "Privacy"}}}}}},
                                         {"image", true}});
    EXPECT_EQ(answer["answers"]["page"]["choice"], "Privacy");
    EXPECT_EQ(answer["answers"]["page"]["from"], "answer"); // the endpoint gave no logprobs
    EXPECT_NEAR(answer["answers"]["page"]["probabilities"]["General"].get<double>(), 0.2, 1e-9);
    EXPECT_EQ(answer["served"]["model"], "t/verify");
    auto sent = json::parse(m_fake.requests().at(0).body);
    EXPECT_EQ(sent["model"], "t/verify");
    EXPECT_NE(sent["messages"].dump().find(url), std::string::npos);
}

TEST_F(ModelTools, AskSendsThePromptAndPngsAndAnswersText)
{
    start();
    m_fake.push(reply("A text editor with an empty document."));
    json args = ask_args();
    args["images"] = {PNG, PNG};
    auto answer = ok("model_ask", args);
    EXPECT_EQ(answer["text"], "A text editor with an empty document.");
    EXPECT_EQ(answer["usage"]["model"], "t/ask");
    EXPECT_EQ(answer["usage"]["input_tokens"], 11);
    auto sent = json::parse(m_fake.requests().at(0).body);
    EXPECT_EQ(sent["model"], "t/ask");
    const auto& content = sent["messages"][0]["content"];
    ASSERT_EQ(content.size(), 3u);
    EXPECT_EQ(content[0]["text"], "What is on the screen?");
    EXPECT_EQ(content[2]["image_url"]["url"], std::string("data:image/png;base64,") + PNG);
    EXPECT_FALSE(sent.contains("logprobs"));
}

TEST_F(ModelTools, GroundMapsThePointOntoTheAreaWithItsOrigin)
{
    start();
    m_fake.push(reply(R"({"x": 1000, "y": 0})"));
    m_fake.push(reply(R"({"x": 500, "y": 500})"));
    m_fake.push(reply(R"({"x": 1200, "y": 10})"));
    json args{{"png_b64", PNG}, {"target", "the Save button"}, {"area", {{"left", 100}, {"top", 200}, {"width", 51}, {"height", 41}}}};
    auto corner = ok("model_ground", args);
    EXPECT_EQ(corner["x"], 150); // 1000 is the area's last pixel
    EXPECT_EQ(corner["y"], 200);
    EXPECT_EQ(corner["usage"]["model"], "t/ground");
    auto middle = ok("model_ground", args);
    EXPECT_EQ(middle["x"], 125);
    EXPECT_EQ(middle["y"], 220);
    EXPECT_NE(failure("model_ground", args).find("outside 0 to 1000"), std::string::npos);
    auto sent = json::parse(m_fake.requests().at(0).body);
    EXPECT_EQ(sent["model"], "t/ground");
    EXPECT_NE(sent["messages"].dump().find("the Save button"), std::string::npos);
}

TEST_F(ModelTools, BadArgumentsAreRefusedBeforeAnyRequest)
{
    start();
    EXPECT_NE(failure("model_decide", {{"state", "x"}}).find("model_decide: questions"), std::string::npos);
    EXPECT_NE(failure("model_decide", {{"state", 3}, {"questions", yes_no()}}).find("state"), std::string::npos);
    EXPECT_NE(failure("model_ask", {{"prompt", "x"}, {"images", {"aGVsbG8="}}}).find("images[0]: is not a PNG"), std::string::npos);
    EXPECT_NE(failure("model_ask", {{"prompt", "x"}, {"timeout_ms", 5}}).find("timeout_ms"), std::string::npos);
    EXPECT_NE(failure("model_ground", {{"png_b64", PNG}, {"target", "x"}, {"area", {{"width", 0}, {"height", 5}}}}).find("area.width"),
        std::string::npos);
    EXPECT_NE(failure("model_ask", {{"prompt", "x"}, {"model", "other"}}).find("model: model_ask takes no such argument"),
        std::string::npos);
    EXPECT_TRUE(m_fake.requests().empty());
}

TEST_F(ModelTools, NoKeyNamesTheVariableAndSendsNothing)
{
    start({}, false);
    auto text = failure("model_ask", ask_args());
    EXPECT_NE(text.find(std::string("model_ask: no model key: ") + KEY_VARIABLE + " is not set"), std::string::npos) << text;
    EXPECT_TRUE(m_fake.requests().empty());
}

TEST_F(ModelTools, EveryRefusalOfTheEndpointSaysWhatToDoAndNeverEchoesTheKey)
{
    start();
    m_fake.push(status(401, json{{"error", {{"message", std::string("Invalid key ") + KEY}}}}.dump()));
    auto refused = failure("model_ask", ask_args());
    EXPECT_NE(refused.find(std::string("refused the key in ") + KEY_VARIABLE + " (HTTP 401)"), std::string::npos) << refused;
    EXPECT_NE(refused.find("Invalid key [the key]"), std::string::npos) << refused;

    m_fake.push(status(404, R"({"error": {"message": "No endpoints found for t/ask"}})"));
    auto missing = failure("model_ask", ask_args());
    EXPECT_NE(missing.find("has no model t/ask"), std::string::npos) << missing;
    EXPECT_NE(missing.find("[models] ask"), std::string::npos) << missing;

    m_fake.push(status(400, R"({"error": {"message": "bad image"}})"));
    EXPECT_NE(failure("model_ask", ask_args()).find("refused the request (HTTP 400)"), std::string::npos);

    m_fake.push({200, "this is not json"});
    EXPECT_NE(failure("model_ask", ask_args()).find("not a chat completion"), std::string::npos);

    m_fake.push({200, "HTTP/1.1 garbage\r\n\r\n", {}, 0, false, true});
    auto garbage = failure("model_ask", ask_args());
    EXPECT_NE(garbage.find("no answer could be had"), std::string::npos) << garbage;

    m_fake.push(reply(R"(no point here)"));
    EXPECT_NE(failure("model_ground", {{"png_b64", PNG}, {"target", "x"}, {"area", {{"width", 9}, {"height", 9}}}}).find("holds no point"),
        std::string::npos);
}

TEST_F(ModelTools, RateLimitsAndServerErrorsAreTriedAgainWithinTheDeadline)
{
    start();
    m_fake.push(status(429, R"({"error": {"message": "slow down"}})"));
    m_fake.push(status(503));
    m_fake.push(reply("fine"));
    auto answer = ok("model_ask", ask_args());
    EXPECT_EQ(answer["text"], "fine");
    EXPECT_EQ(m_fake.requests().size(), 3u);

    // A Retry-After beyond the deadline is not waited for.
    m_fake.clear();
    m_fake.push({429, R"({"error": {"message": "quota"}})", {{"Retry-After", "30"}}});
    const auto started = std::chrono::steady_clock::now();
    auto args = ask_args();
    args["timeout_ms"] = 1000;
    auto text = failure("model_ask", args);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 900ms);
    EXPECT_NE(text.find("after 1 tries it answered (HTTP 429): the endpoint said \"quota\""), std::string::npos) << text;
    EXPECT_EQ(m_fake.requests().size(), 1u);
}

TEST_F(ModelTools, ASlowEndpointEndsAtTheCallsTimeout)
{
    start();
    m_fake.push({200, nd_test::FakeOpenAI::chat_completion("late"), {}, 5000});
    auto args = ask_args();
    args["timeout_ms"] = 300;
    const auto started = std::chrono::steady_clock::now();
    auto text = failure("model_ask", args);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 3s);
    EXPECT_NE(text.find("no answer from the model within 300 ms"), std::string::npos) << text;
    // The next call is not held up by the abandoned one.
    m_fake.push(reply("on time"));
    EXPECT_EQ(ok("model_ask", ask_args())["text"], "on time");
}

TEST_F(ModelTools, CallsReuseOneConnection)
{
    start();
    for (int i = 0; i < 4; ++i)
        ok("model_ask", ask_args());
    EXPECT_EQ(m_fake.requests().size(), 4u);
    EXPECT_EQ(m_fake.connections(), 1);
}

TEST_F(ModelTools, ASafetyStopEndsACallInFlightAndRefusesTheNext)
{
    start();
    m_fake.push({200, nd_test::FakeOpenAI::chat_completion("late"), {}, 10000});
    auto pending = std::async(std::launch::async, [this] { return call("model_ask", ask_args()); });
    while (m_fake.requests().empty())
        std::this_thread::sleep_for(10ms);
    const auto stopped_at = std::chrono::steady_clock::now();
    m_daemon->safety(true);
    ASSERT_EQ(pending.wait_for(2s), std::future_status::ready);
    EXPECT_LT(std::chrono::steady_clock::now() - stopped_at, 1s);
    auto r = pending.get();
    EXPECT_TRUE(r.is_error);
    EXPECT_NE(r.text.find("stopped by the user"), std::string::npos) << r.text;
    EXPECT_NE(failure("model_ask", ask_args()).find("stopped by the user"), std::string::npos);
    m_daemon->safety(false);
    EXPECT_EQ(ok("model_ask", ask_args())["text"], "ok");
}

TEST_F(ModelTools, ProxiesComeFromTheEnvironment)
{
    // The endpoint's name does not resolve: only the proxy (the fake, taking the absolute form) answers.
    ::setenv("http_proxy", ("http://127.0.0.1:" + std::to_string(m_fake.port())).c_str(), 1);
    ::unsetenv("no_proxy");
    ::unsetenv("NO_PROXY");
    start([](nd_desk::ModelsConfig& m) { m.base_url = "http://models.invalid/v1"; });
    auto answer = ok("model_ask", ask_args());
    ::unsetenv("http_proxy");
    EXPECT_EQ(answer["text"], "ok");
    ASSERT_EQ(m_fake.requests().size(), 1u);
    EXPECT_EQ(m_fake.requests()[0].target, "http://models.invalid/v1/chat/completions");
}

TEST_F(ModelTools, TheLogSaysWhatACallCostAndNothingOfItsTextOrKey)
{
    start();
    ok("model_ask", {{"prompt", "the secret plan"}});
    m_fake.push(status(401, std::string("{\"error\": \"bad ") + KEY + "\"}"));
    failure("model_ask", ask_args());
    const std::string lines = log();
    EXPECT_NE(lines.find("model_ask"), std::string::npos) << lines;
    EXPECT_NE(lines.find("answered by t/ask, 11 tokens in, 3 out, 2 cached"), std::string::npos) << lines;
    EXPECT_NE(lines.find("failed (backend_unavailable)"), std::string::npos) << lines;
    EXPECT_EQ(lines.find("the secret plan"), std::string::npos) << lines;
    EXPECT_EQ(lines.find(KEY), std::string::npos) << lines;
}

} // namespace

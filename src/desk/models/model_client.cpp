#include "desk/models/model_client.h"

#include <algorithm>
#include <cstdlib>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds FIRST_BACKOFF{250};
constexpr std::chrono::milliseconds MAX_BACKOFF{4000};
constexpr std::size_t MAX_SERVER_MESSAGE = 300;

bool worth_retrying(long status)
{
    return status == 408 || status == 429 || status == 500 || status == 502 || status == 503 || status == 504 ||
           status == 529;
}

// Text an endpoint sent, fit for an error line: the key replaced wherever it appears, control
// characters made spaces, cut to a bound.
std::string scrubbed(std::string text, const std::string& key)
{
    if (key.size() >= 4)
        for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at))
            text.replace(at, key.size(), "[the key]");
    for (auto& c : text)
        if (static_cast<unsigned char>(c) < 0x20)
            c = ' ';
    if (text.size() > MAX_SERVER_MESSAGE) {
        std::size_t cut = MAX_SERVER_MESSAGE;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
            --cut; // not inside a UTF-8 sequence
        text = text.substr(0, cut) + "...";
    }
    return text;
}

// What the endpoint said of an error: error.message (OpenAI, OpenRouter), error as text, or message.
std::string server_message(const std::string& body, const std::string& key)
{
    auto json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded())
        return body.empty() ? std::string() : "a body of " + std::to_string(body.size()) + " bytes that is not JSON";
    const nlohmann::json* text = nullptr;
    if (auto e = json.find("error"); e != json.end()) {
        if (e->is_string())
            text = &*e;
        else if (e->is_object())
            if (auto m = e->find("message"); m != e->end() && m->is_string())
                text = &*m;
    } else if (auto m = json.find("message"); m != json.end() && m->is_string()) {
        text = &*m;
    }
    return text ? scrubbed(text->get<std::string>(), key) : std::string();
}

std::string with_said(const std::string& line, const std::string& said)
{
    return said.empty() ? line : line + ": the endpoint said \"" + said + "\"";
}

nlohmann::json number_or_null(const nlohmann::json& object, std::string_view name)
{
    if (!object.is_object())
        return nullptr;
    auto it = object.find(name);
    return it != object.end() && it->is_number_integer() ? *it : nlohmann::json();
}

nlohmann::json string_or_null(const nlohmann::json& object, std::string_view name)
{
    auto it = object.find(name);
    return it != object.end() && it->is_string() && !it->get_ref<const std::string&>().empty() ? *it : nlohmann::json();
}

// usage: {model, input_tokens, output_tokens, cached_tokens}; counts the endpoint did not give are null,
// cached_tokens 0 when it gave usage without cache details.
nlohmann::json usage_of(const std::string& model, const nlohmann::json& response)
{
    auto usage = response.find("usage");
    const nlohmann::json none;
    const nlohmann::json& u = usage != response.end() && usage->is_object() ? *usage : none;
    nlohmann::json cached = nullptr;
    if (u.is_object()) {
        cached = 0;
        if (auto d = u.find("prompt_tokens_details"); d != u.end() && d->is_object())
            if (auto c = number_or_null(*d, "cached_tokens"); !c.is_null())
                cached = c;
    }
    return {{"model", model}, {"input_tokens", number_or_null(u, "prompt_tokens")},
        {"output_tokens", number_or_null(u, "completion_tokens")}, {"cached_tokens", cached}};
}

std::vector<TokenLogprob> logprobs_of(const nlohmann::json& choice)
{
    std::vector<TokenLogprob> out;
    auto lp = choice.find("logprobs");
    if (lp == choice.end() || !lp->is_object())
        return out;
    auto content = lp->find("content");
    if (content == lp->end() || !content->is_array())
        return out;
    for (const auto& t : *content) {
        if (!t.is_object() || !t.contains("token") || !t["token"].is_string() || !t.contains("logprob") || !t["logprob"].is_number())
            return {}; // half a list is no list
        TokenLogprob token{t["token"].get<std::string>(), t["logprob"].get<double>(), {}};
        if (auto top = t.find("top_logprobs"); top != t.end() && top->is_array())
            for (const auto& alt : *top)
                if (alt.is_object() && alt.contains("token") && alt["token"].is_string() && alt.contains("logprob") &&
                    alt["logprob"].is_number())
                    token.top.push_back({alt["token"].get<std::string>(), alt["logprob"].get<double>()});
        out.push_back(std::move(token));
    }
    return out;
}

} // namespace

std::optional<std::string> ModelClient::environment_key(const std::string& variable)
{
    const char* value = std::getenv(variable.c_str());
    if (!value || !value[0])
        return std::nullopt;
    return std::string(value);
}

ModelClient::ModelClient(ModelsConfig config, KeyLookup keys) : m_config(std::move(config)), m_keys(std::move(keys)) {}

int ModelClient::timeout_for(std::optional<int> timeout_ms) const
{
    return timeout_ms ? std::min(*timeout_ms, m_config.timeout_ms) : m_config.timeout_ms;
}

nlohmann::json chat_request_body(const std::string& model, const ChatCall& call)
{
    nlohmann::json body{{"model", model}, {"messages", call.messages}, {"temperature", 0}};
    if (call.max_tokens)
        body["max_tokens"] = *call.max_tokens;
    if (call.logprobs) {
        body["logprobs"] = true;
        body["top_logprobs"] = TOP_LOGPROBS;
    }
    return body;
}

nd_core::Result<ChatAnswer> read_chat_answer(const std::string& model, const std::string& body)
{
    auto malformed = [&](const std::string& why) {
        return make_error(ErrorCode::action_failed, "the endpoint's answer is not a chat completion: " + why);
    };
    auto json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded() || !json.is_object())
        return malformed("not a JSON object (" + std::to_string(body.size()) + " bytes)");
    // OpenRouter answers some provider failures with status 200 and an error object.
    if (auto e = json.find("error"); e != json.end() && !e->is_null()) {
        std::string said = server_message(body, {});
        return make_error(ErrorCode::action_failed, with_said("the endpoint answered an error instead of a completion", said));
    }
    auto choices = json.find("choices");
    if (choices == json.end() || !choices->is_array() || choices->empty() || !(*choices)[0].is_object())
        return malformed("it has no choices");
    const auto& choice = (*choices)[0];
    auto message = choice.find("message");
    if (message == choice.end() || !message->is_object())
        return malformed("its first choice has no message");
    ChatAnswer out;
    auto content = message->find("content");
    if (content != message->end() && content->is_string()) {
        out.content = content->get<std::string>();
    } else if (content != message->end() && content->is_array()) {
        for (const auto& part : *content)
            if (part.is_object() && part.value("type", "") == "text" && part.contains("text") && part["text"].is_string())
                out.content += part["text"].get<std::string>();
    }
    if (out.content.empty()) {
        if (auto refusal = message->find("refusal"); refusal != message->end() && refusal->is_string())
            return make_error(ErrorCode::action_failed, "the model refused: " + scrubbed(refusal->get<std::string>(), {}));
        if (choice.value("finish_reason", "") == "length")
            return make_error(ErrorCode::action_failed, "the model used all its tokens before it answered (finish_reason length)");
        return malformed("its message has no text");
    }
    out.logprobs = logprobs_of(choice);
    out.usage = usage_of(model, json);
    out.served = {{"model", model}, {"build", string_or_null(json, "model")}, {"id", string_or_null(json, "id")}};
    return out;
}

nd_core::Result<ChatAnswer> ModelClient::chat(const ChatCall& call, const SafetyStopToken& stop)
{
    const auto key = m_keys(m_config.api_key_env);
    if (!key)
        return make_error(ErrorCode::backend_unavailable,
            "no model key: " + m_config.api_key_env + " is not set in the daemon's environment. Set it (or name " +
                "another variable with [models] api_key_env in config.toml) and restart `shuttle daemon`");
    const std::string& model = m_config.model_for(call.role);
    const int timeout_ms = timeout_for(call.timeout_ms);
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    const HttpPost post{m_config.base_url + "/chat/completions", *key, chat_request_body(model, call).dump(), deadline,
        [&stop] { return stop.stopped(); }};
    const std::string where = " (" + m_config.base_url + ", model " + model + ")";

    auto backoff = FIRST_BACKOFF;
    std::string last_failure;
    for (int attempt = 1;; ++attempt) {
        auto result = m_http.post(post);
        std::optional<std::chrono::milliseconds> wait;
        if (auto* failed = std::get_if<HttpError>(&result)) {
            if (failed->kind == HttpFailure::cancelled)
                return make_error(ErrorCode::stopped_by_kill_switch, "stopped before the model answered");
            if (failed->kind == HttpFailure::timeout || Clock::now() >= deadline)
                return make_error(ErrorCode::timed_out, "no answer from the model within " + std::to_string(timeout_ms) +
                                                            " ms" + where + (last_failure.empty() ? "" : "; before that, " + last_failure) +
                                                            ". Pass a longer timeout_ms or raise [models] timeout_ms");
            if (!failed->transient)
                return make_error(ErrorCode::backend_unavailable, "no answer could be had from the model endpoint" + where +
                                                                      ": " + scrubbed(failed->message, *key) +
                                                                      ". Check [models] base_url and the network (a proxy comes "
                                                                      "from https_proxy)");
            last_failure = "the connection failed (" + scrubbed(failed->message, *key) + ")";
        } else {
            auto& response = std::get<HttpResponse>(result);
            const std::string said = server_message(response.body, *key);
            const std::string status = " (HTTP " + std::to_string(response.status) + ")";
            if (response.status >= 200 && response.status < 300) {
                auto answer = read_chat_answer(model, response.body);
                if (!answer)
                    return make_error(answer.error().code, scrubbed(answer.error().message, *key) + where);
                return answer;
            }
            if (response.status == 401 || response.status == 403)
                return make_error(ErrorCode::backend_unavailable,
                    with_said("the model endpoint refused the key in " + m_config.api_key_env + status + where, said) +
                        ". Check the key, or set the one for this endpoint");
            if (response.status == 404)
                return make_error(ErrorCode::backend_unavailable,
                    with_said("the endpoint has no model " + model + " or no chat-completions API at " + m_config.base_url + status, said) +
                        ". Check [models] " + std::string(role_name(call.role)) + " and base_url in config.toml");
            if (!worth_retrying(response.status))
                return make_error(ErrorCode::action_failed, with_said("the model endpoint refused the request" + status + where, said));
            last_failure = with_said("it answered" + status, said);
            wait = response.retry_after;
        }
        // Again after a backoff, or the server's Retry-After, when the deadline leaves time for it.
        const auto pause = wait ? std::max(*wait, backoff) : backoff;
        if (Clock::now() + pause >= deadline)
            return make_error(ErrorCode::timed_out, "the model endpoint did not answer within " + std::to_string(timeout_ms) +
                                                        " ms" + where + ": after " + std::to_string(attempt) + " tries " +
                                                        last_failure + ". Try again later or pass a longer timeout_ms");
        if (!stop.sleep_for(std::chrono::duration_cast<std::chrono::milliseconds>(pause)))
            return make_error(ErrorCode::stopped_by_kill_switch, "stopped before the model answered");
        backoff = std::min(backoff * 2, MAX_BACKOFF);
    }
}

} // namespace nd_desk

#pragma once

// One chat completion for a model tool (docs/models.md): the role's model from [models], the
// request sent to base_url/chat/completions with the key from the daemon's own environment,
// 429 and 5xx answers (and a dropped connection) tried again with backoff while the deadline
// allows, and the answer read into the content, its token log-probabilities when the endpoint
// gives them, usage and who served it. Every failure is one line that says what to do; none
// holds the key (a server that echoes it has it replaced).

#include "core/result.h"
#include "desk/models/http_client.h"
#include "desk/models/models_config.h"
#include "desk/safety_stop.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace nd_desk {

struct ChatCall {
    ModelRole role = ModelRole::decide;
    nlohmann::json messages = nlohmann::json::array();
    std::optional<int> max_tokens;
    bool logprobs = false;         // ask for each token's log-probability and its top alternatives
    std::optional<int> timeout_ms; // caps [models] timeout_ms
};

struct TokenChoice {
    std::string token;
    double logprob = 0;
};

struct TokenLogprob {
    std::string token;
    double logprob = 0;
    std::vector<TokenChoice> top; // the most likely tokens at this place, the chosen one among them
};

struct ChatAnswer {
    std::string content;
    std::vector<TokenLogprob> logprobs; // empty when the endpoint gave none
    nlohmann::json usage;               // {model, input_tokens, output_tokens, cached_tokens}
    nlohmann::json served;              // {model, build, id}
};

// How many alternatives a logprobs call asks for at each token.
inline constexpr int TOP_LOGPROBS = 10;

class ModelClient {
public:
    // Where the key comes from: the daemon's environment unless a test says otherwise.
    using KeyLookup = std::function<std::optional<std::string>(const std::string& variable)>;
    static std::optional<std::string> environment_key(const std::string& variable);

    explicit ModelClient(ModelsConfig config, KeyLookup keys = environment_key);

    nd_core::Result<ChatAnswer> chat(const ChatCall&, const SafetyStopToken&);
    const ModelsConfig& config() const { return m_config; }
    // The deadline a call with this timeout_ms argument gets (the smaller of it and the config's).
    int timeout_for(std::optional<int> timeout_ms) const;

private:
    ModelsConfig m_config;
    KeyLookup m_keys;
    HttpClient m_http;
};

// The request body of a call (public for tests).
nlohmann::json chat_request_body(const std::string& model, const ChatCall&);
// Reads a chat completion's body (public for tests): an error says what was missing or wrong.
nd_core::Result<ChatAnswer> read_chat_answer(const std::string& model, const std::string& body);

} // namespace nd_desk

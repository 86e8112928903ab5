#pragma once

// config.toml's [models] (docs/config.md, docs/models.md): the OpenAI-compatible chat-completions
// endpoint the daemon's model tools call, the variable that holds its key, the longest a call may
// take, and one model per role. Every key is optional; the defaults reach OpenRouter with
// OPENROUTER_API_KEY.

#include <string>
#include <string_view>

namespace nd_desk {

// The role a model call plays: decide answers model_decide on text, verify on a screenshot
// (model_decide with image), ask answers model_ask, ground model_ground.
enum class ModelRole { decide, verify, ask, ground };

std::string_view role_name(ModelRole);

struct ModelsConfig {
    static constexpr std::string_view DEFAULT_BASE_URL = "https://openrouter.ai/api/v1";
    static constexpr std::string_view DEFAULT_KEY_VARIABLE = "OPENROUTER_API_KEY";
    static constexpr int DEFAULT_TIMEOUT_MS = 30000;
    static constexpr int MIN_TIMEOUT_MS = 100;
    static constexpr int MAX_TIMEOUT_MS = 600000;

    std::string base_url{DEFAULT_BASE_URL};        // the API root; /chat/completions is appended
    std::string api_key_env{DEFAULT_KEY_VARIABLE}; // the daemon's variable that holds the key
    int timeout_ms = DEFAULT_TIMEOUT_MS;           // a call's whole time, retries included
    std::string decide = "openai/gpt-4.1-mini";
    std::string verify = "openai/gpt-4.1-mini";
    std::string ask = "openai/gpt-4.1-mini";
    std::string ground = "qwen/qwen3-vl-235b-a22b-instruct";

    const std::string& model_for(ModelRole) const;
    std::string& model_for(ModelRole);
};

} // namespace nd_desk

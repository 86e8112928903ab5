#pragma once

// model_decide's questions, prompt and answers (docs/models.md), apart from any HTTP so tests reach
// every rule.
//
// One request asks every question: the model replies one JSON object, {key: {answer, confidence}},
// where a yes/no answer is "yes" or "no" and a choice's answer is its option's letter (A, B, ...).
// The probabilities come from the token log-probabilities at the place where each answer starts,
// when the endpoint gives them: a yes/no question's is P(yes) / (P(yes) + P(no)) over the
// alternatives at that token; a choice's are its letters' shares of the alternatives that are
// letters of an option. Where the endpoint gives no log-probabilities, or none of the alternatives
// there is an answer, they come from the reply's confidence (its answer gets it; for yes/no, a "no"
// with confidence c is a probability of 1 - c; the other options of a choice share 1 - c). Each
// answer says which by "from": "logprobs" or "answer".

#include "core/result.h"
#include "desk/models/model_client.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace nd_desk {

struct DecideQuestion {
    std::string key;
    bool yes_no = true;
    std::string instructions;
    std::vector<std::string> criteria; // what decides it, optional
    std::vector<std::string> choices;  // a choice's options, 2 to 26
};

inline constexpr std::size_t MAX_QUESTIONS = 32;
inline constexpr std::size_t MAX_CHOICES = 26;

// questions: {key: {type: "yesno" | "noul" | "choice", instructions, criteria?, choices?}}. An error
// names the question and what is wrong with it.
nd_core::Result<std::vector<DecideQuestion>> read_questions(const nlohmann::json& questions);

// state as message parts: text as one text part; a list of {type: "text", text} and {type:
// "image_url", image_url: {url: "data:image/...;base64,..."}} parts as they are; other JSON as its text.
nd_core::Result<nlohmann::json> state_parts(const nlohmann::json& state);

// The messages of the one request, and the tokens it may spend.
nlohmann::json decide_messages(const nlohmann::json& parts, const std::vector<DecideQuestion>&);
int decide_max_tokens(std::size_t questions);

// The answers object from the model's reply, {key: {probability, from}} or {key: {choice,
// confidence, probabilities, from}}.
nd_core::Result<nlohmann::json> read_decisions(const std::vector<DecideQuestion>&, const ChatAnswer&);

} // namespace nd_desk

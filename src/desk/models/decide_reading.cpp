// model_decide's answers from the model's reply (decide.h): the probabilities from the token
// log-probabilities where the answers start, else from the reply's own confidence.

#include "desk/models/decide.h"

#include <cmath>
#include <map>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

nd_core::Error malformed(const std::string& why)
{
    return make_error(ErrorCode::action_failed, "the model's reply is not the answer asked for: " + why + ". Try again, or "
                                                "another model for this role");
}

double rounded(double p) { return std::round(std::clamp(p, 0.0, 1.0) * 10000.0) / 10000.0; }

std::string letter(std::size_t i) { return std::string(1, static_cast<char>('A' + i)); }

// The reply's JSON object: from its first { to its last }, so a fence or a word around it is no matter.
std::optional<std::pair<nlohmann::json, std::size_t>> reply_object(const std::string& content)
{
    const auto open = content.find('{');
    const auto close = content.rfind('}');
    if (open == std::string::npos || close == std::string::npos || close < open)
        return std::nullopt;
    auto json = nlohmann::json::parse(content.substr(open, close - open + 1), nullptr, false);
    if (json.is_discarded() || !json.is_object())
        return std::nullopt;
    return std::make_pair(std::move(json), open);
}

// Where the key's answer value begins in the content (its first character after the quote).
std::optional<std::size_t> answer_offset(const std::string& content, std::size_t from, const std::string& key)
{
    auto at = content.find(nlohmann::json(key).dump(), from);
    if (at == std::string::npos)
        return std::nullopt;
    at = content.find("\"answer\"", at);
    if (at == std::string::npos)
        return std::nullopt;
    at = content.find(':', at + 8);
    if (at == std::string::npos)
        return std::nullopt;
    ++at;
    while (at < content.size() && (content[at] == ' ' || content[at] == '\n' || content[at] == '\t' || content[at] == '\r'))
        ++at;
    if (at >= content.size() || content[at] != '"')
        return std::nullopt;
    return at + 1;
}

std::string normalized(std::string s, bool upper)
{
    std::string out;
    for (char c : s) {
        if (c == ' ' || c == '"' || c == '\n' || c == '\t')
            continue;
        if (upper && c >= 'a' && c <= 'z')
            c = static_cast<char>(c - 'a' + 'A');
        if (!upper && c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
        out += c;
    }
    return out;
}

// The alternatives at the token where an answer begins, each reduced to the answer text it starts:
// (text, probability), the chosen token's first. Empty when the tokens do not spell the content.
std::vector<std::pair<std::string, double>> alternatives_at(const std::vector<TokenLogprob>& tokens,
                                                            const std::string& content, std::size_t offset)
{
    std::string spelled;
    for (const auto& t : tokens)
        spelled += t.token;
    const auto shift = spelled.find(content);
    if (content.empty() || shift == std::string::npos)
        return {};
    const std::size_t at = shift + offset;
    std::size_t start = 0;
    for (const auto& t : tokens) {
        const std::size_t end = start + t.token.size();
        if (at >= start && at < end) {
            const std::size_t prefix = at - start; // the token's text before the answer (a quote, a space)
            std::vector<std::pair<std::string, double>> out{{t.token.substr(prefix), std::exp(t.logprob)}};
            for (const auto& alt : t.top) {
                if (alt.token == t.token || alt.token.size() <= prefix || alt.token.compare(0, prefix, t.token, 0, prefix) != 0)
                    continue;
                out.emplace_back(alt.token.substr(prefix), std::exp(alt.logprob));
            }
            return out;
        }
        start = end;
    }
    return {};
}

std::optional<double> confidence_of(const nlohmann::json& answer)
{
    auto c = answer.find("confidence");
    if (c == answer.end())
        return 1.0;
    if (!c->is_number())
        return std::nullopt;
    return std::clamp(c->get<double>(), 0.0, 1.0);
}

nd_core::Result<nlohmann::json> yes_no(const DecideQuestion& q, const nlohmann::json& answer,
                                       const std::vector<std::pair<std::string, double>>& alts)
{
    const std::string said = answer["answer"].is_string() ? normalized(answer["answer"].get<std::string>(), false) : "";
    if (said != "yes" && said != "no")
        return malformed(q.key + " is a yes/no question, and the reply answers it \"" + said + "\"");
    double p_yes = 0, p_no = 0;
    for (const auto& [text, p] : alts) {
        const std::string r = normalized(text, false);
        if (!r.empty() && std::string_view("yes").starts_with(r))
            p_yes += p;
        else if (!r.empty() && std::string_view("no").starts_with(r))
            p_no += p;
    }
    if (p_yes + p_no > 0)
        return nlohmann::json{{"probability", rounded(p_yes / (p_yes + p_no))}, {"from", "logprobs"}};
    const auto c = confidence_of(answer);
    if (!c)
        return malformed(q.key + "'s confidence is not a number");
    return nlohmann::json{{"probability", rounded(said == "yes" ? *c : 1.0 - *c)}, {"from", "answer"}};
}

nd_core::Result<nlohmann::json> choice(const DecideQuestion& q, const nlohmann::json& answer,
                                       const std::vector<std::pair<std::string, double>>& alts)
{
    const std::string said = answer["answer"].is_string() ? answer["answer"].get<std::string>() : "";
    std::optional<std::size_t> picked;
    for (std::size_t i = 0; i < q.choices.size(); ++i)
        if (normalized(said, true) == letter(i) || said == q.choices[i])
            picked = i;
    if (!picked)
        return malformed(q.key + "'s answer \"" + said.substr(0, 64) + "\" is none of its options' letters");
    std::vector<double> mass(q.choices.size(), 0.0);
    double total = 0;
    for (const auto& [text, p] : alts) {
        const std::string r = normalized(text, true);
        for (std::size_t i = 0; i < q.choices.size(); ++i)
            if (r == letter(i)) {
                mass[i] += p;
                total += p;
            }
    }
    std::string from = "logprobs";
    if (total <= 0) {
        const auto c = confidence_of(answer);
        if (!c)
            return malformed(q.key + "'s confidence is not a number");
        from = "answer";
        total = 1;
        for (std::size_t i = 0; i < q.choices.size(); ++i)
            mass[i] = i == *picked ? *c : (1.0 - *c) / static_cast<double>(q.choices.size() - 1);
    }
    nlohmann::json probabilities = nlohmann::json::object();
    for (std::size_t i = 0; i < q.choices.size(); ++i)
        probabilities[q.choices[i]] = rounded(mass[i] / total);
    return nlohmann::json{{"choice", q.choices[*picked]}, {"confidence", rounded(mass[*picked] / total)},
        {"probabilities", std::move(probabilities)}, {"from", from}};
}

} // namespace

nd_core::Result<nlohmann::json> read_decisions(const std::vector<DecideQuestion>& questions, const ChatAnswer& reply)
{
    auto object = reply_object(reply.content);
    if (!object)
        return malformed("it holds no JSON object");
    const auto& [json, start] = *object;
    nlohmann::json answers = nlohmann::json::object();
    for (const auto& q : questions) {
        auto it = json.find(q.key);
        if (it == json.end() || !it->is_object() || !it->contains("answer"))
            return malformed("it does not answer " + q.key);
        std::vector<std::pair<std::string, double>> alts;
        if (!reply.logprobs.empty())
            if (auto offset = answer_offset(reply.content, start, q.key))
                alts = alternatives_at(reply.logprobs, reply.content, *offset);
        answers[q.key] = q.yes_no ? TRY(yes_no(q, *it, alts)) : TRY(choice(q, *it, alts));
    }
    return answers;
}

} // namespace nd_desk

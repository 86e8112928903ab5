// model_decide's questions, state and prompt (decide.h).

#include "desk/models/decide.h"

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

constexpr std::size_t MAX_INSTRUCTIONS = 8192;
constexpr std::size_t MAX_OPTION = 512;

nd_core::Error refused(const std::string& what) { return make_error(ErrorCode::invalid_arguments, what); }

bool is_key(std::string_view key)
{
    if (key.empty() || key.size() > 64 || (key[0] >= '0' && key[0] <= '9'))
        return false;
    for (char c : key)
        if (!(c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
            return false;
    return true;
}

// A list of non-empty strings, or one string as a list of one.
nd_core::Result<std::vector<std::string>> strings(const nlohmann::json& value, const std::string& name)
{
    std::vector<std::string> out;
    if (value.is_string() && !value.get_ref<const std::string&>().empty()) {
        out.push_back(value.get<std::string>());
        return out;
    }
    if (!value.is_array())
        return refused(name + ": must be text or a list of texts");
    for (const auto& item : value) {
        if (!item.is_string() || item.get_ref<const std::string&>().empty() || item.get_ref<const std::string&>().size() > MAX_INSTRUCTIONS)
            return refused(name + ": must hold non-empty texts of at most " + std::to_string(MAX_INSTRUCTIONS) + " bytes");
        out.push_back(item.get<std::string>());
    }
    return out;
}

nd_core::Result<DecideQuestion> read_question(const std::string& key, const nlohmann::json& q)
{
    const std::string at = "questions." + key;
    if (!is_key(key))
        return refused(at + ": a question's key is a name of letters, digits, _ and - (at most 64)");
    if (!q.is_object())
        return refused(at + ": must be {type, instructions, criteria?, choices?}");
    for (const auto& [field, value] : q.items())
        if (field != "type" && field != "instructions" && field != "criteria" && field != "choices")
            return refused(at + ": unknown field " + field + " (a question has type, instructions, criteria and choices)");
    DecideQuestion out;
    out.key = key;
    auto type = q.find("type");
    const std::string t = type != q.end() && type->is_string() ? type->get<std::string>() : "";
    if (t == "yesno" || t == "noul")
        out.yes_no = true;
    else if (t == "choice")
        out.yes_no = false;
    else
        return refused(at + ".type: must be \"yesno\" or \"choice\"");
    auto instructions = q.find("instructions");
    if (instructions == q.end() || !instructions->is_string() || instructions->get_ref<const std::string&>().empty())
        return refused(at + ".instructions: must be the question, as text");
    if (instructions->get_ref<const std::string&>().size() > MAX_INSTRUCTIONS)
        return refused(at + ".instructions: at most " + std::to_string(MAX_INSTRUCTIONS) + " bytes");
    out.instructions = instructions->get<std::string>();
    if (auto criteria = q.find("criteria"); criteria != q.end() && !criteria->is_null())
        out.criteria = TRY(strings(*criteria, at + ".criteria"));
    auto choices = q.find("choices");
    if (out.yes_no) {
        if (choices != q.end())
            return refused(at + ".choices: a yes/no question has no choices (use type \"choice\")");
        return out;
    }
    if (choices == q.end() || !choices->is_array() || choices->size() < 2 || choices->size() > MAX_CHOICES)
        return refused(at + ".choices: a choice needs a list of 2 to " + std::to_string(MAX_CHOICES) + " options");
    for (const auto& option : *choices) {
        if (!option.is_string() || option.get_ref<const std::string&>().empty() || option.get_ref<const std::string&>().size() > MAX_OPTION)
            return refused(at + ".choices: each option is non-empty text of at most " + std::to_string(MAX_OPTION) + " bytes");
        for (const auto& seen : out.choices)
            if (seen == option.get_ref<const std::string&>())
                return refused(at + ".choices: \"" + seen + "\" is listed twice");
        out.choices.push_back(option.get<std::string>());
    }
    return out;
}

// A part of the state as the request carries it, or why not.
nd_core::Result<nlohmann::json> read_part(const nlohmann::json& part, std::size_t i)
{
    const std::string at = "state[" + std::to_string(i) + "]";
    const std::string type = part.value("type", "");
    if (type == "text") {
        auto text = part.find("text");
        if (text == part.end() || !text->is_string())
            return refused(at + ".text: a text part holds its text as a string");
        return nlohmann::json{{"type", "text"}, {"text", *text}};
    }
    auto image = part.find("image_url");
    const nlohmann::json* url = nullptr;
    if (image != part.end() && image->is_object())
        if (auto u = image->find("url"); u != image->end() && u->is_string())
            url = &*u;
    if (!url)
        return refused(at + ".image_url: an image part is {type: \"image_url\", image_url: {url: \"data:image/png;base64,...\"}}");
    const auto& text = url->get_ref<const std::string&>();
    if (!text.starts_with("data:image/") || text.find(";base64,") == std::string::npos)
        return refused(at + ".image_url.url: must be a data: URL of a base64 image (data:image/png;base64,...)");
    return nlohmann::json{{"type", "image_url"}, {"image_url", {{"url", text}}}};
}

bool is_parts_list(const nlohmann::json& state)
{
    if (!state.is_array() || state.empty())
        return false;
    for (const auto& part : state) {
        if (!part.is_object())
            return false;
        const std::string type = part.value("type", "");
        if (type != "text" && type != "image_url")
            return false;
    }
    return true;
}

} // namespace

nd_core::Result<std::vector<DecideQuestion>> read_questions(const nlohmann::json& questions)
{
    if (!questions.is_object() || questions.empty())
        return refused("questions: must be an object of at least one question, {key: {type, instructions}}");
    if (questions.size() > MAX_QUESTIONS)
        return refused("questions: at most " + std::to_string(MAX_QUESTIONS) + " in one call");
    std::vector<DecideQuestion> out;
    for (const auto& [key, q] : questions.items())
        out.push_back(TRY(read_question(key, q)));
    return out;
}

nd_core::Result<nlohmann::json> state_parts(const nlohmann::json& state)
{
    nlohmann::json parts = nlohmann::json::array();
    if (state.is_string()) {
        if (state.get_ref<const std::string&>().empty())
            return refused("state: is empty; pass what the desk shows, as text, JSON or parts");
        parts.push_back({{"type", "text"}, {"text", state}});
    } else if (is_parts_list(state)) {
        for (std::size_t i = 0; i < state.size(); ++i)
            parts.push_back(TRY(read_part(state[i], i)));
    } else if (state.is_object() || state.is_array()) {
        parts.push_back({{"type", "text"}, {"text", state.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)}});
    } else {
        return refused("state: must be text, JSON, or a list of text and image_url parts");
    }
    return parts;
}

nlohmann::json decide_messages(const nlohmann::json& parts, const std::vector<DecideQuestion>& questions)
{
    std::string asked = "Questions:\n";
    for (const auto& q : questions) {
        asked += "- " + q.key + (q.yes_no ? " (yes/no): " : " (choice): ") + q.instructions + "\n";
        if (!q.criteria.empty()) {
            asked += "  Criteria:";
            for (const auto& c : q.criteria)
                asked += " " + c + ";";
            asked.back() = '\n';
        }
        for (std::size_t i = 0; i < q.choices.size(); ++i)
            asked += "  " + std::string(1, static_cast<char>('A' + i)) + ". " + q.choices[i] + "\n";
    }
    asked += "\nReply with only this JSON object:\n{";
    for (std::size_t i = 0; i < questions.size(); ++i)
        asked += (i ? ", " : "") + nlohmann::json(questions[i].key).dump() + ": {\"answer\": " +
                 (questions[i].yes_no ? "\"yes\" or \"no\"" : "\"<letter>\"") + ", \"confidence\": <0 to 1>}";
    asked += "}";

    nlohmann::json content = nlohmann::json::array();
    content.push_back({{"type", "text"}, {"text", "The state:"}});
    for (const auto& part : parts)
        content.push_back(part);
    content.push_back({{"type", "text"}, {"text", asked}});
    return nlohmann::json::array({
        {{"role", "system"},
            {"content", "You judge the state of a computer desktop for an automation script, from the state you are "
                        "given alone. Answer each question with one JSON object per key: a yes/no question's answer is "
                        "\"yes\" or \"no\", a choice's is the letter of one option, and confidence is how sure you are, "
                        "from 0 to 1. Reply with the JSON object only."}},
        {{"role", "user"}, {"content", std::move(content)}},
    });
}

int decide_max_tokens(std::size_t questions) { return static_cast<int>(64 + 40 * questions); }

} // namespace nd_desk

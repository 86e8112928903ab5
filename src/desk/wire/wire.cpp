#include "desk/wire/wire.h"

#include <algorithm>

namespace nd_desk::wire {

using nd_core::ErrorCode;
using nd_core::make_error;

std::string header_for(std::size_t size)
{
    std::string out(HEADER_BYTES, '\0');
    out[0] = static_cast<char>((size >> 24) & 0xFF);
    out[1] = static_cast<char>((size >> 16) & 0xFF);
    out[2] = static_cast<char>((size >> 8) & 0xFF);
    out[3] = static_cast<char>(size & 0xFF);
    return out;
}

std::uint32_t size_from_header(const unsigned char header[HEADER_BYTES])
{
    return (std::uint32_t{header[0]} << 24) | (std::uint32_t{header[1]} << 16) | (std::uint32_t{header[2]} << 8) |
           std::uint32_t{header[3]};
}

std::string frame(std::string_view payload)
{
    std::string out = header_for(payload.size());
    out.append(payload);
    return out;
}

nd_core::Result<Request> decode_request(std::string_view payload)
{
    nlohmann::json j = nlohmann::json::parse(payload, nullptr, false);
    if (j.is_discarded())
        return make_error(ErrorCode::invalid_arguments, "the request is not valid JSON");
    if (!j.is_object())
        return make_error(ErrorCode::invalid_arguments, "the request must be a JSON object");
    Request r;
    if (auto it = j.find("agent_id"); it != j.end() && !it->is_null()) {
        if (!it->is_string())
            return make_error(ErrorCode::invalid_arguments, "agent_id must be a string");
        r.agent_id = it->get<std::string>();
    }
    auto tool = j.find("tool");
    if (tool == j.end() || !tool->is_string())
        return make_error(ErrorCode::invalid_arguments, "tool must be a string naming the tool to call");
    r.tool = tool->get<std::string>();
    if (auto it = j.find("args"); it != j.end() && !it->is_null()) {
        if (!it->is_object())
            return make_error(ErrorCode::invalid_arguments, "args must be a JSON object");
        r.args = std::move(*it);
    }
    return r;
}

nd_core::Result<Response> decode_response(std::string_view payload)
{
    nlohmann::json j = nlohmann::json::parse(payload, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return make_error(ErrorCode::invalid_arguments, "the response is not a JSON object");
    Response r;
    auto text = j.find("text");
    auto is_error = j.find("is_error");
    if (text == j.end() || !text->is_string())
        return make_error(ErrorCode::invalid_arguments, "the response has no text string");
    if (is_error == j.end() || !is_error->is_boolean())
        return make_error(ErrorCode::invalid_arguments, "the response has no is_error boolean");
    r.text = text->get<std::string>();
    r.is_error = is_error->get<bool>();
    if (auto it = j.find("image_b64"); it != j.end() && it->is_string())
        r.image_b64 = it->get<std::string>();
    if (auto it = j.find("image_mime"); it != j.end() && it->is_string())
        r.image_mime = it->get<std::string>();
    return r;
}

std::string encode_request(const Request& r)
{
    nlohmann::json j{{"agent_id", r.agent_id}, {"tool", r.tool}, {"args", r.args}};
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

bool is_base64_text(const std::string& s)
{
    return std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
    });
}

} // namespace

std::string encode_response(const Response& r)
{
    nlohmann::json j{{"text", r.text}, {"is_error", r.is_error}};
    if (r.image_mime)
        j["image_mime"] = *r.image_mime;
    // A picture is most of an answer's bytes (100 KB and more), and base64 needs no escaping: it is
    // appended as it is, not copied into the JSON and scanned character by character on the way out.
    const bool plain_image = r.image_b64 && is_base64_text(*r.image_b64);
    if (r.image_b64 && !plain_image)
        j["image_b64"] = *r.image_b64;
    auto out = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (plain_image) {
        out.pop_back(); // the object's closing brace
        out.reserve(out.size() + r.image_b64->size() + 16);
        out += ",\"image_b64\":\"";
        out += *r.image_b64;
        out += "\"}";
    }
    return out;
}

Response ok_text(std::string text) { return Response{std::move(text), false, std::nullopt, std::nullopt}; }
Response error_text(std::string text) { return Response{std::move(text), true, std::nullopt, std::nullopt}; }

} // namespace nd_desk::wire

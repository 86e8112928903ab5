#include "desk/models/ground.h"

#include <cmath>
#include <cstdlib>
#include <vector>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

// Desk coordinates stay within what a screen could be.
constexpr std::int64_t MAX_COORDINATE = 1 << 20;

nd_core::Result<std::int64_t> whole(const nlohmann::json& area, const char* name, bool required, std::int64_t low)
{
    auto it = area.find(name);
    if (it == area.end()) {
        if (required)
            return make_error(ErrorCode::invalid_arguments, std::string("area.") + name + ": is required");
        return 0;
    }
    const bool integral = it->is_number_integer() || (it->is_number_float() && std::trunc(it->get<double>()) == it->get<double>());
    if (!integral || it->get<double>() < static_cast<double>(low) || std::abs(it->get<double>()) > MAX_COORDINATE)
        return make_error(ErrorCode::invalid_arguments, std::string("area.") + name + ": must be a whole number of pixels" +
                                                            (low > 0 ? " of at least 1" : "") + " within ±" +
                                                            std::to_string(MAX_COORDINATE));
    return static_cast<std::int64_t>(it->get<double>());
}

} // namespace

nd_core::Result<GroundArea> read_area(const nlohmann::json& area)
{
    if (!area.is_object())
        return make_error(ErrorCode::invalid_arguments, "area: must be {left?, top?, width, height}, the desk rectangle the PNG shows");
    for (const auto& [key, value] : area.items())
        if (key != "left" && key != "top" && key != "width" && key != "height")
            return make_error(ErrorCode::invalid_arguments, "area: unknown field " + key + " (it has left, top, width and height)");
    GroundArea out;
    out.left = TRY(whole(area, "left", false, -MAX_COORDINATE));
    out.top = TRY(whole(area, "top", false, -MAX_COORDINATE));
    out.width = TRY(whole(area, "width", true, 1));
    out.height = TRY(whole(area, "height", true, 1));
    return out;
}

nlohmann::json ground_messages(const std::string& png_b64, const std::string& target)
{
    const std::string ask =
        "The image shows part of a computer screen. Find this on it: " + target +
        "\nReply with only the point to click, as JSON {\"x\": X, \"y\": Y}, where x runs from 0 at the image's left "
        "edge to 1000 at its right edge and y from 0 at the top edge to 1000 at the bottom edge.";
    return nlohmann::json::array({
        {{"role", "user"},
            {"content", nlohmann::json::array({
                            {{"type", "image_url"}, {"image_url", {{"url", "data:image/png;base64," + png_b64}}}},
                            {{"type", "text"}, {"text", ask}},
                        })}},
    });
}

nd_core::Result<GroundPoint> read_point(const std::string& reply)
{
    std::optional<GroundPoint> point;
    const auto open = reply.find_first_of("{[");
    if (open != std::string::npos) {
        const auto close = reply.find_last_of(reply[open] == '{' ? '}' : ']');
        if (close != std::string::npos && close > open) {
            auto json = nlohmann::json::parse(reply.substr(open, close - open + 1), nullptr, false);
            if (json.is_object() && json.contains("x") && json.contains("y") && json["x"].is_number() && json["y"].is_number())
                point = GroundPoint{json["x"].get<double>(), json["y"].get<double>()};
            else if (json.is_array() && json.size() >= 2 && json[0].is_number() && json[1].is_number())
                point = GroundPoint{json[0].get<double>(), json[1].get<double>()};
        }
    }
    if (!point) {
        std::vector<double> numbers;
        const char* p = reply.c_str();
        while (*p && numbers.size() < 2) {
            if ((*p >= '0' && *p <= '9') || ((*p == '-' || *p == '.') && p[1] >= '0' && p[1] <= '9')) {
                char* end = nullptr;
                numbers.push_back(std::strtod(p, &end));
                p = end;
            } else {
                ++p;
            }
        }
        if (numbers.size() < 2)
            return make_error(ErrorCode::action_failed, "the model's reply holds no point (x and y from 0 to 1000). Try again, "
                                                        "or another model for the ground role");
        point = GroundPoint{numbers[0], numbers[1]};
    }
    auto inside = [](double v) { return std::isfinite(v) && v >= 0 && v <= 1000; };
    if (!inside(point->x) || !inside(point->y)) {
        char text[96];
        std::snprintf(text, sizeof text, "(%.6g, %.6g)", point->x, point->y);
        return make_error(ErrorCode::action_failed, std::string("the model answered the point ") + text +
                                                        ", outside 0 to 1000: it did not find the target, or it answers "
                                                        "another scale. Try another target text or another model for the ground role");
    }
    return *point;
}

std::pair<std::int64_t, std::int64_t> desk_point(const GroundPoint& p, const GroundArea& area)
{
    const auto x = area.left + static_cast<std::int64_t>(std::llround(p.x / 1000.0 * static_cast<double>(area.width - 1)));
    const auto y = area.top + static_cast<std::int64_t>(std::llround(p.y / 1000.0 * static_cast<double>(area.height - 1)));
    return {x, y};
}

} // namespace nd_desk

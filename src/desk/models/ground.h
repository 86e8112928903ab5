#pragma once

// model_ground's prompt and point (docs/models.md): the model answers a point from 0 to 1000
// across and down the image; the daemon maps it onto area, the desk rectangle the PNG shows,
// whatever the PNG's own size, 1000 onto the last pixel. A point outside 0 to 1000 is an error.

#include "core/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace nd_desk {

struct GroundArea {
    std::int64_t left = 0;
    std::int64_t top = 0;
    std::int64_t width = 0;
    std::int64_t height = 0;
};

struct GroundPoint {
    double x = 0; // 0 to 1000 across
    double y = 0; // 0 to 1000 down
};

// area: {left?, top?, width, height}; an error names the field.
nd_core::Result<GroundArea> read_area(const nlohmann::json& area);

nlohmann::json ground_messages(const std::string& png_b64, const std::string& target);

// The point in the model's reply: {"x": X, "y": Y}, [X, Y], or the first two numbers of the text
// ("(512, 300)", "<point>512 300</point>"). Outside 0 to 1000 is an error that shows the point.
nd_core::Result<GroundPoint> read_point(const std::string& reply);

// The desk pixel of a point: left + round(x / 1000 * (width - 1)), and so down.
std::pair<std::int64_t, std::int64_t> desk_point(const GroundPoint&, const GroundArea&);

} // namespace nd_desk

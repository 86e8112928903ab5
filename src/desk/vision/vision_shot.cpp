#include "desk/vision/vision_shot.h"

#include "core/encode/base64.h"
#include "core/encode/jpeg.h"
#include "core/encode/resample.h"
#include "desk/desk.h"

#include <cmath>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

std::int64_t image_tokens(std::int32_t width, std::int32_t height)
{
    return (static_cast<std::int64_t>(width) * height + 749) / 750;
}

nd_core::Result<nd_core::ScreenSize> vision_screen_size(Desk& desk)
{
    auto* screen = desk.backend().screen();
    if (!screen)
        return make_error(ErrorCode::unsupported, "this desk has no screen to capture");
    auto lock = desk.lock_backend();
    return screen->size();
}

namespace {

nd_core::Result<VisionPicture> encode(ScreenShot shot, std::int32_t width, std::int32_t height, nd_core::ScreenSize screen)
{
    VisionPicture out;
    auto image = nd_core::resize_area(shot.image, width, height);
    out.bytes = nd_core::encode_jpeg(image);
    if (out.bytes.empty())
        return make_error(ErrorCode::internal_error, "the screenshot could not be encoded as JPEG");
    out.width = image.width;
    out.height = image.height;
    out.shot = VisionShot{image.width, image.height, screen.width, screen.height};
    out.secure_fields = shot.secure_fields;
    out.whole_windows = std::move(shot.whole_windows);
    return out;
}

} // namespace

nd_core::Result<VisionPicture> screen_picture(Desk& desk, std::int32_t max_edge, const std::vector<nd_core::SnapshotPtr>& read)
{
    const auto size = TRY(vision_screen_size(desk));
    auto shot = TRY(screen_shot(desk, nd_core::Frame{0, 0, size.width, size.height}, read));
    std::int32_t width = 0, height = 0;
    nd_core::fit_long_edge(size.width, size.height, max_edge, width, height);
    return encode(std::move(shot), width, height, size);
}

nd_core::Result<VisionPicture> region_picture(Desk& desk, const nd_core::Frame& rect)
{
    const auto size = TRY(vision_screen_size(desk));
    auto shot = TRY(screen_shot(desk, rect));
    auto out = TRY(encode(std::move(shot), rect.w, rect.h, size));
    // A region is at full resolution: one of its pixels is one screen pixel.
    out.shot = VisionShot{rect.w, rect.h, rect.w, rect.h};
    return out;
}

nlohmann::json picture_json(const VisionPicture& p)
{
    nlohmann::json out{{"width", p.width}, {"height", p.height}, {"format", "jpeg"},
        {"bytes", p.bytes.size()}, {"tokens", image_tokens(p.width, p.height)},
        {"scale", std::round(p.shot.scale() * 10000.0) / 10000.0}};
    if (p.secure_fields > 0)
        out["secure_fields_blacked_out"] = p.secure_fields;
    if (!p.whole_windows.empty()) {
        auto& list = out["windows_blacked_out"] = nlohmann::json::array();
        for (const auto& w : p.whole_windows)
            list.push_back({{"title", w.title}, {"reason", w.reason}});
    }
    return out;
}

VerbReply picture_reply(nlohmann::json result, const VisionPicture& p)
{
    return VerbReply{std::move(result), nd_core::base64_encode(p.bytes), std::string(VISION_MIME)};
}

} // namespace nd_desk

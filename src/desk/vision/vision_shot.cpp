#include "desk/vision/vision_shot.h"

#include "core/encode/base64.h"
#include "core/encode/jpeg.h"
#include "core/encode/resample.h"
#include "core/encode/png.h"
#include "desk/desk.h"

#include <algorithm>
#include <cmath>
#include <future>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

std::int32_t to_shot(std::int32_t screen_pixels, double scale)
{
    return static_cast<std::int32_t>(std::lround(screen_pixels / scale));
}

double round4(double v) { return std::round(v * 10000.0) / 10000.0; }

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

VisionPicture picture_of(std::string jpeg, const nd_core::Image& image, std::int32_t secure_fields,
    std::vector<BlackedWindow> whole_windows, nd_core::ScreenSize screen)
{
    VisionPicture out;
    out.bytes = std::move(jpeg);
    out.width = image.width;
    out.height = image.height;
    out.shot = VisionShot{image.width, image.height, screen.width, screen.height};
    out.secure_fields = secure_fields;
    out.whole_windows = std::move(whole_windows);
    return out;
}

nd_core::Result<VisionPicture> encode(const nd_core::Image& image, std::int32_t secure_fields,
    std::vector<BlackedWindow> whole_windows, nd_core::ScreenSize screen)
{
    auto jpeg = nd_core::encode_jpeg(image);
    if (jpeg.empty())
        return make_error(ErrorCode::internal_error, "the screenshot could not be encoded as JPEG");
    return picture_of(std::move(jpeg), image, secure_fields, std::move(whole_windows), screen);
}

// The pixels of a picture scaled from `screen` to `image`'s size that the screen rectangle `f`
// touches: every target pixel whose source span overlaps it.
nd_core::PixelRect scaled_cover(const nd_core::Frame& f, nd_core::ScreenSize screen, const nd_core::Image& image)
{
    // Bounds come from the app (untrusted): computed in double and clamped to the picture before
    // they become integers again.
    const double sx = static_cast<double>(image.width) / screen.width, sy = static_cast<double>(image.height) / screen.height;
    auto clamp_to = [](double v, std::int32_t limit) {
        return static_cast<std::int32_t>(std::clamp(v, 0.0, static_cast<double>(limit)));
    };
    const auto x0 = clamp_to(std::floor(static_cast<double>(f.x) * sx), image.width);
    const auto y0 = clamp_to(std::floor(static_cast<double>(f.y) * sy), image.height);
    const auto x1 = clamp_to(std::ceil((static_cast<double>(f.x) + f.w) * sx), image.width);
    const auto y1 = clamp_to(std::ceil((static_cast<double>(f.y) + f.h) * sy), image.height);
    return {x0, y0, x1 - x0, y1 - y0};
}

// The capture, scaled and encoded on a thread of its own. The JPEG is made before anyone knows
// whether something must be blacked out: on most screens nothing is, and then it is the answer.
struct Taken {
    nd_core::Result<nd_core::Image> full = make_error(ErrorCode::internal_error, "not captured");
    nd_core::Image scaled;     // when the size differs from the screen's
    std::string jpeg;          // of scaled, else of full; nothing blacked out
};

void scale_and_encode(Taken& t, std::int32_t width, std::int32_t height)
{
    if (!t.full)
        return;
    const bool scaled = width != t.full->width || height != t.full->height;
    if (scaled)
        t.scaled = nd_core::resize_area(*t.full, width, height);
    t.jpeg = nd_core::encode_jpeg(scaled ? t.scaled : *t.full);
}

} // namespace

nd_core::Result<VisionPicture> screen_picture(Desk& desk, std::int32_t max_edge, const ReadDuring& read_during,
    const std::vector<nd_core::WindowInfo>* listed)
{
    const auto size = TRY(vision_screen_size(desk));
    const nd_core::Frame whole{0, 0, size.width, size.height};
    std::int32_t width = 0, height = 0;
    nd_core::fit_long_edge(size.width, size.height, max_edge, width, height);
    const bool scaled = width != size.width || height != size.height;
    // Where the screen captures on a connection of its own, the capture runs on the thread too,
    // beside the read; else it comes first, here, since the read holds the backend's lock.
    auto* screen = desk.backend().screen();
    const bool capture_apart = screen && screen->captures_apart();
    Taken early;
    if (!capture_apart) {
        early.full = capture_screen(desk, whole);
        if (!early.full)
            return early.full.error();
    }
    auto taking = std::async(std::launch::async, [&desk, &early, whole, width, height, capture_apart] {
        Taken t;
        if (capture_apart)
            t.full = capture_screen(desk, whole);
        else
            t = std::move(early);
        scale_and_encode(t, width, height);
        return t;
    });
    // An early return below waits for the thread (the future's destructor), which uses nothing
    // of this frame but `desk` and `early`.
    std::vector<nd_core::SnapshotPtr> read;
    if (read_during)
        read = TRY(read_during());
    const auto regions = TRY(secure_regions(desk, whole, read, listed));
    auto taken = taking.get();
    auto full = TRY(std::move(taken.full));
    const auto fields = static_cast<std::int32_t>(regions.fields.size());
    std::vector<BlackedWindow> blacked;
    for (const auto& [index, why] : regions.whole)
        blacked.push_back(why);
    if (regions.fields.empty() && regions.whole.empty()) {
        if (taken.jpeg.empty())
            return make_error(ErrorCode::internal_error, "the screenshot could not be encoded as JPEG");
        return picture_of(std::move(taken.jpeg), scaled ? taken.scaled : full, 0, {}, size);
    }
    if (!scaled) {
        black_out_regions(full, whole, regions);
        return encode(full, fields, std::move(blacked), size);
    }
    auto image = std::move(taken.scaled);
    if (!regions.whole.empty()) {
        black_out_regions(full, whole, regions);
        image = nd_core::resize_area(full, width, height);
    } else {
        for (const auto& f : regions.fields)
            nd_core::black_out(image, scaled_cover(f, size, image));
    }
    return encode(image, fields, std::move(blacked), size);
}

nd_core::Result<VisionPicture> region_picture(Desk& desk, const nd_core::Frame& rect)
{
    const auto size = TRY(vision_screen_size(desk));
    auto shot = TRY(screen_shot(desk, rect));
    auto out = TRY(encode(shot.image, shot.secure_fields, std::move(shot.whole_windows), size));
    // A region is at full resolution: one of its pixels is one screen pixel.
    out.shot = VisionShot{rect.w, rect.h, rect.w, rect.h};
    return out;
}

nlohmann::json picture_json(const VisionPicture& p)
{
    nlohmann::json out{{"width", p.width}, {"height", p.height}, {"format", "jpeg"},
        {"bytes", p.bytes.size()}, {"tokens", image_tokens(p.width, p.height)},
        {"scale", round4(p.shot.scale())}};
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

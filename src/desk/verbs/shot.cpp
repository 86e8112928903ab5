#include "core/encode/base64.h"
#include "core/encode/png.h"
#include "core/whole_file.h"
#include "desk/desk.h"
#include "desk/desk_shot.h"
#include "desk/verbs/act_verb_list.h"

namespace nd_desk::verbs {

namespace {

using nd_core::ErrorCode;
using nd_core::Frame;
using nd_core::make_error;

// x, y, w and h together, or none of them.
nd_core::Result<std::optional<Frame>> rect_arg(const nlohmann::json& args)
{
    const auto x = arg_int(args, "x"), y = arg_int(args, "y"), w = arg_int(args, "w"), h = arg_int(args, "h");
    const int given = (x ? 1 : 0) + (y ? 1 : 0) + (w ? 1 : 0) + (h ? 1 : 0);
    if (given == 0)
        return std::optional<Frame>{};
    if (given != 4)
        return make_error(ErrorCode::invalid_arguments,
            std::string(!x ? "x" : !y ? "y" : !w ? "w" : "h") + ": required with the others; a rectangle takes x, y, w and h");
    if (*w <= 0 || *h <= 0)
        return make_error(ErrorCode::invalid_arguments, "w, h: the rectangle must be at least 1x1");
    if (*x < 0 || *y < 0 || *x > 65535 || *y > 65535 || *w > 65535 || *h > 65535)
        return make_error(ErrorCode::invalid_arguments, "x, y: the rectangle must start at or right of and below 0,0");
    return std::optional<Frame>(Frame{static_cast<std::int32_t>(*x), static_cast<std::int32_t>(*y),
        static_cast<std::int32_t>(*w), static_cast<std::int32_t>(*h)});
}

bool inside(const Frame& r, std::int32_t width, std::int32_t height)
{
    return r.x >= 0 && r.y >= 0 && r.x + r.w <= width && r.y + r.h <= height;
}

} // namespace

VerbDef shot()
{
    return {
        .decl = {
            .name = "desk_shot",
            .description = "A PNG (image_b64) of the screen, or of a rectangle of it in desk coordinates; with window, of "
                           "that window's own capture, and x, y, w, h crop it in its own pixels (origin gives the crop's "
                           "top left in the whole window image). Password fields are always blacked out. With path "
                           "(absolute) the PNG is also written there.",
            .args = {{"x", ArgType::integer, "left of the rectangle"}, {"y", ArgType::integer, "top of the rectangle"},
                {"w", ArgType::integer, "width of the rectangle"}, {"h", ArgType::integer, "height of the rectangle"},
                {"path", ArgType::string, "an absolute file path the PNG is also written to"},
                {"window", ArgType::string, "the window's title, or a part of it only one window has"}},
        },
        .handler = [](Desk& desk, const CallScope&, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto rect = TRY(rect_arg(args));
            const auto path = arg_string(args, "path");
            if (path && (path->empty() || path->front() != '/'))
                return make_error(ErrorCode::invalid_arguments,
                    "path: \"" + path->substr(0, 200) + "\" is relative; pass an absolute path");
            nlohmann::json out;
            nd_core::Image image;
            if (arg_string(args, "window")) {
                const auto window = TRY(desk.pick_window(args));
                image = TRY(window_shot(desk, window));
                Frame crop_rect{0, 0, image.width, image.height};
                if (rect) {
                    if (!inside(*rect, image.width, image.height))
                        return make_error(ErrorCode::invalid_arguments,
                            "x, y, w, h: the rectangle is not inside the window's " + std::to_string(image.width) + "x" +
                                std::to_string(image.height) + " image; crop inside it");
                    crop_rect = *rect;
                    image = crop(image, crop_rect);
                }
                out["origin"] = {crop_rect.x, crop_rect.y};
                out["window"] = window.title;
            } else {
                auto* screen = desk.backend().screen();
                if (!screen)
                    return make_error(ErrorCode::unsupported, "this desk has no screen to capture");
                nd_core::ScreenSize size;
                {
                    auto lock = desk.lock_backend();
                    size = TRY(screen->size());
                }
                const Frame whole{0, 0, size.width, size.height};
                const Frame r = rect.value_or(whole);
                if (!inside(r, size.width, size.height))
                    return make_error(ErrorCode::invalid_arguments,
                        "x, y, w, h: the rectangle is off the " + std::to_string(size.width) + "x" +
                            std::to_string(size.height) + " screen; keep it inside, or name the window to shoot it whole");
                auto shot = TRY(screen_shot(desk, r));
                image = std::move(shot.image);
                if (shot.secure_fields > 0)
                    out["secure_fields_blacked_out"] = shot.secure_fields;
                if (!shot.whole_windows.empty()) {
                    auto& list = out["windows_blacked_out"] = nlohmann::json::array();
                    for (const auto& w : shot.whole_windows)
                        list.push_back({{"title", w.title}, {"reason", w.reason}});
                }
            }
            const auto png = nd_core::encode_png(image);
            if (png.empty())
                return make_error(ErrorCode::internal_error, "the capture could not be encoded as PNG");
            out["width"] = image.width;
            out["height"] = image.height;
            if (path) {
                TRY_VOID(nd_core::write_whole_file(*path, png));
                out["path"] = *path;
            }
            return VerbReply{std::move(out), nd_core::base64_encode(png)};
        },
    };
}

} // namespace nd_desk::verbs

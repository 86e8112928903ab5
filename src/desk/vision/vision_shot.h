#pragma once

// The screenshot a vision verb answers (docs/vision.md): the whole screen captured once, every
// password field blacked out as for desk shots (desk_shot.h), scaled to a long edge of max_edge by
// area averaging, and encoded as JPEG; or a region of it at full resolution. Its JSON gives the
// size, the bytes and the input tokens a model pays for it.

#include "core/backend/screen.h"
#include "core/model/snapshot.h"
#include "desk/desk_shot.h"
#include "desk/verb.h"
#include "desk/vision/vision_sessions.h"

#include <nlohmann/json.hpp>

#include <functional>

namespace nd_desk {

class Desk;

inline constexpr std::int32_t DEFAULT_MAX_EDGE = 1024;
inline constexpr const char* VISION_MIME = "image/jpeg";

struct VisionPicture {
    std::string bytes; // the JPEG
    std::int32_t width = 0;
    std::int32_t height = 0;
    VisionShot shot;                   // what the caller's x,y mean after seeing it
    std::int32_t secure_fields = 0;    // blacked out
    std::vector<BlackedWindow> whole_windows;
};

// A screen length in pixels of a screenshot whose pixel is `scale` screen pixels, rounded.
std::int32_t to_shot(std::int32_t screen_pixels, double scale);

// A scale or a mapping as the answers give it: four decimals.
double round4(double);

// The input tokens a model pays for an image of this size: width x height / 750, rounded up (the
// rule of Anthropic's vision documentation; other providers' rules land close to it at 1024).
std::int64_t image_tokens(std::int32_t width, std::int32_t height);

// The whole screen scaled to max_edge (0: full size), blacked out as desk_shot.h's screen_shot
// does. The capture is taken (where the screen captures apart, Screen::captures_apart), scaled and
// encoded on a thread of its own while `read_during` runs (computer_state's tree read); the
// windows of the reads it returns are blacked out by those reads' fields, and `listed`, when
// given, are the windows as the caller listed them for this call (else they are listed afresh).
// When nothing is to be blacked out the thread's JPEG is the answer. Else password fields are
// blacked out on the scaled picture over every pixel their bounds touch, and a window blacked out
// whole is painted on the full capture, which is then scaled again; either is encoded again.
using ReadDuring = std::function<nd_core::Result<std::vector<nd_core::SnapshotPtr>>()>;
nd_core::Result<VisionPicture> screen_picture(Desk&, std::int32_t max_edge, const ReadDuring& read_during = {},
    const std::vector<nd_core::WindowInfo>* listed = nullptr);

// The screen rectangle `rect` (screen pixels, inside the screen) at full resolution.
nd_core::Result<VisionPicture> region_picture(Desk&, const nd_core::Frame& rect);

// {width, height, format: "jpeg", bytes, tokens, scale} and the blacked-out counts, for the text.
nlohmann::json picture_json(const VisionPicture&);

// The reply: the JSON result and the JPEG as its image.
VerbReply picture_reply(nlohmann::json result, const VisionPicture&);

// The screen's size, under the backend lock; unsupported when the desk has no screen.
nd_core::Result<nd_core::ScreenSize> vision_screen_size(Desk&);

} // namespace nd_desk

#include "core/engine/secure_blackout.h"

#include "core/encode/png.h"

namespace nd_core {

Result<void> check_secure_fields_known(const Snapshot& snap)
{
    if (snap.budget_truncated)
        return make_error(ErrorCode::secure_field_refused,
            "no screenshot: the window's tree was cut at the whole-window budget, so secure fields may be unknown");
    for (const auto& e : snap.elements)
        if (e.secure() && e.is(STATE_SHOWING) && !e.has_frame)
            return make_error(ErrorCode::secure_field_refused, "no screenshot: a secure field has no known bounds");
    return {};
}

std::int32_t black_out_secure_fields(Image& image, const Snapshot& snap, std::int32_t origin_x, std::int32_t origin_y)
{
    std::int32_t painted = 0;
    for (const auto& e : snap.elements) {
        if (!e.secure() || !e.has_frame)
            continue;
        black_out(image, PixelRect::relative(e.frame.x, e.frame.y, e.frame.w, e.frame.h, origin_x, origin_y));
        ++painted;
    }
    return painted;
}

} // namespace nd_core

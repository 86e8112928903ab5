#include "desk/desk_shot.h"

#include "core/encode/png.h"
#include "core/engine/secure_blackout.h"
#include "desk/desk.h"

#include <algorithm>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::Frame;
using nd_core::Image;
using nd_core::make_error;
using nd_core::WindowInfo;

namespace {

Frame intersect(const Frame& a, const Frame& b)
{
    const auto x0 = std::max(a.x, b.x), y0 = std::max(a.y, b.y);
    const auto x1 = std::min(a.x + a.w, b.x + b.w), y1 = std::min(a.y + a.h, b.y + b.h);
    return {x0, y0, std::max(0, x1 - x0), std::max(0, y1 - y0)};
}

// Which listed window shows each pixel of the picture: windows painted bottom to top, so the
// topmost one at a pixel owns it; -1 where none does (the desktop, a panel).
std::vector<std::int16_t> owner_map(const std::vector<WindowInfo>& windows, const Frame& rect)
{
    std::vector<std::int16_t> owner(static_cast<std::size_t>(rect.w) * rect.h, -1);
    for (auto i = static_cast<std::int32_t>(windows.size()) - 1; i >= 0; --i) {
        const auto& w = windows[static_cast<std::size_t>(i)];
        if (w.hidden)
            continue;
        const auto part = intersect(w.frame, rect);
        for (std::int32_t y = part.y; y < part.y + part.h; ++y)
            std::fill_n(owner.begin() + (static_cast<std::ptrdiff_t>(y - rect.y) * rect.w + (part.x - rect.x)), part.w,
                static_cast<std::int16_t>(i));
    }
    return owner;
}

void black_out_owned(Image& image, const std::vector<std::int16_t>& owner, std::int16_t index)
{
    for (std::size_t p = 0; p < owner.size(); ++p)
        if (owner[p] == index) {
            image.rgba[p * 4] = image.rgba[p * 4 + 1] = image.rgba[p * 4 + 2] = 0;
            image.rgba[p * 4 + 3] = 255;
        }
}

} // namespace

Image crop(const Image& image, const Frame& rect)
{
    Image out;
    out.width = rect.w;
    out.height = rect.h;
    out.rgba.resize(static_cast<std::size_t>(rect.w) * rect.h * 4);
    for (std::int32_t y = 0; y < rect.h; ++y)
        std::copy_n(image.rgba.data() + (static_cast<std::size_t>(rect.y + y) * image.width + rect.x) * 4,
            static_cast<std::size_t>(rect.w) * 4, out.rgba.data() + static_cast<std::size_t>(y) * rect.w * 4);
    return out;
}

nd_core::Result<SecureRegions> secure_regions(Desk& desk, const Frame& rect, const std::vector<nd_core::SnapshotPtr>& read,
    const std::vector<WindowInfo>* listed)
{
    SecureRegions out;
    // Surfaces no window manager places lie above every window: a menu, a tooltip or a notification
    // of an app outside the allowlist is blacked out where it covers an allowed window.
    out.windows = TRY(desk.unmanaged_surfaces());
    const auto unmanaged = out.windows.size();
    auto managed = listed ? *listed : TRY(desk.all_windows());
    out.windows.insert(out.windows.end(), std::make_move_iterator(managed.begin()), std::make_move_iterator(managed.end()));
    if (out.windows.size() > 30000)
        out.windows.resize(30000); // owner indices are 16-bit
    for (std::size_t i = 0; i < out.windows.size(); ++i) {
        const auto& w = out.windows[i];
        if (w.hidden || intersect(w.frame, rect).w == 0 || intersect(w.frame, rect).h == 0)
            continue;
        auto whole = [&](std::string reason) { out.whole.push_back({static_cast<std::int16_t>(i), {w.title, std::move(reason)}}); };
        if (!desk.allows(w)) {
            whole(i < unmanaged ? "it is a menu, a tooltip or a notification of an app not in the app allowlist"
                                : "its app is not in the app allowlist");
            continue;
        }
        // An allowed app's menu or popover: its rows are its window's, whose password fields are
        // blacked out where they show.
        if (i < unmanaged)
            continue;
        const auto known = std::find_if(read.begin(), read.end(),
            [&](const nd_core::SnapshotPtr& s) { return s && s->window.window_id == w.window_id; });
        if (known != read.end()) {
            if (auto secure = nd_core::check_secure_fields_known(**known); !secure) {
                whole(secure.error().message);
                continue;
            }
            for (const auto& e : (*known)->elements)
                if (e.secure() && e.has_frame)
                    out.fields.push_back(e.frame);
            continue;
        }
        auto* finder = desk.backend().finder();
        if (!finder) {
            whole("this desk cannot search windows for password fields");
            continue;
        }
        nd_core::FindQuery query{.name = "", .role = "password_text", .max_results = 64, .deadline = SHOT_SEARCH_DEADLINE};
        nd_core::Result<nd_core::FindResult> found = make_error(ErrorCode::internal_error, "not searched");
        {
            auto lock = desk.lock_backend();
            found = finder->find(w, query);
        }
        if (!found) {
            whole("its password fields could not be searched in time (" + found.error().message + ")");
            continue;
        }
        if (found->truncated) {
            whole("it has too many password fields to black out one by one");
            continue;
        }
        bool unknown_bounds = false;
        for (const auto& e : found->elements) {
            if (!e.has_frame) {
                // A field not showing is not painted; one showing without bounds cannot be covered.
                unknown_bounds = unknown_bounds || e.is(nd_core::STATE_SHOWING);
                continue;
            }
            out.fields.push_back(e.frame);
        }
        if (unknown_bounds)
            whole("a password field it shows has no known bounds");
    }
    return out;
}

void black_out_regions(Image& image, const Frame& rect, const SecureRegions& regions)
{
    if (!regions.whole.empty()) {
        const auto owner = owner_map(regions.windows, rect);
        for (const auto& [index, why] : regions.whole)
            black_out_owned(image, owner, index);
    }
    for (const auto& f : regions.fields)
        nd_core::black_out(image, nd_core::PixelRect::relative(f.x, f.y, f.w, f.h, rect.x, rect.y));
}

nd_core::Result<Image> capture_screen(Desk& desk, const Frame& rect)
{
    auto* screen = desk.backend().screen();
    if (!screen)
        return make_error(ErrorCode::unsupported, "this desk has no screen to capture");
    Image image;
    {
        auto lock = desk.lock_capture();
        image = TRY(screen->capture(rect.x, rect.y, rect.w, rect.h));
    }
    if (image.width != rect.w || image.height != rect.h || !nd_core::image_is_valid(image))
        return make_error(ErrorCode::internal_error, "the screen capture has another size than the rectangle asked for");
    return image;
}

nd_core::Result<ScreenShot> screen_shot(Desk& desk, const Frame& rect, const std::vector<nd_core::SnapshotPtr>& read)
{
    ScreenShot shot;
    shot.image = TRY(capture_screen(desk, rect));
    const auto regions = TRY(secure_regions(desk, rect, read));
    black_out_regions(shot.image, rect, regions);
    shot.secure_fields = static_cast<std::int32_t>(regions.fields.size());
    for (const auto& [index, why] : regions.whole)
        shot.whole_windows.push_back(why);
    return shot;
}

nd_core::Result<Image> window_shot(Desk& desk, const WindowInfo& window)
{
    auto* capture = desk.backend().capture();
    if (!capture)
        return make_error(ErrorCode::unsupported, "this desk cannot capture windows");
    auto snap = TRY(desk.read(window));
    TRY_VOID(nd_core::check_secure_fields_known(*snap));
    Image image;
    {
        auto lock = desk.lock_backend();
        image = TRY(capture->capture_window(snap->window));
    }
    nd_core::black_out_secure_fields(image, *snap, snap->window.frame.x, snap->window.frame.y);
    return image;
}

} // namespace nd_desk

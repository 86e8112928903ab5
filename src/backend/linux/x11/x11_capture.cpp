#include "backend/linux/x11/x11_capture.h"

#include "backend/linux/x11/x11_pixels.h"
#include "backend/linux/x11/x11_reply.h"
#include "backend/linux/x11/x11_window_place.h"

#include <xcb/composite.h>

#include <algorithm>
#include <cstring>
#include <thread>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

// An image read may take longer than a property read: up to 256 MiB cross the socket without SHM.
constexpr std::chrono::milliseconds IMAGE_TIMEOUT{3000};

// How long after the redirect a capture may still see a window that has not repainted yet.
constexpr std::chrono::milliseconds REDIRECT_SETTLE_MIN{50};
constexpr std::chrono::milliseconds REDIRECT_SETTLE_MAX{400};
constexpr std::chrono::milliseconds REDIRECT_SETTLE_STEP{15};

// Share of pixels that differ between two images of one size (1 when the sizes differ).
double changed_share(const nd_core::Image& a, const nd_core::Image& b)
{
    if (a.width != b.width || a.height != b.height || a.rgba.empty())
        return 1.0;
    std::size_t differing = 0;
    for (std::size_t i = 0; i + 3 < a.rgba.size(); i += 4)
        differing += std::memcmp(&a.rgba[i], &b.rgba[i], 3) != 0;
    return static_cast<double>(differing) / static_cast<double>(a.rgba.size() / 4);
}

std::string id_text(std::int64_t id) { return std::to_string(id); }

nd_core::Error gone(std::int64_t id, std::uint8_t x_error)
{
    return make_error(ErrorCode::window_target_not_found,
        "window " + id_text(id) + " no longer exists (X error " + std::to_string(x_error) + ")");
}

// Copies `part` into a black image of `width` x `height` at (dx, dy).
nd_core::Image paste(const nd_core::Image& part, std::uint32_t width, std::uint32_t height, std::int32_t dx, std::int32_t dy)
{
    nd_core::Image out;
    out.width = static_cast<std::int32_t>(width);
    out.height = static_cast<std::int32_t>(height);
    out.rgba.assign(static_cast<std::size_t>(width) * height * 4, 0);
    for (std::size_t i = 3; i < out.rgba.size(); i += 4)
        out.rgba[i] = 255;
    for (std::int32_t y = 0; y < part.height; ++y)
        std::memcpy(&out.rgba[((static_cast<std::size_t>(dy + y) * width) + static_cast<std::size_t>(dx)) * 4],
            &part.rgba[static_cast<std::size_t>(y) * static_cast<std::size_t>(part.width) * 4],
            static_cast<std::size_t>(part.width) * 4);
    return out;
}

} // namespace

struct X11Capture::Located {
    xcb_window_t window = XCB_WINDOW_NONE;
    xcb_window_t top = XCB_WINDOW_NONE; // the ancestor that is a child of the root (may be `window`)
    std::uint32_t width = 0, height = 0;
    std::uint8_t depth = 0;
    xcb_visualid_t visual = 0;
};

X11Capture::X11Capture(X11Display& display, bool redirect) : m_display(display), m_shm(display)
{
    // Redirected now, checked at the first capture: windows that already exist repaint into their new
    // pixmaps in answer to the Expose this causes, and by the first capture they usually have.
    if (redirect && m_display.extensions().composite && !m_display.broken()) {
        m_redirect_cookie = xcb_composite_redirect_subwindows_checked(m_display.connection(), m_display.root(),
            XCB_COMPOSITE_REDIRECT_AUTOMATIC);
        xcb_flush(m_display.connection());
        m_redirected_at = Clock::now();
    } else {
        m_redirect_checked = true;
    }
}

void X11Capture::check_redirect()
{
    if (m_redirect_checked)
        return;
    auto error = m_display.check(m_redirect_cookie, deadline_after(X11_BATCH_TIMEOUT));
    // Only a definite answer is remembered; after a timeout the next capture asks again.
    if (!error.ok() && error.error().code == ErrorCode::timed_out)
        return;
    m_redirect_checked = true;
    m_redirected = error.ok() && error.value() == 0;
}

nd_core::Result<X11Capture::Located> X11Capture::locate(xcb_window_t window)
{
    auto* c = m_display.connection();
    ReplyBatch batch(m_display, deadline_after(X11_BATCH_TIMEOUT));
    auto attributes_cookie = batch.add(xcb_get_window_attributes(c, window));
    auto geometry_cookie = batch.add(xcb_get_geometry(c, window));
    auto tree_cookie = batch.add(xcb_query_tree(c, window));
    auto attributes = TRY(batch.take<xcb_get_window_attributes_reply_t>(attributes_cookie));
    auto geometry = TRY(batch.take<xcb_get_geometry_reply_t>(geometry_cookie));
    auto tree = TRY(batch.take<xcb_query_tree_reply_t>(tree_cookie));
    if (!attributes || !geometry || !tree) {
        std::uint8_t code = attributes.error_code ? attributes.error_code : geometry.error_code ? geometry.error_code : tree.error_code;
        return gone(window, code);
    }
    if (attributes->_class == XCB_WINDOW_CLASS_INPUT_ONLY)
        return make_error(ErrorCode::window_target_not_found, "window " + id_text(window) + " is input-only and has no pixels");
    if (attributes->map_state != XCB_MAP_STATE_VIEWABLE)
        return make_error(ErrorCode::window_target_not_found, "window " + id_text(window) + " is not shown (unmapped or minimised)");
    if (geometry->width > MAX_CAPTURE_SIDE || geometry->height > MAX_CAPTURE_SIDE)
        return make_error(ErrorCode::unsupported,
            "window " + id_text(window) + " is " + std::to_string(geometry->width) + "x" + std::to_string(geometry->height)
                + " pixels; captures are limited to " + std::to_string(MAX_CAPTURE_SIDE) + " per side");

    Located out{window, window, geometry->width, geometry->height, geometry->depth, attributes->visual};
    const auto top = TRY(climb_to_top_level(m_display, window, tree->parent, deadline_after(X11_BATCH_TIMEOUT)));
    switch (top.end) {
    case RootChild::End::found:
        out.top = top.window;
        break;
    case RootChild::End::gone:
        return gone(window, top.x_error);
    case RootChild::End::too_deep:
        return make_error(ErrorCode::window_target_not_found, "window " + id_text(window) + " is not under the root window");
    case RootChild::End::is_root:
        return make_error(ErrorCode::window_target_not_found, "window " + id_text(window) + " is the root window, not an app window");
    }
    return out;
}

nd_core::Result<nd_core::Image> X11Capture::capture_window(const nd_core::WindowInfo& info)
{
    m_used_composite = m_used_shm = false;
    if (info.window_id <= 0 || info.window_id > 0x1FFFFFFF) // X resource ids have their top 3 bits clear
        return make_error(ErrorCode::window_target_not_found, "window " + id_text(info.window_id) + " is not an X window id");
    if (m_display.broken())
        return m_display.dead_error();
    check_redirect();
    const auto window = static_cast<xcb_window_t>(info.window_id);
    auto located = TRY(locate(window));

    if (m_redirected) {
        auto image = TRY(read_composited(located));
        if (image) {
            m_used_composite = true;
            return std::move(*image);
        }
    }

    // Without Composite the window's own rectangle on the screen is all there is: what covers it is
    // read too, and the parts off the screen are not kept by the server (they stay black).
    auto* c = m_display.connection();
    ReplyBatch batch(m_display, deadline_after(X11_BATCH_TIMEOUT));
    auto on_root = TRY(batch.take<xcb_translate_coordinates_reply_t>(
        batch.add(xcb_translate_coordinates(c, window, m_display.root(), 0, 0))));
    if (!on_root)
        return gone(window, on_root.error_code);
    const auto& screen = m_display.screen();
    Region region{window, window, 0, 0, located.width, located.height, located.depth, located.visual};
    const Rect bounds{-on_root->dst_x, -on_root->dst_y, screen.width_in_pixels, screen.height_in_pixels};
    return read_region(region, bounds);
}

nd_core::Result<nd_core::Image> X11Capture::capture_screen(std::int32_t x, std::int32_t y, std::int32_t w, std::int32_t h)
{
    const auto& screen = m_display.screen();
    const Rect whole{0, 0, screen.width_in_pixels, screen.height_in_pixels};
    const Rect part = Rect{x, y, w, h}.shared(whole);
    if (!part.has_area())
        return make_error(ErrorCode::invalid_arguments, "the rectangle lies off the screen");
    Region region{m_display.root(), m_display.root(), part.x, part.y, static_cast<std::uint32_t>(part.w),
        static_cast<std::uint32_t>(part.h), screen.root_depth, screen.root_visual};
    m_used_composite = false;
    return read_pixels(region, part);
}

nd_core::Result<std::optional<nd_core::Image>> X11Capture::read_composited(const Located& located)
{
    auto* c = m_display.connection();
    ReplyBatch batch(m_display, deadline_after(X11_BATCH_TIMEOUT));
    auto origin_cookie = batch.add(xcb_translate_coordinates(c, located.window, located.top, 0, 0));
    auto top_geometry_cookie = batch.add(xcb_get_geometry(c, located.top));
    auto top_attributes_cookie = batch.add(xcb_get_window_attributes(c, located.top));
    auto origin = TRY(batch.take<xcb_translate_coordinates_reply_t>(origin_cookie));
    auto top_geometry = TRY(batch.take<xcb_get_geometry_reply_t>(top_geometry_cookie));
    auto top_attributes = TRY(batch.take<xcb_get_window_attributes_reply_t>(top_attributes_cookie));
    if (!origin || !top_geometry || !top_attributes)
        return gone(located.window, origin.error_code ? origin.error_code : top_geometry.error_code);

    xcb_pixmap_t pixmap = xcb_generate_id(c);
    auto named = TRY(m_display.check(xcb_composite_name_window_pixmap_checked(c, located.top, pixmap),
        deadline_after(X11_BATCH_TIMEOUT)));
    if (named != 0)
        return std::optional<nd_core::Image>{}; // BadMatch: this top-level is not redirected

    // The pixmap holds the top-level's border too: the client's pixels start at its origin inside
    // the top-level plus that border.
    const std::int32_t border = top_geometry->border_width;
    Region region{located.window, pixmap, origin->dst_x + border, origin->dst_y + border, located.width, located.height,
        top_geometry->depth, top_attributes->visual};
    const Rect bounds{0, 0, top_geometry->width + 2 * border, top_geometry->height + 2 * border};
    auto image = read_region(region, bounds);
    if (image.ok()) {
        auto settled = settle_after_redirect(region, bounds, image.value());
        if (!settled.ok())
            image = std::move(settled).error();
    }
    xcb_free_pixmap(c, pixmap);
    xcb_flush(c);
    if (!image.ok())
        return std::move(image).error();
    return std::optional<nd_core::Image>(std::move(image).value());
}

nd_core::Result<nd_core::Image> X11Capture::read_region(const Region& region, Rect bounds)
{
    const Rect want{region.x, region.y, static_cast<std::int32_t>(region.width), static_cast<std::int32_t>(region.height)};
    const Rect part = want.shared(bounds);
    if (!part.has_area())
        return paste({}, region.width, region.height, 0, 0);
    auto image = TRY(read_pixels(region, part));
    if (part.w == want.w && part.h == want.h)
        return image;
    return paste(image, region.width, region.height, part.x - want.x, part.y - want.y);
}

nd_core::Result<nd_core::Image> X11Capture::read_pixels(const Region& region, Rect part)
{
    auto* c = m_display.connection();
    auto layout = TRY(pixel_layout(xcb_get_setup(c), m_display.screen(), region.depth, region.visual));
    const auto x = static_cast<std::int16_t>(part.x), y = static_cast<std::int16_t>(part.y);
    const auto width = static_cast<std::uint16_t>(part.w), height = static_cast<std::uint16_t>(part.h);
    const std::size_t bytes = layout.stride(width) * height;

    if (m_shm_usable && m_display.extensions().shm && m_display.is_local()) {
        auto reserved = m_shm.reserve(bytes);
        if (!reserved.ok() && reserved.error().code != ErrorCode::unsupported)
            return std::move(reserved).error();
        if (!reserved.ok()) {
            m_shm_usable = false; // remembered: this server cannot see our memory
        } else {
            ReplyBatch batch(m_display, deadline_after(IMAGE_TIMEOUT));
            auto reply = TRY(batch.take<xcb_shm_get_image_reply_t>(batch.add(xcb_shm_get_image(
                c, region.drawable, x, y, width, height, ~0u, XCB_IMAGE_FORMAT_Z_PIXMAP, m_shm.id(), 0))));
            if (!reply)
                return gone(region.window, reply.error_code);
            m_used_shm = true;
            auto image = to_rgba({m_shm.data(), std::min<std::size_t>(reply->size, m_shm.size())}, width, height, layout);
            // A segment for a huge window is not worth keeping between captures.
            if (m_shm.size() > (64u << 20))
                m_shm.release();
            return image;
        }
    }

    ReplyBatch batch(m_display, deadline_after(IMAGE_TIMEOUT));
    auto reply = TRY(batch.take<xcb_get_image_reply_t>(
        batch.add(xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, region.drawable, x, y, width, height, ~0u))));
    if (!reply)
        return gone(region.window, reply.error_code);
    std::span<const std::uint8_t> data{xcb_get_image_data(reply.value.get()),
        static_cast<std::size_t>(std::max(0, xcb_get_image_data_length(reply.value.get())))};
    return to_rgba(data, width, height, layout);
}

nd_core::Result<void> X11Capture::settle_after_redirect(const Region& region, Rect bounds, nd_core::Image& image)
{
    // Right after the redirect a pixmap holds what the screen showed (nothing where the window was
    // covered or off the screen) until the app has repainted in answer to its Expose. Read again until
    // two reads agree (an animation may still change a few pixels), within a short bound.
    const auto settle_end = m_redirected_at + REDIRECT_SETTLE_MAX;
    if (Clock::now() >= settle_end)
        return {};
    const auto earliest = m_redirected_at + REDIRECT_SETTLE_MIN;
    while (Clock::now() < settle_end) {
        std::this_thread::sleep_for(REDIRECT_SETTLE_STEP);
        auto next = TRY(read_region(region, bounds));
        const bool settled = changed_share(image, next) < 0.005 && Clock::now() >= earliest;
        image = std::move(next);
        if (settled)
            break;
    }
    return {};
}

} // namespace nd_linux

#include "backend/linux/x11/x11_pixels.h"

#include <bit>
#include <cstring>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

const xcb_visualtype_t* find_visual(const xcb_screen_t& screen, std::uint8_t depth, xcb_visualid_t visual)
{
    for (auto d = xcb_screen_allowed_depths_iterator(&screen); d.rem; xcb_depth_next(&d)) {
        if (d.data->depth != depth)
            continue;
        for (auto v = xcb_depth_visuals_iterator(d.data); v.rem; xcb_visualtype_next(&v)) {
            if (visual ? v.data->visual_id == visual : v.data->_class == XCB_VISUAL_CLASS_TRUE_COLOR)
                return v.data;
        }
    }
    return nullptr;
}

bool is_byte_mask(std::uint32_t mask)
{
    return std::popcount(mask) == 8 && (std::countr_zero(mask) % 8) == 0;
}

} // namespace

std::size_t PixelLayout::stride(std::uint32_t width) const
{
    const std::size_t bits = static_cast<std::size_t>(width) * bits_per_pixel;
    const std::size_t pad = scanline_pad ? scanline_pad : 32;
    return (bits + pad - 1) / pad * pad / 8;
}

nd_core::Result<PixelLayout> pixel_layout(const xcb_setup_t* setup, const xcb_screen_t& screen, std::uint8_t depth,
    xcb_visualid_t visual)
{
    PixelLayout layout;
    layout.depth = depth;
    layout.msb_first = setup->image_byte_order == XCB_IMAGE_ORDER_MSB_FIRST;
    for (auto f = xcb_setup_pixmap_formats_iterator(setup); f.rem; xcb_format_next(&f)) {
        if (f.data->depth == depth) {
            layout.bits_per_pixel = f.data->bits_per_pixel;
            layout.scanline_pad = f.data->scanline_pad;
        }
    }
    const auto* v = find_visual(screen, depth, visual);
    if (!v && visual)
        v = find_visual(screen, depth, 0);
    if (!v || layout.bits_per_pixel != 32 || !is_byte_mask(v->red_mask) || !is_byte_mask(v->green_mask)
        || !is_byte_mask(v->blue_mask))
        return make_error(ErrorCode::unsupported,
            "the window's pixels are depth " + std::to_string(depth) + " at " + std::to_string(layout.bits_per_pixel)
                + " bits; only 32-bit pixels with 8-bit channels can be captured");
    layout.red_mask = v->red_mask;
    layout.green_mask = v->green_mask;
    layout.blue_mask = v->blue_mask;
    return layout;
}

nd_core::Result<nd_core::Image> to_rgba(std::span<const std::uint8_t> bytes, std::uint32_t width, std::uint32_t height,
    const PixelLayout& layout)
{
    const std::size_t stride = layout.stride(width);
    if (layout.bits_per_pixel != 32 || bytes.size() < stride * height)
        return make_error(ErrorCode::internal_error,
            "the X server sent " + std::to_string(bytes.size()) + " bytes for a " + std::to_string(width) + "x"
                + std::to_string(height) + " image");
    // Byte offsets of each channel inside a pixel, from the masks and the byte order.
    auto offset = [&](std::uint32_t mask) {
        int byte = std::countr_zero(mask) / 8;
        return layout.msb_first ? 3 - byte : byte;
    };
    const int r = offset(layout.red_mask), g = offset(layout.green_mask), b = offset(layout.blue_mask);

    nd_core::Image image;
    image.width = static_cast<std::int32_t>(width);
    image.height = static_cast<std::int32_t>(height);
    image.rgba.resize(static_cast<std::size_t>(width) * height * 4);
    std::uint8_t* out = image.rgba.data();
    if (std::endian::native == std::endian::little && r == 2 && g == 1 && b == 0) {
        // The usual layout (BGRX in memory, every little-endian TrueColor server): whole pixels as
        // words, a loop the compiler vectorises.
        for (std::uint32_t y = 0; y < height; ++y) {
            const std::uint8_t* in = bytes.data() + y * stride;
            for (std::uint32_t x = 0; x < width; ++x, in += 4, out += 4) {
                std::uint32_t p;
                std::memcpy(&p, in, 4);
                p = ((p >> 16) & 0xffu) | (p & 0xff00u) | ((p & 0xffu) << 16) | 0xff000000u;
                std::memcpy(out, &p, 4);
            }
        }
        return image;
    }
    for (std::uint32_t y = 0; y < height; ++y) {
        const std::uint8_t* in = bytes.data() + y * stride;
        for (std::uint32_t x = 0; x < width; ++x, in += 4, out += 4) {
            out[0] = in[r];
            out[1] = in[g];
            out[2] = in[b];
            out[3] = 255;
        }
    }
    return image;
}

} // namespace nd_linux

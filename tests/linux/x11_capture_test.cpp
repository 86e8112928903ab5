// Window capture on a real X server (scripts/test-desktop): a window's own pixels, also where another
// window covers it; errors for vanished and oversized windows; the pixel conversion itself.

#include "linux/app_process.h"
#include "linux/x11_test_support.h"

#include "backend/linux/x11/x11_capture.h"
#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_pixels.h"
#include "backend/linux/x11/x11_windows.h"
#include "core/encode/png.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <set>

using namespace std::chrono_literals;
using nd_core::ErrorCode;
using nd_core::Frame;
using nd_core::Image;
using nd_core::WindowInfo;
using nd_linux::X11Capture;
using nd_linux::X11Display;
using nd_linux::X11WindowSource;
using nd_test::AppProcess;
using nd_test::wait_until;

namespace {

struct Desktop {
    std::unique_ptr<X11Display> display;
    std::unique_ptr<X11WindowSource> windows;
    std::unique_ptr<X11Capture> capture;

    static std::optional<Desktop> open()
    {
        auto display = X11Display::open();
        EXPECT_TRUE(display.ok()) << (display.ok() ? "" : display.error().text());
        if (!display.ok())
            return std::nullopt;
        Desktop d;
        d.display = std::move(display).value();
        d.windows = std::make_unique<X11WindowSource>(*d.display);
        d.capture = std::make_unique<X11Capture>(*d.display);
        return d;
    }

    WindowInfo wait_for_window(const AppProcess& app)
    {
        std::optional<WindowInfo> found;
        wait_until([&] {
            auto all = windows->list_windows();
            if (all.ok())
                for (auto& w : all.value())
                    if (w.pid == app.pid())
                        found = w;
            return found.has_value();
        }, 15s);
        EXPECT_TRUE(found) << "no window of pid " << app.pid();
        return found.value_or(WindowInfo{});
    }

    Image capture_ok(const WindowInfo& w)
    {
        auto image = capture->capture_window(w);
        EXPECT_TRUE(image.ok()) << (image.ok() ? "" : image.error().text());
        return image.ok() ? std::move(image).value() : Image{};
    }

    // What the screen shows in `rect` (root coordinates): whichever window is on top there.
    Image screen(Frame rect)
    {
        auto* c = display->connection();
        auto* reply = xcb_get_image_reply(c,
            xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, display->root(), static_cast<std::int16_t>(rect.x),
                static_cast<std::int16_t>(rect.y), static_cast<std::uint16_t>(rect.w), static_cast<std::uint16_t>(rect.h), ~0u),
            nullptr);
        EXPECT_TRUE(reply);
        if (!reply)
            return {};
        auto layout = nd_linux::pixel_layout(xcb_get_setup(c), display->screen(), reply->depth, display->screen().root_visual);
        auto image = nd_linux::to_rgba({xcb_get_image_data(reply), static_cast<std::size_t>(xcb_get_image_data_length(reply))},
            static_cast<std::uint32_t>(rect.w), static_cast<std::uint32_t>(rect.h), layout.value());
        std::free(reply);
        return image.ok() ? std::move(image).value() : Image{};
    }
};

// Share of pixels that differ between a's rect at (ax, ay) and b's at (bx, by), both w x h.
double difference(const Image& a, int ax, int ay, const Image& b, int bx, int by, int w, int h)
{
    long differing = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            auto pa = &a.rgba[((static_cast<std::size_t>(ay + y) * a.width) + ax + x) * 4];
            auto pb = &b.rgba[((static_cast<std::size_t>(by + y) * b.width) + bx + x) * 4];
            differing += std::memcmp(pa, pb, 3) != 0;
        }
    return static_cast<double>(differing) / (static_cast<double>(w) * h);
}

std::size_t distinct_colours(const Image& image)
{
    std::set<std::uint32_t> colours;
    for (std::size_t i = 0; i + 3 < image.rgba.size() && colours.size() < 1000; i += 4 * 7)
        colours.insert(image.rgba[i] | image.rgba[i + 1] << 8 | image.rgba[i + 2] << 16);
    return colours.size();
}

// Waits until two captures 100 ms apart (nearly) agree: the app has finished painting. Widget
// galleries animate (spinners, progress bars), so a few changed pixels are allowed.
Image settled_capture(Desktop& d, const WindowInfo& w)
{
    Image last = d.capture_ok(w);
    for (int i = 0; i < 30; ++i) {
        std::this_thread::sleep_for(100ms);
        Image next = d.capture_ok(w);
        bool same = next.width == last.width && next.height == last.height
            && difference(next, 0, 0, last, 0, 0, next.width, next.height) < 0.002;
        last = std::move(next);
        if (same)
            break;
    }
    return last;
}

} // namespace

TEST(X11Capture, CapturesTheWindowAtItsFrameSize)
{
    REQUIRE_DISPLAY();
    auto d = Desktop::open();
    ASSERT_TRUE(d);
    AppProcess app({"gtk3-widget-factory"});
    auto w = d->wait_for_window(app);
    ASSERT_NE(w.window_id, 0);
    auto image = settled_capture(*d, w);
    EXPECT_EQ(image.width, w.frame.w);
    EXPECT_EQ(image.height, w.frame.h);
    EXPECT_TRUE(nd_core::image_is_valid(image));
    EXPECT_GT(distinct_colours(image), 20u) << "a widget gallery has many colours, not a blank window";
    EXPECT_TRUE(d->capture->used_composite());
    EXPECT_TRUE(d->capture->used_shm());
    for (std::size_t i = 3; i < image.rgba.size(); i += 4 * 101)
        ASSERT_EQ(image.rgba[i], 255);
}

TEST(X11Capture, ACoveredWindowStillShowsItsOwnPixels)
{
    REQUIRE_DISPLAY();
    auto d = Desktop::open();
    ASSERT_TRUE(d);
    AppProcess factory({"gtk3-widget-factory"});
    auto below = d->wait_for_window(factory);
    ASSERT_NE(below.window_id, 0);
    auto before = settled_capture(*d, below);

    AppProcess dialog({"zenity", "--info", "--text", "covering"});
    auto above = d->wait_for_window(dialog);
    ASSERT_NE(above.window_id, 0);
    // Put the dialog well inside the factory's window, on top.
    ASSERT_EQ(nd_test::run_command({"xdotool", "windowmove", "--sync", std::to_string(above.window_id), std::to_string(below.frame.x + 120),
                  std::to_string(below.frame.y + 150)}), 0);
    ASSERT_EQ(nd_test::run_command({"xdotool", "windowactivate", "--sync", std::to_string(above.window_id)}), 0);
    settled_capture(*d, d->wait_for_window(dialog));
    above = d->wait_for_window(dialog);

    const int x0 = std::max(below.frame.x, above.frame.x), y0 = std::max(below.frame.y, above.frame.y);
    const int x1 = std::min(below.frame.x + below.frame.w, above.frame.x + above.frame.w);
    const int y1 = std::min(below.frame.y + below.frame.h, above.frame.y + above.frame.h);
    ASSERT_GT(x1 - x0, 50);
    ASSERT_GT(y1 - y0, 50);
    const Frame overlap{x0, y0, x1 - x0, y1 - y0};

    auto after = d->capture_ok(below);
    ASSERT_EQ(after.width, before.width);
    ASSERT_EQ(after.height, before.height);
    auto on_screen = d->screen(overlap);
    ASSERT_TRUE(nd_core::image_is_valid(on_screen));
    const int bx = overlap.x - below.frame.x, by = overlap.y - below.frame.y;
    double own = difference(before, bx, by, after, bx, by, overlap.w, overlap.h);
    double covered = difference(on_screen, 0, 0, after, bx, by, overlap.w, overlap.h);
    std::printf("covered region: %.1f%% differs from the earlier capture, %.1f%% from the screen\n", own * 100, covered * 100);
    EXPECT_LT(own, 0.02) << "the capture under the dialog still holds the factory's pixels";
    EXPECT_GT(covered, 0.05) << "the screen there shows the dialog, so it must differ from the capture";
}

TEST(X11Capture, AVanishedWindowIsNotFound)
{
    REQUIRE_DISPLAY();
    auto d = Desktop::open();
    ASSERT_TRUE(d);
    AppProcess dialog({"zenity", "--info", "--text", "short-lived"});
    auto w = d->wait_for_window(dialog);
    ASSERT_NE(w.window_id, 0);
    d->capture_ok(w);
    dialog.stop();
    ASSERT_TRUE(wait_until([&] {
        auto image = d->capture->capture_window(w);
        return !image.ok() && image.error().code == ErrorCode::window_target_not_found;
    }, 5s));

    for (std::int64_t bad : {std::int64_t{0}, std::int64_t{-5}, std::int64_t{1} << 40, std::int64_t{0x1FFFFFFF}}) {
        WindowInfo info;
        info.window_id = bad;
        auto image = d->capture->capture_window(info);
        ASSERT_FALSE(image.ok()) << bad;
        EXPECT_EQ(image.error().code, ErrorCode::window_target_not_found) << bad;
    }
    WindowInfo root;
    root.window_id = d->display->root();
    auto image = d->capture->capture_window(root);
    ASSERT_FALSE(image.ok());
    EXPECT_EQ(image.error().code, ErrorCode::window_target_not_found);
}

// A rectangle of the screen is clipped to it; one that lies off it is refused, also one whose far
// edge lies past what 32 bits hold (its part was once computed in 32 bits).
TEST(X11Capture, ScreenRectanglesAreClippedToTheScreen)
{
    REQUIRE_DISPLAY();
    auto d = Desktop::open();
    ASSERT_TRUE(d);
    const auto& screen = d->display->screen();
    const std::int32_t sw = screen.width_in_pixels, sh = screen.height_in_pixels;
    auto image = d->capture->capture_screen(sw - 30, sh - 20, 100, 100);
    ASSERT_TRUE(image.ok()) << image.error().message;
    EXPECT_EQ(image.value().width, 30);
    EXPECT_EQ(image.value().height, 20);
    constexpr auto MAX = std::numeric_limits<std::int32_t>::max();
    image = d->capture->capture_screen(sw - 10, 0, MAX, 5);
    ASSERT_TRUE(image.ok()) << image.error().message;
    EXPECT_EQ(image.value().width, 10);
    EXPECT_EQ(image.value().height, 5);
    for (auto [x, y, w, h] : {std::array{sw, 0, 10, 10}, std::array{0, 0, 0, 10}, std::array{-50, 0, 50, 10},
                              std::array{MAX, MAX, MAX, MAX}, std::array{-MAX, 0, -MAX, 10}}) {
        image = d->capture->capture_screen(x, y, w, h);
        ASSERT_FALSE(image.ok()) << x << "," << y << " " << w << "x" << h;
        EXPECT_EQ(image.error().code, ErrorCode::invalid_arguments);
    }
}

TEST(X11Capture, RefusesWindowsLargerThanTheLimit)
{
    REQUIRE_DISPLAY();
    auto d = Desktop::open();
    ASSERT_TRUE(d);
    auto* c = d->display->connection();
    const auto& screen = d->display->screen();
    xcb_window_t huge = xcb_generate_id(c);
    std::uint32_t values[] = {screen.black_pixel, 1};
    xcb_create_window(c, XCB_COPY_FROM_PARENT, huge, screen.root, 0, 0, 9000, 40, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
        screen.root_visual, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT, values);
    xcb_map_window(c, huge);
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nullptr));
    WindowInfo info;
    info.window_id = huge;
    auto image = d->capture->capture_window(info);
    ASSERT_FALSE(image.ok());
    EXPECT_EQ(image.error().code, ErrorCode::unsupported);
    EXPECT_NE(image.error().message.find("8192"), std::string::npos);

    // An unmapped window is not shown, so there is nothing to capture.
    xcb_unmap_window(c, huge);
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nullptr));
    image = d->capture->capture_window(info);
    ASSERT_FALSE(image.ok());
    EXPECT_EQ(image.error().code, ErrorCode::window_target_not_found);
    xcb_destroy_window(c, huge);
    xcb_flush(c);
}

// Not a pass/fail speed test: prints capture + PNG time against ImageMagick's import for the record.
TEST(X11Capture, CaptureAndEncodeTimeComparedWithImport)
{
    REQUIRE_DISPLAY();
    auto d = Desktop::open();
    ASSERT_TRUE(d);
    AppProcess app({"gtk3-widget-factory"});
    auto w = d->wait_for_window(app);
    settled_capture(*d, w);

    constexpr int rounds = 10;
    double capture_ms = 0, encode_ms = 0;
    std::size_t png_bytes = 0;
    for (int i = 0; i < rounds; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        auto image = d->capture_ok(w);
        auto t1 = std::chrono::steady_clock::now();
        auto png = nd_core::encode_png(image);
        auto t2 = std::chrono::steady_clock::now();
        ASSERT_FALSE(png.empty());
        png_bytes = png.size();
        capture_ms += std::chrono::duration<double, std::milli>(t1 - t0).count() / rounds;
        encode_ms += std::chrono::duration<double, std::milli>(t2 - t1).count() / rounds;
    }
    // The best of three: ImageMagick's first start in a fresh session is much slower than the rest.
    double import_ms = 1e9;
    int import_status = -1;
    for (int i = 0; i < 3; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        import_status = nd_test::run_command({"sh", "-c", "import -window " + std::to_string(w.window_id) + " png:- > /dev/null"});
        import_ms = std::min(import_ms, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("%dx%d window: capture %.2f ms + encode_png %.1f ms (%zu bytes); import -window: %.0f ms (exit %d)\n",
        w.frame.w, w.frame.h, capture_ms, encode_ms, png_bytes, import_ms, import_status);
    // The speed against import -window is scripts/bench-linux's figure, not this test's.
    EXPECT_GT(png_bytes, 0u);
}

TEST(X11Pixels, ConvertsBothByteOrdersToRgba)
{
    nd_linux::PixelLayout lsb{24, 32, 32, false, 0xff0000, 0x00ff00, 0x0000ff};
    // Two pixels, red then blue, as a little-endian server sends them: B G R X.
    std::vector<std::uint8_t> bgrx = {0x00, 0x00, 0xff, 0x00, 0xff, 0x00, 0x00, 0x7f};
    auto image = nd_linux::to_rgba(bgrx, 2, 1, lsb);
    ASSERT_TRUE(image.ok());
    EXPECT_EQ(image->rgba, (std::vector<std::uint8_t>{0xff, 0, 0, 255, 0, 0, 0xff, 255}));

    auto msb = lsb;
    msb.msb_first = true; // X R G B
    std::vector<std::uint8_t> xrgb = {0x00, 0x10, 0x20, 0x30};
    image = nd_linux::to_rgba(xrgb, 1, 1, msb);
    ASSERT_TRUE(image.ok());
    EXPECT_EQ(image->rgba, (std::vector<std::uint8_t>{0x10, 0x20, 0x30, 255}));

    auto short_buffer = nd_linux::to_rgba(xrgb, 2, 1, lsb);
    ASSERT_FALSE(short_buffer.ok());
    EXPECT_EQ(short_buffer.error().code, ErrorCode::internal_error);
    EXPECT_EQ(lsb.stride(3), 12u);
}

namespace {

// Every pixel of `image` in `rect` has colour 0xRRGGBB.
bool all_pixels(const Image& image, Frame rect, std::uint32_t rgb)
{
    for (int y = rect.y; y < rect.y + rect.h; ++y)
        for (int x = rect.x; x < rect.x + rect.w; ++x) {
            const auto* p = &image.rgba[(static_cast<std::size_t>(y) * image.width + x) * 4];
            if (p[0] != (rgb >> 16 & 0xff) || p[1] != (rgb >> 8 & 0xff) || p[2] != (rgb & 0xff) || p[3] != 255)
                return false;
        }
    return true;
}

// Two windows of known colours, the second half covering the first and the first partly off the
// 640x480 screen; what each capture path makes of them.
void capture_known_windows(nd_test::OwnXvfb& own, bool expect_composite, bool expect_shm)
{
    auto below = own.create_window(500, 100, 200, 100, 0x3366cc); // 60 columns off the screen
    own.create_window(450, 150, 100, 100, 0xcc3300);               // covers below's (0..49, 50..99)
    X11Capture capture(*own.display);
    WindowInfo info;
    info.window_id = below;
    auto image = capture.capture_window(info);
    ASSERT_TRUE(image.ok()) << image.error().text();
    EXPECT_EQ(capture.used_composite(), expect_composite);
    EXPECT_EQ(capture.used_shm(), expect_shm);
    ASSERT_EQ(image->width, 200);
    ASSERT_EQ(image->height, 100);
    EXPECT_TRUE(all_pixels(*image, {50, 0, 90, 100}, 0x3366cc));
    if (expect_composite) {
        // Its own pixels everywhere: under the other window and off the screen too.
        EXPECT_TRUE(all_pixels(*image, {0, 0, 200, 100}, 0x3366cc));
    } else {
        // Without Composite the screen is all there is: off-screen stays black, and what a covered part
        // holds is up to the server (the protocol calls it undefined), so it is not checked.
        EXPECT_TRUE(all_pixels(*image, {0, 0, 50, 50}, 0x3366cc));
        EXPECT_TRUE(all_pixels(*image, {140, 0, 60, 100}, 0x000000));
    }
}

} // namespace

TEST(X11Capture, CompositePathOnAServerWithoutWindowManager)
{
    REQUIRE_DISPLAY();
    auto own = nd_test::OwnXvfb::start({"+extension", "Composite"});
    ASSERT_TRUE(own.display);
    ASSERT_TRUE(own.display->extensions().composite);
    capture_known_windows(own, true, true);
}

TEST(X11Capture, WithoutCompositeReadsTheScreen)
{
    REQUIRE_DISPLAY();
    auto own = nd_test::OwnXvfb::start({"-extension", "Composite"});
    ASSERT_TRUE(own.display);
    ASSERT_FALSE(own.display->extensions().composite);
    capture_known_windows(own, false, true);
}

TEST(X11Capture, WithoutShmReadsOverTheSocket)
{
    REQUIRE_DISPLAY();
    auto own = nd_test::OwnXvfb::start({"+extension", "Composite", "-extension", "MIT-SHM"});
    ASSERT_TRUE(own.display);
    ASSERT_FALSE(own.display->extensions().shm);
    capture_known_windows(own, true, false);
}

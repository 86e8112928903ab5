// The pure helpers of the desk's acting verbs: key combinations, the mapping of a window shot's
// pixels to desk coordinates, the hit test's pieces (window at a point, deepest node at a point),
// crops, and the secure-field blackout shared with the driver (core/engine/secure_blackout.h).

#include "core/engine/secure_blackout.h"
#include "desk/desk_geometry.h"
#include "desk/desk_input.h"
#include "desk/desk_shot.h"
#include "desk/desk_targets.h"

#include <gtest/gtest.h>

namespace {

using nd_core::Element;
using nd_core::Frame;
using nd_core::WindowInfo;

TEST(DeskActHelpers, KeyCombinationsBecomeKeysyms)
{
    auto keys = nd_desk::parse_key_combination("ctrl+shift+t");
    ASSERT_TRUE(keys) << keys.error().message;
    EXPECT_EQ(*keys, (std::vector<std::string>{"Control_L", "Shift_L", "t"}));
    EXPECT_EQ(*nd_desk::parse_key_combination("Return"), std::vector<std::string>{"Return"});
    EXPECT_EQ(*nd_desk::parse_key_combination("alt+F4"), (std::vector<std::string>{"Alt_L", "F4"}));
    EXPECT_EQ(*nd_desk::parse_key_combination("ctrl++"), (std::vector<std::string>{"Control_L", "plus"}));
    EXPECT_EQ(*nd_desk::parse_key_combination("+"), std::vector<std::string>{"plus"});
}

TEST(DeskActHelpers, BadKeyCombinationsNameThePart)
{
    for (const char* bad : {"", "ctrl+", "ctrl+no key", "ctrl+é", "a+b+c+d+e+f+g+h+i"}) {
        auto keys = nd_desk::parse_key_combination(bad);
        ASSERT_FALSE(keys) << bad;
        EXPECT_EQ(keys.error().code, nd_core::ErrorCode::invalid_arguments);
        EXPECT_EQ(keys.error().message.rfind("keys:", 0), 0u) << keys.error().message;
    }
    EXPECT_NE(nd_desk::parse_key_combination("ctrl+no key").error().message.find("\"no key\""), std::string::npos);
}

TEST(DeskActHelpers, KeysThatMakeTextAreTold)
{
    auto makes = [](const char* keys) { return nd_desk::keys_make_text(*nd_desk::parse_key_combination(keys)); };
    EXPECT_TRUE(makes("a"));
    EXPECT_TRUE(makes("shift+a"));
    EXPECT_TRUE(makes("space"));
    EXPECT_TRUE(makes("ctrl+v"));
    EXPECT_TRUE(makes("shift+insert"));
    EXPECT_TRUE(makes("KP_5"));
    EXPECT_FALSE(makes("ctrl+a"));
    EXPECT_FALSE(makes("Return"));
    EXPECT_FALSE(makes("Tab"));
    EXPECT_FALSE(makes("alt+f"));
    EXPECT_FALSE(makes("ctrl+shift+v"));
    EXPECT_FALSE(makes("BackSpace"));
}

TEST(DeskActHelpers, WindowShotPixelsMapByTheFrame)
{
    WindowInfo w;
    w.frame = {100, 50, 400, 300};
    auto p = nd_desk::window_pixel_to_screen(w, 10, 20, "x,y");
    ASSERT_TRUE(p);
    EXPECT_EQ(*p, (nd_core::Point{110, 70}));
    EXPECT_EQ(*nd_desk::window_pixel_to_screen(w, 399, 299, "x,y"), (nd_core::Point{499, 349}));
    for (auto [x, y] : {std::pair{400, 0}, {0, 300}, {-1, 5}, {5, -1}}) {
        auto out = nd_desk::window_pixel_to_screen(w, x, y, "x,y");
        ASSERT_FALSE(out);
        EXPECT_NE(out.error().message.find("400x300"), std::string::npos) << out.error().message;
    }
}

TEST(DeskActHelpers, TheTopmostShownWindowHoldsThePoint)
{
    std::vector<WindowInfo> windows(3);
    windows[0].window_id = 1;
    windows[0].frame = {0, 0, 100, 100};
    windows[0].hidden = true; // minimised: not on the screen
    windows[1].window_id = 2;
    windows[1].frame = {50, 50, 100, 100};
    windows[2].window_id = 3;
    windows[2].frame = {0, 0, 300, 300};
    EXPECT_EQ(nd_desk::window_at(windows, {10, 10})->window_id, 3);
    EXPECT_EQ(nd_desk::window_at(windows, {60, 60})->window_id, 2);
    EXPECT_EQ(nd_desk::window_at(windows, {400, 10}), nullptr);
}

TEST(DeskActHelpers, TheDeepestShowingNodeIsHit)
{
    std::vector<Element> e(4);
    e[0].frame = {0, 0, 200, 200};
    e[0].has_frame = true;
    e[1].parent = 0;
    e[1].depth = 1;
    e[1].frame = {10, 10, 100, 100};
    e[1].has_frame = true;
    e[1].states = nd_core::STATE_SHOWING;
    e[2].parent = 1;
    e[2].depth = 2;
    e[2].frame = {20, 20, 20, 20};
    e[2].has_frame = true;
    e[2].states = nd_core::STATE_SHOWING;
    e[3].parent = 1;
    e[3].depth = 2;
    e[3].frame = {60, 60, 20, 20};
    e[3].has_frame = true; // not showing (a hidden page's node)
    EXPECT_EQ(nd_desk::row_at(e, {25, 25}), 2);
    EXPECT_EQ(nd_desk::row_at(e, {65, 65}), 1);
    EXPECT_EQ(nd_desk::row_at(e, {150, 150}), 0);
    EXPECT_EQ(nd_desk::row_at(e, {500, 5}), -1);
    EXPECT_TRUE(nd_desk::is_within(e, 2, 1));
    EXPECT_TRUE(nd_desk::is_within(e, 2, 2));
    EXPECT_FALSE(nd_desk::is_within(e, 1, 2));
    EXPECT_FALSE(nd_desk::is_within(e, -1, 0));
    EXPECT_EQ(nd_desk::centre_of({10, 20, 31, 41}), (nd_core::Point{25, 40}));
}

nd_core::Image grey(std::int32_t w, std::int32_t h)
{
    nd_core::Image img;
    img.width = w;
    img.height = h;
    img.rgba.assign(static_cast<std::size_t>(w) * h * 4, 200);
    return img;
}

bool black_at(const nd_core::Image& img, std::int32_t x, std::int32_t y)
{
    const auto* p = &img.rgba[(static_cast<std::size_t>(y) * img.width + x) * 4];
    return p[0] == 0 && p[1] == 0 && p[2] == 0;
}

TEST(DeskActHelpers, CropsKeepTheirPixels)
{
    auto img = grey(10, 10);
    img.rgba[(3 * 10 + 4) * 4] = 7;
    auto part = nd_desk::crop(img, Frame{4, 3, 2, 2});
    EXPECT_EQ(part.width, 2);
    EXPECT_EQ(part.height, 2);
    EXPECT_EQ(part.rgba[0], 7);
    EXPECT_EQ(part.rgba[4], 200);
}

TEST(DeskActHelpers, SecureFieldsAreBlackedOutAtTheirPlace)
{
    nd_core::Snapshot snap;
    snap.window.frame = {100, 100, 50, 50};
    snap.elements.resize(2);
    snap.elements[1].role = "password_text";
    snap.elements[1].states = nd_core::STATE_SHOWING;
    snap.elements[1].frame = {110, 120, 10, 5};
    snap.elements[1].has_frame = true;
    ASSERT_TRUE(nd_core::check_secure_fields_known(snap));
    auto img = grey(50, 50);
    nd_core::black_out_secure_fields(img, snap, 100, 100);
    EXPECT_TRUE(black_at(img, 10, 20));
    EXPECT_TRUE(black_at(img, 19, 24));
    EXPECT_FALSE(black_at(img, 20, 20));
    EXPECT_FALSE(black_at(img, 9, 20));
    // A screen picture whose origin is elsewhere: the same field lands elsewhere.
    auto screen = grey(200, 200);
    nd_core::black_out_secure_fields(screen, snap, 0, 0);
    EXPECT_TRUE(black_at(screen, 110, 120));
    EXPECT_FALSE(black_at(screen, 10, 20));
}

TEST(DeskActHelpers, UnknownSecureBoundsRefuseThePicture)
{
    nd_core::Snapshot snap;
    snap.elements.resize(2);
    snap.elements[1].role = "password_text";
    snap.elements[1].states = nd_core::STATE_SHOWING;
    auto refused = nd_core::check_secure_fields_known(snap);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, nd_core::ErrorCode::secure_field_refused);
    snap.elements[1].states = 0; // not showing: not painted, so no bounds are needed
    EXPECT_TRUE(nd_core::check_secure_fields_known(snap));
    snap.budget_truncated = true;
    EXPECT_FALSE(nd_core::check_secure_fields_known(snap));
}

} // namespace

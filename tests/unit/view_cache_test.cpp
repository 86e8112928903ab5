// The renderings of a session's views: found only for the very snapshot object and the same view
// they were made for, a few kept, the oldest forgotten, and a window's old snapshot let go.

#include "core/model/view_cache.h"

#include <gtest/gtest.h>

using namespace nd_core;

namespace {

SnapshotPtr snapshot(std::int64_t window_id, std::string id = "s1")
{
    auto s = std::make_shared<Snapshot>();
    s->id = std::move(id);
    s->window.window_id = window_id;
    s->elements.resize(3);
    return s;
}

RenderingPtr rendering(std::string text)
{
    return std::make_shared<const Rendering>(Rendering{"{\"ok\":true}", std::move(text)});
}

ViewRequest full() { return ViewRequest{}; }

ViewRequest skeleton()
{
    ViewRequest r;
    r.kind = ViewKind::skeleton;
    r.max_elements = SKELETON_DEFAULT_MAX_ELEMENTS;
    r.max_depth = SKELETON_DEFAULT_MAX_DEPTH;
    return r;
}

TEST(ViewCache, FindsTheRenderingOfTheSameSnapshotObjectAndView)
{
    ViewCache cache;
    auto snap = snapshot(7);
    cache.put({snap, full(), ""}, rendering("full"));
    auto hit = cache.find({snap, full(), ""});
    ASSERT_NE(hit, nullptr);
    EXPECT_EQ(hit->text, "full");
    EXPECT_EQ(cache.hits(), 1u);

    // An equal snapshot that is another object is another read: not found.
    auto copy = std::make_shared<const Snapshot>(*snap);
    EXPECT_EQ(cache.find({copy, full(), ""}), nullptr);
    EXPECT_EQ(cache.find({nullptr, full(), ""}), nullptr);
    EXPECT_EQ(cache.hits(), 1u);
}

TEST(ViewCache, EveryPartOfTheViewIsPartOfTheKey)
{
    ViewCache cache;
    auto snap = snapshot(7);
    cache.put({snap, full(), ""}, rendering("full"));
    EXPECT_EQ(cache.find({snap, skeleton(), ""}), nullptr);
    auto rooted = full();
    rooted.root = 2;
    EXPECT_EQ(cache.find({snap, rooted, ""}), nullptr);
    auto fewer = full();
    fewer.max_elements = 10;
    EXPECT_EQ(cache.find({snap, fewer, ""}), nullptr);
    auto shallow = full();
    shallow.max_depth = 1;
    EXPECT_EQ(cache.find({snap, shallow, ""}), nullptr);
    // The answer repeats the root token as the caller spelled it.
    cache.put({snap, rooted, "s1:2"}, rendering("rooted"));
    EXPECT_EQ(cache.find({snap, rooted, "s1:02"}), nullptr);
    ASSERT_NE(cache.find({snap, rooted, "s1:2"}), nullptr);
    EXPECT_EQ(cache.find({snap, rooted, "s1:2"})->text, "rooted");
    // Both views of the snapshot are kept.
    ASSERT_NE(cache.find({snap, full(), ""}), nullptr);
    EXPECT_EQ(cache.find({snap, full(), ""})->text, "full");
}

TEST(ViewCache, PuttingTheSameViewAgainReplacesIt)
{
    ViewCache cache;
    auto snap = snapshot(7);
    cache.put({snap, full(), ""}, rendering("first"));
    cache.put({snap, full(), ""}, rendering("second"));
    EXPECT_EQ(cache.size(), 1u);
    EXPECT_EQ(cache.find({snap, full(), ""})->text, "second");
}

TEST(ViewCache, KeepsAFewAndForgetsTheOldest)
{
    ViewCache cache;
    std::vector<SnapshotPtr> snaps;
    for (std::int64_t w = 1; w <= static_cast<std::int64_t>(ViewCache::CAPACITY) + 1; ++w) {
        snaps.push_back(snapshot(w, "s" + std::to_string(w)));
        cache.put({snaps.back(), full(), ""}, rendering(std::to_string(w)));
    }
    EXPECT_EQ(cache.size(), ViewCache::CAPACITY);
    EXPECT_EQ(cache.find({snaps.front(), full(), ""}), nullptr);
    for (std::size_t i = 1; i < snaps.size(); ++i)
        EXPECT_NE(cache.find({snaps[i], full(), ""}), nullptr) << i;
}

TEST(ViewCache, AWindowsNewSnapshotLetsItsOldOnesGo)
{
    ViewCache cache;
    auto old_snap = snapshot(7, "s1");
    cache.put({old_snap, full(), ""}, rendering("old full"));
    cache.put({old_snap, skeleton(), ""}, rendering("old skeleton"));
    auto other = snapshot(8, "s2");
    cache.put({other, full(), ""}, rendering("other"));
    std::weak_ptr<const Snapshot> gone = old_snap;
    auto new_snap = snapshot(7, "s3");
    cache.put({new_snap, full(), ""}, rendering("new"));
    EXPECT_EQ(cache.size(), 2u);
    EXPECT_EQ(cache.find({old_snap, skeleton(), ""}), nullptr);
    old_snap.reset();
    EXPECT_TRUE(gone.expired()) << "the cache still holds a snapshot no read will answer with again";
    EXPECT_NE(cache.find({other, full(), ""}), nullptr);
}

} // namespace

namespace {

TEST(ViewCache, PriorIsTheSameViewOfTheWindowsSnapshotBefore)
{
    ViewCache cache;
    auto before = snapshot(7, "s1");
    cache.put({before, full(), ""}, rendering("before"));
    cache.put({before, skeleton(), ""}, rendering("before skeleton"));
    cache.put({snapshot(8, "s1"), full(), ""}, rendering("another window"));

    // Facts changed: a new snapshot object (with the same id, or a new one for a structural change).
    auto after = std::make_shared<Snapshot>(*before);
    after->elements[1].name = "changed";
    const SnapshotPtr now = after;
    auto p = cache.prior({now, full(), ""});
    ASSERT_NE(p.rendering, nullptr);
    EXPECT_EQ(p.snapshot, before);
    EXPECT_EQ(p.rendering->text, "before");
    EXPECT_EQ(cache.prior({now, skeleton(), ""}).rendering->text, "before skeleton");
    EXPECT_EQ(cache.hits(), 0u) << "a prior is not an answer";

    EXPECT_EQ(cache.prior({snapshot(7, "s2"), full(), ""}).rendering->text, "before");

    // Not a prior: the very same object (that is a hit), another view, another window.
    EXPECT_EQ(cache.prior({before, full(), ""}).rendering, nullptr);
    auto rooted = full();
    rooted.root = 1;
    EXPECT_EQ(cache.prior({now, rooted, "s1:1"}).rendering, nullptr);
    EXPECT_EQ(cache.prior({snapshot(9, "s1"), full(), ""}).rendering, nullptr);
    EXPECT_EQ(cache.prior({nullptr, full(), ""}).rendering, nullptr);
}

} // namespace

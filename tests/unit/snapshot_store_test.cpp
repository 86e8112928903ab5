// The rule that keeps tokens honest (docs/tokens.md): an unchanged structure keeps its snapshot id,
// a structural change mints a new one and supersedes the old, invalidate_all supersedes every id,
// and superseded ids are told apart from ids never issued.

#include "core/engine/snapshot_store.h"

#include "tree_fixture.h"

#include <gtest/gtest.h>

#include <set>

using namespace nd_core;
using nd_test::TreeBuilder;

namespace {

WindowInfo window(std::int64_t id)
{
    WindowInfo w;
    w.window_id = id;
    w.pid = 100;
    w.app = "App";
    w.title = "Window " + std::to_string(id);
    return w;
}

TreeBuilder tree()
{
    TreeBuilder t;
    t.add(-1, "frame", "W");
    t.add(0, "push_button", "OK");
    t.add(0, "text", "Field");
    return t;
}

SnapshotStore::Lookup lookup(const SnapshotStore& store, const std::string& id)
{
    SnapshotPtr out;
    return store.find(id, out);
}

} // namespace

TEST(SnapshotStore, SameStructureKeepsTheId)
{
    SnapshotStore store;
    auto first = store.commit(window(1), tree().raw(), 10);
    ASSERT_TRUE(first);
    EXPECT_FALSE(first->id.empty());

    auto changed_content = tree();
    changed_content.at(1).name = "Cancel";
    changed_content.at(2).value = "typed";
    changed_content.at(2).states |= STATE_FOCUSED;
    auto second = store.commit(window(1), changed_content.raw(), 20);
    EXPECT_EQ(second->id, first->id);
    EXPECT_EQ(second->elements[1].name, "Cancel");
    EXPECT_EQ(second->read_at_ms, 20);
    EXPECT_EQ(store.latest(1), second);

    SnapshotPtr found;
    EXPECT_EQ(store.find(first->id, found), SnapshotStore::Lookup::current);
    EXPECT_EQ(found, second); // the latest read, not the one the id first came from
}

TEST(SnapshotStore, CommitFinishesTheTree)
{
    SnapshotStore store;
    auto raw = tree().raw();
    raw.truncated = true;
    auto snap = store.commit(window(1), raw, 0);
    EXPECT_EQ(snap->elements[0].child_count, 2);
    EXPECT_EQ(snap->elements[0].descendant_count, 2);
    EXPECT_EQ(snap->elements[2].depth, 1);
    EXPECT_TRUE(snap->budget_truncated);
    EXPECT_EQ(snap->window.window_id, 1);
    auto elements = tree().elements();
    EXPECT_EQ(snap->structure_hash, finish_tree(elements));
}

TEST(SnapshotStore, StructuralChangeMintsANewIdAndSupersedesTheOld)
{
    SnapshotStore store;
    auto first = store.commit(window(1), tree().raw(), 0);
    auto grown = tree();
    grown.add(0, "label", "new");
    auto second = store.commit(window(1), grown.raw(), 1);
    EXPECT_NE(second->id, first->id);
    EXPECT_EQ(lookup(store, first->id), SnapshotStore::Lookup::superseded);
    EXPECT_EQ(lookup(store, second->id), SnapshotStore::Lookup::current);

    // Going back to the old structure does not revive the old id.
    auto third = store.commit(window(1), tree().raw(), 2);
    EXPECT_NE(third->id, first->id);
    EXPECT_NE(third->id, second->id);
    EXPECT_EQ(lookup(store, first->id), SnapshotStore::Lookup::superseded);
    EXPECT_EQ(lookup(store, second->id), SnapshotStore::Lookup::superseded);
}

TEST(SnapshotStore, UnknownIds)
{
    SnapshotStore store;
    EXPECT_EQ(lookup(store, "s1"), SnapshotStore::Lookup::unknown);
    auto snap = store.commit(window(1), tree().raw(), 0);
    EXPECT_EQ(lookup(store, "nope"), SnapshotStore::Lookup::unknown);
    EXPECT_EQ(lookup(store, ""), SnapshotStore::Lookup::unknown);
    EXPECT_EQ(lookup(store, snap->id + "0"), SnapshotStore::Lookup::unknown);
    EXPECT_EQ(store.latest(2), nullptr);

    // Another store's ids are unknown here.
    SnapshotStore other;
    auto foreign = other.commit(window(1), tree().raw(), 0);
    EXPECT_NE(foreign->id, snap->id);
    EXPECT_EQ(lookup(store, foreign->id), SnapshotStore::Lookup::unknown);
}

TEST(SnapshotStore, WindowsHaveTheirOwnIds)
{
    SnapshotStore store;
    auto a = store.commit(window(1), tree().raw(), 0);
    auto b = store.commit(window(2), tree().raw(), 0);
    EXPECT_NE(a->id, b->id);
    auto grown = tree();
    grown.add(0, "label", "new");
    auto b2 = store.commit(window(2), grown.raw(), 1);
    EXPECT_NE(b2->id, b->id);
    EXPECT_EQ(lookup(store, a->id), SnapshotStore::Lookup::current);
    EXPECT_EQ(store.commit(window(1), tree().raw(), 2)->id, a->id);
}

TEST(SnapshotStore, InvalidateAllSupersedesAndTheNextReadMintsANewId)
{
    SnapshotStore store;
    auto a = store.commit(window(1), tree().raw(), 0);
    auto b = store.commit(window(2), tree().raw(), 0);
    store.invalidate_all();
    EXPECT_EQ(lookup(store, a->id), SnapshotStore::Lookup::superseded);
    EXPECT_EQ(lookup(store, b->id), SnapshotStore::Lookup::superseded);

    auto a2 = store.commit(window(1), tree().raw(), 1);
    EXPECT_NE(a2->id, a->id);
    EXPECT_EQ(lookup(store, a2->id), SnapshotStore::Lookup::current);
    // Row numbers of the unchanged window stay the same.
    ASSERT_EQ(a2->elements.size(), a->elements.size());
    for (std::size_t i = 0; i < a->elements.size(); ++i)
        EXPECT_EQ(a2->elements[i].key, a->elements[i].key);
    EXPECT_EQ(a2->structure_hash, a->structure_hash);

    // Only the first read after the invalidation mints: the next one keeps the fresh id.
    EXPECT_EQ(store.commit(window(1), tree().raw(), 2)->id, a2->id);
    // The other window mints on its own next read.
    auto b2 = store.commit(window(2), tree().raw(), 3);
    EXPECT_NE(b2->id, b->id);
    EXPECT_EQ(lookup(store, b2->id), SnapshotStore::Lookup::current);
}

TEST(SnapshotStore, InvalidateAllOnAnEmptyStore)
{
    SnapshotStore store;
    store.invalidate_all();
    auto a = store.commit(window(1), tree().raw(), 0);
    EXPECT_EQ(lookup(store, a->id), SnapshotStore::Lookup::current);
    EXPECT_EQ(store.commit(window(1), tree().raw(), 1)->id, a->id);
}

TEST(SnapshotStore, ForgetWindow)
{
    SnapshotStore store;
    auto a = store.commit(window(1), tree().raw(), 0);
    auto b = store.commit(window(2), tree().raw(), 0);
    store.forget_window(1);
    EXPECT_EQ(store.latest(1), nullptr);
    EXPECT_EQ(lookup(store, a->id), SnapshotStore::Lookup::superseded);
    EXPECT_EQ(lookup(store, b->id), SnapshotStore::Lookup::current);
    // A window that reappears gets a fresh id.
    auto again = store.commit(window(1), tree().raw(), 1);
    EXPECT_NE(again->id, a->id);
    // Forgetting an unknown window is harmless.
    store.forget_window(42);
    EXPECT_EQ(lookup(store, again->id), SnapshotStore::Lookup::current);
}

TEST(SnapshotStore, SupersededIdsAreRememberedWithinABound)
{
    SnapshotStore store;
    auto first = store.commit(window(1), tree().raw(), 0);
    std::string previous = first->id;
    std::string recent;
    // Alternate two structures so that every commit supersedes the one before.
    for (int i = 0; i < 5000; ++i) {
        auto t = tree();
        if (i % 2 == 0)
            t.add(0, "label", "x");
        auto snap = store.commit(window(1), t.raw(), i);
        ASSERT_NE(snap->id, previous);
        previous = snap->id;
        if (i == 4990)
            recent = snap->id;
    }
    EXPECT_EQ(lookup(store, previous), SnapshotStore::Lookup::current);
    // The oldest ids fall out of the bounded memory; recent ones are still known as superseded.
    EXPECT_EQ(lookup(store, first->id), SnapshotStore::Lookup::unknown);
    EXPECT_EQ(lookup(store, recent), SnapshotStore::Lookup::superseded);
}

TEST(SnapshotIds, AreUniqueInTheProcess)
{
    std::set<std::string> seen;
    for (int i = 0; i < 1000; ++i) {
        auto id = next_snapshot_id();
        ParsedToken parsed;
        EXPECT_TRUE(parse_token(format_token(id, 3), parsed)) << id; // an id always makes a valid token
        EXPECT_TRUE(seen.insert(id).second) << id;
    }
}

// core/engine/window_reads.h: a read of an unchanged window answers with the snapshot already made
// of it. The reader is told which version of the tree the session holds, and when it answers
// `unchanged` the very same snapshot comes back: no copy, the same id. The held version is not
// offered when the session must take a fresh snapshot (invalidate_all) or the window's facts
// changed, and an `unchanged` for a version the session does not hold is an internal error.

#include "core/backend/backend.h"
#include "core/engine/snapshot_store.h"
#include "core/engine/window_reads.h"
#include "empty_backend.h"

#include <gtest/gtest.h>

namespace {

using namespace std::chrono_literals;

// A reader that keeps versions: `version` is its tree's; it answers `unchanged` to a holder of it.
struct VersionedTrees : nd_core::TreeReader {
    std::uint64_t version = 7;
    std::uint64_t last_held = 0;
    bool lie = false; // answers unchanged whatever the caller holds
    nd_core::Result<nd_core::RawTree> read_window(const nd_core::WindowInfo&, const nd_core::ReadLimits& limits) override
    {
        last_held = limits.held_version;
        nd_core::RawTree tree;
        tree.version = version;
        if (lie || (limits.held_version != 0 && limits.held_version == version)) {
            tree.unchanged = true;
            return tree;
        }
        nd_core::Element root;
        root.role = "frame";
        root.name = "Window";
        root.key = "root";
        nd_core::Element button;
        button.role = "push_button";
        button.name = "OK";
        button.key = "ok";
        button.parent = 0;
        tree.elements = {root, button};
        return tree;
    }
};

struct OneReaderBackend : nd_test::EmptyBackend {
    VersionedTrees trees_;
    nd_core::TreeReader* trees() override { return &trees_; }
};

class WindowReads : public ::testing::Test {
protected:
    OneReaderBackend backend;
    nd_core::SnapshotStore store;
    nd_core::WindowInfo window{.window_id = 41, .pid = 9, .app = "app", .title = "Window"};

    nd_core::SnapshotPtr read()
    {
        auto snap = nd_core::read_into(backend, store, window, 1s, 0);
        EXPECT_TRUE(snap) << snap.error().message;
        return snap ? *snap : nullptr;
    }
};

TEST_F(WindowReads, AnUnchangedWindowIsAnsweredWithTheSnapshotAlreadyMade)
{
    const auto first = read();
    ASSERT_TRUE(first);
    EXPECT_EQ(backend.trees_.last_held, 0u);
    EXPECT_EQ(first->backend_version, 7u);
    const auto second = read();
    EXPECT_EQ(backend.trees_.last_held, 7u);
    EXPECT_EQ(second.get(), first.get()) << "the same snapshot, not a copy";

    // A new version is a new snapshot; its structure is the same, so is its id.
    backend.trees_.version = 8;
    const auto third = read();
    ASSERT_TRUE(third);
    EXPECT_NE(third.get(), first.get());
    EXPECT_EQ(third->backend_version, 8u);
    EXPECT_EQ(third->id, first->id);
    EXPECT_EQ(third->size(), 2);
}

TEST_F(WindowReads, NoVersionIsOfferedWhenAFreshSnapshotIsDueOrTheWindowChanged)
{
    const auto first = read();
    ASSERT_TRUE(first);
    store.invalidate_all();
    const auto fresh = read();
    EXPECT_EQ(backend.trees_.last_held, 0u);
    ASSERT_TRUE(fresh);
    EXPECT_NE(fresh->id, first->id) << "invalidate_all asks for a new structure id";

    window.title = "Window - renamed";
    const auto renamed = read();
    EXPECT_EQ(backend.trees_.last_held, 0u);
    ASSERT_TRUE(renamed);
    EXPECT_EQ(renamed->window.title, "Window - renamed");
    read();
    EXPECT_EQ(backend.trees_.last_held, 7u);
}

TEST_F(WindowReads, UnchangedForAVersionNotHeldIsAnInternalError)
{
    backend.trees_.lie = true;
    auto snap = nd_core::read_into(backend, store, window, 1s, 0);
    ASSERT_FALSE(snap);
    EXPECT_EQ(snap.error().code, nd_core::ErrorCode::internal_error);
}

} // namespace

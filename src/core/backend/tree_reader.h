#pragma once

// Reads one window's accessibility tree, whole, into values. The backend fills role, name, value
// (never for secure fields), states, actions, frame where cheap, parent links and key, in preorder;
// the engine calls finish_tree(). Every read has a deadline: a hung app yields app_not_responding
// or timed_out, never a hung driver.

#include "core/model/element.h"
#include "core/result.h"

#include <chrono>
#include <vector>

namespace nd_core {

// Frames cost a call per element on some toolkits, and most reads never show them (the engine's
// own reads before and after acts; rows a view leaves out). With `deferred` a backend may leave
// frames out, except those of the root and of secure fields (capture blacks those out), and fill
// the rows a view returns later through read_frames().
enum class FrameMode : std::uint8_t { all, deferred };

struct ReadLimits {
    std::int32_t max_elements = 5000;
    std::int32_t max_depth = 200;
    std::chrono::milliseconds deadline{3000};
    FrameMode frames = FrameMode::all;
    // The version of this window's tree the caller holds from an earlier answer (RawTree::version),
    // 0 when none: a reader that still has that very tree may answer `unchanged` instead of it.
    std::uint64_t held_version = 0;
};

struct RawTree {
    std::vector<Element> elements; // preorder, parent < own index, [0] the window's root
    bool truncated = false;        // cut by the limits
    bool frames_deferred = false;  // frames were left out (FrameMode::deferred) and may be read later
    // The reader's version of this tree: one version is one tree, element for element; 0 when the
    // reader keeps no versions.
    std::uint64_t version = 0;
    // The tree is still the one of ReadLimits::held_version: `elements` is left empty.
    bool unchanged = false;
};

class TreeReader {
public:
    virtual ~TreeReader() = default;
    virtual Result<RawTree> read_window(const WindowInfo&, const ReadLimits&) = 0;

    // Fills the frames of elements[i], i in `indices`, that have none, in one batch under one
    // deadline: `elements` as a deferred read_window() returned them (keys intact). An element that
    // is gone or has no place on screen keeps has_frame false; only the read's own failure (a hung
    // app) is an error. With `action_names` it also names, in the same batch, the actions a bulk read
    // left unnamed (Chromium names them only one by one, at one call each), for views that show
    // them; a name that cannot be read stays "". Readers that always fill both keep this default.
    virtual Result<void> read_frames(const WindowInfo&, std::vector<Element>& /*elements*/,
                                     const std::vector<std::int32_t>& /*indices*/, std::chrono::milliseconds /*deadline*/,
                                     bool /*action_names*/ = false)
    {
        return {};
    }

    // A round trip to the window's app: once it answers, what the app was sent before (input the
    // X server delivered) has reached its loop, so the effects a caller then watches for have
    // begun. Readers whose apps have no loop of their own keep this default.
    virtual Result<void> sync_app(const WindowInfo&, std::chrono::milliseconds /*deadline*/) { return {}; }

    // A session was granted: a reader that keeps trees current from its apps' events may begin to
    // listen now, so that apps have learnt of it by the first read and a second read can be warm.
    // Called after consent only (events name what changes in the apps). Best effort: no error.
    virtual void prepare() {}
};

} // namespace nd_core

#pragma once

// Whether the screen holds still (desk_still, docs/desk-verbs-act.md): pure pixels in, verdicts
// out, no platform and no clock, so tests feed it frames and the verb feeds it captures.
//
// The screen is watched as a grid of 8-pixel blocks of a small capture (the long edge scaled to
// 320 px). Between two frames a block changed when one of its pixels moved by more than 24 in a
// channel. A change counts towards "not still" only when the block is not volatile and shows new
// contents: every block remembers the distinct contents it showed during the wait; one that comes
// back to a content it showed before (a blinking caret) does not count, and a block that went
// through three or more contents (a clock, a spinner, a video) turns volatile and counts no more.

#include "core/backend/capture.h"

#include <cstdint>
#include <vector>

namespace nd_desk {

inline constexpr std::int32_t STILL_LONG_EDGE = 320;
inline constexpr std::int32_t STILL_BLOCK = 8;
inline constexpr std::int32_t STILL_THRESHOLD = 24;
// Contents a block may show before it counts as volatile.
inline constexpr std::int32_t STILL_VOLATILE_CONTENTS = 3;

// The image scaled down (area averaging, core/encode/resample.h) so that its long edge is at most
// `long_edge`; an image already that small is returned as it is.
nd_core::Image scale_to_long_edge(const nd_core::Image&, std::int32_t long_edge = STILL_LONG_EDGE);

class StillDetector {
public:
    struct Step {
        std::int32_t changed_blocks = 0; // blocks whose change counts in this frame
        std::int32_t volatile_blocks = 0; // blocks volatile so far
    };

    // The first frame sets the baseline (nothing counts); a frame of another size than the last
    // starts again from it (a resolution change), which counts as a change of every block.
    Step feed(const nd_core::Image& frame);

    bool changed() const { return m_changed; }
    std::int32_t volatile_blocks() const { return m_volatile; }
    std::int32_t blocks() const { return static_cast<std::int32_t>(m_blocks.size()); }

private:
    struct Block {
        // The distinct contents seen, each STILL_BLOCK * STILL_BLOCK RGBA pixels (edge blocks padded
        // with zeros); [current] is what the block shows now.
        std::vector<std::vector<std::uint8_t>> contents;
        std::size_t current = 0;
        bool is_volatile = false;
    };
    void reset(const nd_core::Image&);
    void read_block(const nd_core::Image&, std::int32_t bx, std::int32_t by, std::vector<std::uint8_t>& out) const;

    std::int32_t m_width = 0, m_height = 0, m_cols = 0, m_rows = 0;
    std::vector<Block> m_blocks;
    std::vector<std::uint8_t> m_scratch;
    bool m_changed = false;
    std::int32_t m_volatile = 0;
};

// Whether two block contents differ: some channel of some pixel moved by more than STILL_THRESHOLD.
bool block_differs(const std::uint8_t* a, const std::uint8_t* b, std::size_t bytes);

} // namespace nd_desk

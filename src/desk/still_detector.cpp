#include "desk/still_detector.h"

#include "core/encode/resample.h"

#include <algorithm>
#include <cstdlib>

namespace nd_desk {

namespace {

constexpr std::size_t BLOCK_BYTES = static_cast<std::size_t>(STILL_BLOCK) * STILL_BLOCK * 4;

} // namespace

nd_core::Image scale_to_long_edge(const nd_core::Image& src, std::int32_t long_edge)
{
    std::int32_t width = 0, height = 0;
    nd_core::fit_long_edge(src.width, src.height, long_edge, width, height);
    return nd_core::resize_area(src, width, height);
}

bool block_differs(const std::uint8_t* a, const std::uint8_t* b, std::size_t bytes)
{
    for (std::size_t i = 0; i < bytes; ++i)
        if (std::abs(static_cast<int>(a[i]) - static_cast<int>(b[i])) > STILL_THRESHOLD)
            return true;
    return false;
}

void StillDetector::read_block(const nd_core::Image& frame, std::int32_t bx, std::int32_t by, std::vector<std::uint8_t>& out) const
{
    out.assign(BLOCK_BYTES, 0);
    const std::int32_t x = bx * STILL_BLOCK, y = by * STILL_BLOCK;
    const std::int32_t w = std::min(STILL_BLOCK, m_width - x), h = std::min(STILL_BLOCK, m_height - y);
    for (std::int32_t row = 0; row < h; ++row)
        std::copy_n(frame.rgba.data() + (static_cast<std::size_t>(y + row) * m_width + x) * 4, static_cast<std::size_t>(w) * 4,
            out.data() + static_cast<std::size_t>(row) * STILL_BLOCK * 4);
}

void StillDetector::reset(const nd_core::Image& frame)
{
    m_width = frame.width;
    m_height = frame.height;
    m_cols = (m_width + STILL_BLOCK - 1) / STILL_BLOCK;
    m_rows = (m_height + STILL_BLOCK - 1) / STILL_BLOCK;
    m_blocks.assign(static_cast<std::size_t>(m_cols) * m_rows, Block{});
    m_volatile = 0;
    for (std::int32_t by = 0; by < m_rows; ++by)
        for (std::int32_t bx = 0; bx < m_cols; ++bx) {
            auto& block = m_blocks[static_cast<std::size_t>(by) * m_cols + bx];
            block.contents.emplace_back();
            read_block(frame, bx, by, block.contents.back());
        }
}

StillDetector::Step StillDetector::feed(const nd_core::Image& frame)
{
    Step step;
    const bool valid = frame.width > 0 && frame.height > 0 &&
                       frame.rgba.size() == static_cast<std::size_t>(frame.width) * frame.height * 4;
    if (!valid)
        return step;
    if (m_blocks.empty() || frame.width != m_width || frame.height != m_height) {
        const bool first = m_blocks.empty();
        reset(frame);
        if (!first) {
            step.changed_blocks = blocks();
            m_changed = true;
        }
        return step;
    }
    for (std::int32_t by = 0; by < m_rows; ++by)
        for (std::int32_t bx = 0; bx < m_cols; ++bx) {
            auto& block = m_blocks[static_cast<std::size_t>(by) * m_cols + bx];
            if (block.is_volatile)
                continue;
            read_block(frame, bx, by, m_scratch);
            if (!block_differs(block.contents[block.current].data(), m_scratch.data(), BLOCK_BYTES))
                continue;
            // Back to a content it showed before (a caret blinking): no news.
            bool seen = false;
            for (std::size_t i = 0; i < block.contents.size() && !seen; ++i)
                if (i != block.current && !block_differs(block.contents[i].data(), m_scratch.data(), BLOCK_BYTES)) {
                    block.current = i;
                    seen = true;
                }
            if (seen)
                continue;
            block.contents.push_back(m_scratch);
            block.current = block.contents.size() - 1;
            if (static_cast<std::int32_t>(block.contents.size()) >= STILL_VOLATILE_CONTENTS) {
                // A third content: something that keeps changing lives here. It stops counting and
                // is never compared again, so its memory is dropped.
                block.is_volatile = true;
                block.contents.clear();
                block.current = 0;
                ++m_volatile;
                continue;
            }
            ++step.changed_blocks;
        }
    if (step.changed_blocks > 0)
        m_changed = true;
    step.volatile_blocks = m_volatile;
    return step;
}

} // namespace nd_desk

#include "desk/still_detector.h"

#include <algorithm>
#include <cstdlib>

namespace nd_desk {

namespace {

constexpr std::size_t BLOCK_BYTES = static_cast<std::size_t>(STILL_BLOCK) * STILL_BLOCK * 4;

} // namespace

nd_core::Image scale_to_long_edge(const nd_core::Image& src, std::int32_t long_edge)
{
    const std::int32_t longest = std::max(src.width, src.height);
    if (longest <= long_edge || long_edge <= 0 || src.width <= 0 || src.height <= 0)
        return src;
    nd_core::Image out;
    out.width = std::max<std::int32_t>(1, static_cast<std::int32_t>(static_cast<std::int64_t>(src.width) * long_edge / longest));
    out.height = std::max<std::int32_t>(1, static_cast<std::int32_t>(static_cast<std::int64_t>(src.height) * long_edge / longest));
    out.rgba.assign(static_cast<std::size_t>(out.width) * out.height * 4, 0);
    // Each target pixel averages the source box it covers; the boxes tile the source exactly.
    std::vector<std::int32_t> x0(static_cast<std::size_t>(out.width) + 1);
    for (std::int32_t x = 0; x <= out.width; ++x)
        x0[static_cast<std::size_t>(x)] = static_cast<std::int32_t>(static_cast<std::int64_t>(x) * src.width / out.width);
    std::vector<std::uint32_t> sums(static_cast<std::size_t>(out.width) * 4);
    for (std::int32_t ty = 0; ty < out.height; ++ty) {
        const std::int32_t y_begin = static_cast<std::int32_t>(static_cast<std::int64_t>(ty) * src.height / out.height);
        const std::int32_t y_end = static_cast<std::int32_t>(static_cast<std::int64_t>(ty + 1) * src.height / out.height);
        std::fill(sums.begin(), sums.end(), 0u);
        for (std::int32_t sy = y_begin; sy < y_end; ++sy) {
            const std::uint8_t* row = src.rgba.data() + static_cast<std::size_t>(sy) * src.width * 4;
            for (std::int32_t tx = 0; tx < out.width; ++tx) {
                std::uint32_t* s = sums.data() + static_cast<std::size_t>(tx) * 4;
                for (std::int32_t sx = x0[static_cast<std::size_t>(tx)]; sx < x0[static_cast<std::size_t>(tx) + 1]; ++sx) {
                    const std::uint8_t* p = row + static_cast<std::size_t>(sx) * 4;
                    s[0] += p[0];
                    s[1] += p[1];
                    s[2] += p[2];
                    s[3] += p[3];
                }
            }
        }
        std::uint8_t* dst = out.rgba.data() + static_cast<std::size_t>(ty) * out.width * 4;
        for (std::int32_t tx = 0; tx < out.width; ++tx) {
            const std::uint32_t n = static_cast<std::uint32_t>(
                (x0[static_cast<std::size_t>(tx) + 1] - x0[static_cast<std::size_t>(tx)]) * (y_end - y_begin));
            for (int c = 0; c < 4; ++c)
                dst[tx * 4 + c] = static_cast<std::uint8_t>(n ? sums[static_cast<std::size_t>(tx) * 4 + c] / n : 0);
        }
    }
    return out;
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

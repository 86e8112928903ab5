#pragma once

// TreeReader and Capture of the mock desktop: a window's nodes as preorder Elements, and a
// deterministic picture of them (one filled rectangle per element with a frame, coloured by role).

#include "backend/mock/desktop_state.h"
#include "core/backend/capture.h"
#include "core/backend/tree_reader.h"

namespace nd_mock {

class MockTreeReader final : public nd_core::TreeReader {
public:
    explicit MockTreeReader(DesktopState& state) : m_state(state) {}
    nd_core::Result<nd_core::RawTree> read_window(const nd_core::WindowInfo&, const nd_core::ReadLimits&) override;
    nd_core::Result<void> read_frames(const nd_core::WindowInfo&, std::vector<nd_core::Element>&,
                                      const std::vector<std::int32_t>& indices, std::chrono::milliseconds deadline,
                                      bool action_names = false) override;
    // How many read_frames() batches ran (tests check that views read frames once, and only theirs).
    int frame_reads() const { return m_frame_reads; }
    void prepare() override { ++m_prepared; }
    // How many times a granted session told the reader to prepare (tests: never before consent).
    int prepared() const { return m_prepared; }

private:
    DesktopState& m_state;
    int m_frame_reads = 0;
    int m_prepared = 0;
};

class MockCapture final : public nd_core::Capture {
public:
    explicit MockCapture(DesktopState& state) : m_state(state) {}
    nd_core::Result<nd_core::Image> capture_window(const nd_core::WindowInfo&) override;

private:
    DesktopState& m_state;
};

// The element a node shows the engine: its value blanked when secure, the secret never copied.
nd_core::Element to_element(const Node&);

} // namespace nd_mock

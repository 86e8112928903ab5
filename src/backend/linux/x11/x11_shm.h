#pragma once

// A System V shared memory segment attached to the X server (MIT-SHM), so an image comes back
// through memory instead of the socket. The segment is marked for removal as soon as the server
// has attached it: it cannot outlive this process and the server, even after a crash.

#include "backend/linux/x11/x11_display.h"

#include <xcb/shm.h>

#include <cstddef>
#include <cstdint>

namespace nd_linux {

class ShmSegment {
public:
    explicit ShmSegment(X11Display& display) : m_display(display) {}
    ~ShmSegment() { release(); }
    ShmSegment(const ShmSegment&) = delete;
    ShmSegment& operator=(const ShmSegment&) = delete;

    // Makes the segment at least `bytes` large (reusing it when it already is). Errors: unsupported
    // when the server cannot attach our memory (a remote display, another IPC namespace), timed_out,
    // backend_unavailable.
    nd_core::Result<void> reserve(std::size_t bytes);
    void release();

    xcb_shm_seg_t id() const { return m_seg; }
    const std::uint8_t* data() const { return m_data; }
    std::size_t size() const { return m_size; }

private:
    X11Display& m_display;
    xcb_shm_seg_t m_seg = 0;
    std::uint8_t* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace nd_linux

#include "backend/linux/x11/x11_shm.h"

#include <sys/ipc.h>
#include <sys/shm.h>

#include <cerrno>
#include <cstring>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<void> ShmSegment::reserve(std::size_t bytes)
{
    if (m_data && m_size >= bytes)
        return {};
    release();
    // Rounded up to whole 1 MiB steps so that a window growing a little does not cost a new segment.
    const std::size_t size = (bytes + (1u << 20) - 1) & ~std::size_t((1u << 20) - 1);
    int id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
    if (id < 0)
        return make_error(ErrorCode::unsupported, std::string("shmget failed: ") + std::strerror(errno));
    void* addr = shmat(id, nullptr, 0);
    if (addr == reinterpret_cast<void*>(-1)) {
        int saved = errno;
        shmctl(id, IPC_RMID, nullptr);
        return make_error(ErrorCode::unsupported, std::string("shmat failed: ") + std::strerror(saved));
    }

    auto* c = m_display.connection();
    xcb_shm_seg_t seg = xcb_generate_id(c);
    auto attached = m_display.check(xcb_shm_attach_checked(c, seg, static_cast<std::uint32_t>(id), 0),
        deadline_after(X11_BATCH_TIMEOUT));
    // Whether or not the server attached it, nobody else needs to find the segment by id any more.
    shmctl(id, IPC_RMID, nullptr);
    if (!attached.ok() || attached.value() != 0) {
        shmdt(addr);
        if (!attached.ok())
            return std::move(attached).error();
        return make_error(ErrorCode::unsupported,
            "the X server could not attach shared memory (X error " + std::to_string(attached.value()) + ")");
    }
    m_seg = seg;
    m_data = static_cast<std::uint8_t*>(addr);
    m_size = size;
    return {};
}

void ShmSegment::release()
{
    if (!m_data)
        return;
    if (!m_display.broken()) {
        xcb_shm_detach(m_display.connection(), m_seg);
        xcb_flush(m_display.connection());
    }
    shmdt(m_data);
    m_data = nullptr;
    m_size = 0;
    m_seg = 0;
}

} // namespace nd_linux

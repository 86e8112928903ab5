#pragma once

// A batch of X requests that share one deadline: send every request first (add), then collect the
// replies (take). The whole batch costs one round trip. When one reply misses the deadline or the
// connection breaks, every later take fails at once with the same error, and whatever was not
// collected is discarded when the batch goes away, so no late reply piles up inside xcb.

#include "backend/linux/x11/x11_display.h"

#include <optional>
#include <unordered_set>

namespace nd_linux {

class ReplyBatch {
public:
    ReplyBatch(X11Display& display, Deadline deadline) : m_display(display), m_deadline(deadline) {}
    ~ReplyBatch()
    {
        for (auto sequence : m_pending)
            m_display.discard(sequence);
    }
    ReplyBatch(const ReplyBatch&) = delete;
    ReplyBatch& operator=(const ReplyBatch&) = delete;

    template<typename Cookie>
    Cookie add(Cookie cookie)
    {
        if (cookie.sequence)
            m_pending.insert(cookie.sequence);
        return cookie;
    }

    template<typename R, typename Cookie>
    nd_core::Result<XReply<R>> take(Cookie cookie)
    {
        if (m_failed)
            return *m_failed;
        m_pending.erase(cookie.sequence);
        auto reply = m_display.wait<R>(cookie, m_deadline);
        if (!reply.ok())
            m_failed = reply.error();
        return reply;
    }

    Deadline deadline() const { return m_deadline; }

private:
    X11Display& m_display;
    Deadline m_deadline;
    std::unordered_set<unsigned int> m_pending;
    std::optional<nd_core::Error> m_failed;
};

} // namespace nd_linux

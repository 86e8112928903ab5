#pragma once

// When the driver last pressed a mouse button through XTEST. The consent dialog and the paused
// indicator's Continue button accept a click only when the driver pressed nothing in the 1.5 s
// before it (§4.3, §6): a click the driver could have caused is not the person's. One clock per
// backend, shared by the synthetic input (writer) and PersonRule (reader). Other programs' presses
// are seen by X11XtestMonitor, where the server offers RECORD.

#include <atomic>
#include <chrono>
#include <cstdint>

namespace nd_linux {

class PressClock {
public:
    static constexpr std::chrono::milliseconds QUIET{1500};

    void record_press() { m_last_ms.store(now_ms()); }
    // True when the driver pressed no button within QUIET before now.
    bool quiet() const
    {
        const auto last = m_last_ms.load();
        return last == NEVER || now_ms() - last >= QUIET.count();
    }

    // True when the driver pressed a button at or after `t`.
    bool pressed_since(std::chrono::steady_clock::time_point t) const
    {
        const auto last = m_last_ms.load();
        return last != NEVER
            && last >= std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
    }

private:
    static constexpr std::int64_t NEVER = INT64_MIN;
    static std::int64_t now_ms()
    {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }
    std::atomic<std::int64_t> m_last_ms{NEVER};
};

} // namespace nd_linux

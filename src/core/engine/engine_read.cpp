#include "core/engine/engine.h"

#include "core/encode/png.h"
#include "core/engine/secure_blackout.h"
#include "core/engine/window_reads.h"

#include <algorithm>
#include <thread>

namespace nd_core {

namespace {

// Names, values and states: what a settle waits to stop changing (structure is hashed separately).
std::uint64_t content_hash(const Snapshot& s)
{
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&h](std::string_view bytes) {
        for (unsigned char c : bytes) {
            h ^= c;
            h *= 1099511628211ull;
        }
        h ^= 0xFF;
        h *= 1099511628211ull;
    };
    for (const auto& e : s.elements) {
        mix(e.name);
        mix(e.value);
        mix(std::string_view(reinterpret_cast<const char*>(&e.states), sizeof e.states));
    }
    return h ^ s.structure_hash;
}

// Whether `window_id` is no longer among the backend's windows (a failed list says nothing).
bool window_gone(Backend& backend, std::int64_t window_id)
{
    auto live = live_window(backend, window_id);
    return live.ok() && !live->has_value();
}

} // namespace

Result<SnapshotPtr> Engine::read_window(Session& s, const WindowInfo& window)
{
    return read_into(m_backend, s.snapshots, window, m_options.read_deadline, now_ms());
}

Result<SnapshotPtr> Engine::with_frames(const SnapshotPtr& snap, const std::vector<std::int32_t>& rows, bool action_names)
{
    if (!snap)
        return snap;
    // A row lacks its frame (deferred) or an action's name (left empty by the bulk read).
    auto lacking = [&snap, action_names](const Element& e) {
        return (snap->frames_deferred && !e.has_frame) ||
               (action_names && e.action_names_pending());
    };
    std::vector<std::int32_t> missing;
    for (auto row : rows)
        if (row >= 0 && row < snap->size() && lacking(snap->elements[static_cast<std::size_t>(row)]))
            missing.push_back(row);
    auto* trees = m_backend.trees();
    if (missing.empty() || !trees)
        return snap;
    auto framed = std::make_shared<Snapshot>(*snap);
    TRY_VOID(trees->read_frames(framed->window, framed->elements, missing, m_options.read_deadline, action_names));
    return SnapshotPtr(std::move(framed));
}

Result<ElementRef> Engine::resolve_token(Session& s, std::string_view token)
{
    return resolve_in(m_backend, s.snapshots, token, [&s](const WindowInfo& w) { return s.scope.allows(w); },
        m_options.read_deadline, now_ms());
}

Result<SnapshotPtr> Engine::settle(Session& s, const Snapshot& before, SettleInfo& info)
{
    const auto start = now_ms();
    const auto before_hash = content_hash(before);
    // A read that fails because the act closed the window (a dialog's OK) is the act's effect. An
    // app that is closing drops its accessible window before the window system does: a read that
    // found no window (not one that timed out) waits, within the settle's time, for the window to go.
    auto read = [&]() -> Result<SnapshotPtr> {
        auto r = read_window(s, before.window);
        if (r.ok())
            return r;
        const bool closing = r.error().code == ErrorCode::window_target_not_found ||
                             r.error().code == ErrorCode::app_not_accessible;
        while (!(info.window_closed = window_gone(m_backend, before.window.window_id)) && closing &&
               now_ms() - start < m_options.settle_timeout.count())
            std::this_thread::sleep_for(m_options.settle_interval);
        return r;
    };
    SnapshotPtr last = TRY(read());
    info.reads = 1;
    auto last_hash = content_hash(*last);
    bool changed = last_hash != before_hash;
    while (now_ms() - start < m_options.settle_timeout.count()) {
        // A kill switch or revocation waiting for the engine: the act is done, stop watching it.
        if (interrupted(s.id))
            break;
        std::this_thread::sleep_for(m_options.settle_interval);
        auto next = TRY(read());
        ++info.reads;
        const auto hash = content_hash(*next);
        last = next;
        if (hash != last_hash) {
            changed = changed || hash != before_hash;
            last_hash = hash;
            continue;
        }
        if (changed || now_ms() - start >= m_options.settle_quiet.count()) {
            info.settled = true;
            break;
        }
    }
    info.ms = now_ms() - start;
    return last;
}

Result<Engine::Png> Engine::capture_png(Session& s, const Snapshot& snap)
{
    auto* capture = m_backend.capture();
    if (!capture)
        return make_error(ErrorCode::unsupported, "this backend cannot capture windows");
    TRY_VOID(check_secure_fields_known(snap));

    const auto now = now_ms();
    while (!s.capture_times_ms.empty() && now - s.capture_times_ms.front() >= 1000)
        s.capture_times_ms.pop_front();
    if (static_cast<std::int32_t>(s.capture_times_ms.size()) >= m_options.captures_per_second)
        return make_error(ErrorCode::capture_rate_limited,
            "at most " + std::to_string(m_options.captures_per_second) + " captures a second");
    s.capture_times_ms.push_back(now);

    auto image = TRY(capture->capture_window(snap.window));
    black_out_secure_fields(image, snap, snap.window.frame.x, snap.window.frame.y);
    return Png{encode_png(image), image.width, image.height};
}

} // namespace nd_core

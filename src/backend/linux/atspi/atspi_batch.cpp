#include "backend/linux/atspi/atspi_batch.h"

#include <poll.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

// sd-bus's own per-call timeout is set past the batch deadline, so the batch's clock decides and
// a late call is cancelled, not answered with a synthetic error that races the deadline.
constexpr std::uint64_t SD_BUS_SLACK_USEC = 1'000'000;

std::uint64_t usec_until(Deadline deadline)
{
    auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - Clock::now()).count();
    return left > 0 ? static_cast<std::uint64_t>(left) : 0;
}

} // namespace

PlaceAnswer read_place(const Reply& r, nd_core::Frame& out)
{
    if (!r.ok() || read_extents(r.message, out) < 0)
        return {};
    return answered_place(out);
}

PlaceAnswer answered_place(const nd_core::Frame& place)
{
    const bool area = place.has_area();
    return {area, !area};
}

AtspiBatch::AtspiBatch(AtspiBus& bus, Deadline deadline) : m_bus(bus), m_deadline(deadline) {}

AtspiBatch::~AtspiBatch()
{
    std::lock_guard lock(m_bus.mutex());
    for (auto& call : m_calls)
        if (call.slot) {
            call.slot = sd_bus_slot_unref(call.slot);
            m_bus.owe(call.dest, 1);
        }
}

void AtspiBatch::add(const Method& method, ArgWriter args, ReplyHandler handler)
{
    Call& call = m_calls.emplace_back();
    call.batch = this;
    call.dest = method.dest;
    call.path = method.path;
    call.iface = method.iface;
    call.member = method.member;
    call.args = std::move(args);
    call.handler = std::move(handler);
}

nd_core::Result<void> AtspiBatch::send(Call& call)
{
    // Calls that read ("Get…") spread over the app's peer lanes (AtspiBus::route): their answers
    // come in any order, which no handler relies on. Any other call (an act; a ping) takes the
    // first lane, and so does every later call of this batch for that app, so nothing sent after
    // an act overtakes it.
    const bool reads = call.member.starts_with("Get") && !call.probe;
    if (!reads)
        m_ordered.insert(call.dest);
    sd_bus* conn = m_bus.route(call.dest, reads && !m_ordered.count(call.dest));
    const bool peer = m_bus.is_peer(conn);
    sd_bus_message* raw = nullptr;
    // A peer connection is the app itself: the call names no destination.
    int r = sd_bus_message_new_method_call(conn, &raw, peer ? nullptr : call.dest.c_str(), call.path.c_str(),
                                           call.iface.c_str(), call.member.c_str());
    MessagePtr message(raw);
    if (peer && (r == -ENOTCONN || r == -ECONNRESET)) {
        // The peer went away since it was opened: the bus (or another lane) answers for the app
        // instead. Its calls in flight never will (peer_broke, which also stops this batch
        // waiting on a connection the bus is about to free).
        peer_broke(conn);
        return send(call);
    }
    if (r == -ENOTCONN || r == -ECONNRESET)
        return make_error(ErrorCode::backend_unavailable, "the AT-SPI bus connection is closed");
    if (r >= 0 && call.args)
        r = call.args(message.get());
    if (r < 0) {
        // A bad argument (e.g. a bus name or path that is not valid D-Bus) fails this call only.
        sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_error_set_errno(&error, r);
        call.done = true;
        if (call.handler)
            call.handler(Reply{nullptr, &error});
        sd_bus_error_free(&error);
        return {};
    }
    r = sd_bus_call_async(conn, &call.slot, message.get(), &AtspiBatch::on_reply, &call,
                          usec_until(m_deadline) + SD_BUS_SLACK_USEC);
    if (r < 0 && peer) {
        // The peer went away since it was opened: as above.
        peer_broke(conn);
        return send(call);
    }
    if (r < 0)
        return make_error(ErrorCode::backend_unavailable,
                          "cannot send " + call.member + " on the AT-SPI bus: " + std::strerror(-r));
    call.conn = conn;
    if (std::find(m_conns.begin(), m_conns.end(), conn) == m_conns.end())
        m_conns.push_back(conn);
    ++m_in_flight;
    ++m_sent;
    return {};
}

nd_core::Result<bool> AtspiBatch::hold(Call& call)
{
    auto held = m_held.find(call.dest);
    const bool first = held == m_held.end();
    if (first && (call.probe || !m_bus.owes_any() || m_bus.owed(call.dest) == 0))
        return false;
    if (first)
        held = m_held.emplace(call.dest, std::vector<Call>{}).first;
    const std::string dest = call.dest;
    held->second.push_back(std::move(call));
    call.done = true;
    call.handler = nullptr;
    call.args = nullptr;
    if (!first)
        return true;
    Call& ping = m_calls.emplace_back();
    ping.batch = this;
    ping.dest = dest;
    ping.path = "/";
    ping.iface = "org.freedesktop.DBus.Peer";
    ping.member = "Ping";
    ping.probe = true;
    // Any answer, an error too, comes after those of the calls before it (or the app is gone).
    ping.handler = [this, dest](const Reply&) {
        m_bus.settle(dest);
        release(dest);
    };
    // Sent at once, past the queue and the in-flight bound: the held calls wait on it alone.
    TRY_VOID(send(ping));
    return true;
}

void AtspiBatch::release(const std::string& dest)
{
    auto held = m_held.find(dest);
    if (held == m_held.end())
        return;
    auto calls = std::move(held->second);
    m_held.erase(held);
    for (auto& call : calls)
        m_calls.push_back(std::move(call));
}

void AtspiBatch::answer(Call& call, const Reply& reply)
{
    call.done = true;
    --m_in_flight;
    ++m_answered;
    if (call.handler) {
        try {
            call.handler(reply);
        } catch (...) {
            // Exceptions must not cross sd-bus's C frames; a handler that throws (allocation)
            // loses its reply, and the read reports what it got.
        }
    }
    // sd-bus holds its own reference while a callback runs, so dropping ours here is safe.
    call.slot = sd_bus_slot_unref(call.slot);
    call.handler = nullptr;
    call.args = nullptr;
}

int AtspiBatch::on_reply(sd_bus_message* message, void* userdata, sd_bus_error*)
{
    auto& call = *static_cast<Call*>(userdata);
    Reply reply;
    if (sd_bus_message_is_method_error(message, nullptr))
        reply.error = sd_bus_message_get_error(message);
    else
        reply.message = message;
    call.batch->answer(call, reply);
    return 0;
}

void AtspiBatch::peer_broke(sd_bus* conn)
{
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_error_set_const(&error, SD_BUS_ERROR_DISCONNECTED, "the app's peer connection closed");
    for (auto& call : m_calls)
        if (!call.done && call.slot && call.conn == conn)
            answer(call, Reply{nullptr, &error});
    m_conns.erase(std::remove(m_conns.begin(), m_conns.end(), conn), m_conns.end());
    m_bus.drop_peer(conn);
}

nd_core::Result<bool> AtspiBatch::process()
{
    bool progressed = false;
    // By index: peer_broke() removes entries.
    for (std::size_t i = 0; i < m_conns.size();) {
        sd_bus* conn = m_conns[i];
        int r = sd_bus_process(conn, nullptr);
        if (r < 0 && !m_bus.is_peer(conn))
            return make_error(ErrorCode::backend_unavailable,
                              std::string("the AT-SPI bus connection broke: ") + std::strerror(-r));
        if (r < 0) {
            peer_broke(conn);
            progressed = true;
            continue;
        }
        // A closing bus answers each outstanding call with a synthetic NoReply, which would read
        // as "the app is gone": the bus is what went away.
        if (!m_bus.is_peer(conn) && sd_bus_is_open(conn) <= 0)
            return make_error(ErrorCode::backend_unavailable, "the AT-SPI bus connection closed");
        progressed = progressed || r > 0;
        ++i;
    }
    return progressed;
}

nd_core::Result<void> AtspiBatch::wait()
{
    std::uint64_t left = usec_until(m_deadline);
    if (m_conns.size() <= 1) {
        int r = sd_bus_wait(m_conns.empty() ? m_bus.bus() : m_conns[0], left);
        if (r < 0 && r != -EINTR)
            return make_error(ErrorCode::backend_unavailable,
                              std::string("waiting on the AT-SPI bus failed: ") + std::strerror(-r));
        return {};
    }
    std::vector<pollfd> fds;
    fds.reserve(m_conns.size());
    struct timespec now_ts{};
    clock_gettime(CLOCK_MONOTONIC, &now_ts);
    const std::uint64_t now = std::uint64_t(now_ts.tv_sec) * 1'000'000 + std::uint64_t(now_ts.tv_nsec) / 1000;
    for (sd_bus* conn : m_conns) {
        int events = sd_bus_get_events(conn);
        std::uint64_t until = 0;
        // sd-bus's own timers (a connection's handshake) bound the wait too.
        if (sd_bus_get_timeout(conn, &until) >= 0 && until != UINT64_MAX)
            left = std::min(left, until > now ? until - now : 0);
        fds.push_back(pollfd{sd_bus_get_fd(conn), static_cast<short>(events < 0 ? POLLIN : events), 0});
    }
    int timeout_ms = static_cast<int>(std::min<std::uint64_t>((left + 999) / 1000, 60'000));
    int r = ::poll(fds.data(), fds.size(), timeout_ms);
    if (r < 0 && errno != EINTR)
        return make_error(ErrorCode::backend_unavailable,
                          std::string("waiting on the AT-SPI connections failed: ") + std::strerror(errno));
    return {};
}

nd_core::Result<void> AtspiBatch::run()
{
    std::lock_guard lock(m_bus.mutex());
    TRY_VOID(m_bus.ensure_connected());
    std::size_t answered_before = m_answered;
    for (;;) {
        while (m_in_flight < MAX_IN_FLIGHT && m_next_to_send < m_calls.size()) {
            Call& call = m_calls[m_next_to_send++];
            // A ping goes out as it is made; a held call's place is left empty (done).
            if (call.done || call.slot || TRY(hold(call)))
                continue;
            TRY_VOID(send(call));
        }
        if (m_in_flight == 0 && m_next_to_send == m_calls.size())
            return {};
        if (TRY(process()))
            continue;
        if (usec_until(m_deadline) == 0) {
            if (!m_held.empty())
                return make_error(ErrorCode::app_not_responding,
                                  "the app has not yet answered the " + std::to_string(m_bus.owed(m_held.begin()->first)) +
                                      " AT-SPI calls an earlier read gave up on; nothing more was sent to it");
            if (m_answered == answered_before)
                return make_error(ErrorCode::app_not_responding,
                                  "no reply to " + std::to_string(m_in_flight) + " AT-SPI calls before the deadline");
            return make_error(ErrorCode::timed_out, "AT-SPI calls still unanswered at the deadline (" +
                                                        std::to_string(m_in_flight) + " in flight)");
        }
        TRY_VOID(wait());
    }
}

} // namespace nd_linux

#include "backend/linux/atspi/atspi_batch.h"

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

AtspiBatch::AtspiBatch(AtspiBus& bus, Deadline deadline) : m_bus(bus), m_deadline(deadline) {}

AtspiBatch::~AtspiBatch()
{
    std::lock_guard lock(m_bus.mutex());
    for (auto& call : m_calls)
        if (call.slot)
            call.slot = sd_bus_slot_unref(call.slot);
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
    sd_bus_message* raw = nullptr;
    int r = sd_bus_message_new_method_call(m_bus.bus(), &raw, call.dest.c_str(), call.path.c_str(),
                                           call.iface.c_str(), call.member.c_str());
    MessagePtr message(raw);
    if (r >= 0 && call.args)
        r = call.args(message.get());
    if (r < 0) {
        // A bad argument (e.g. a bus name or path that is not valid D-Bus) fails this call only.
        call.done = true;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_error_set_errno(&error, r);
        if (call.handler)
            call.handler(Reply{nullptr, &error});
        sd_bus_error_free(&error);
        return {};
    }
    r = sd_bus_call_async(m_bus.bus(), &call.slot, message.get(), &AtspiBatch::on_reply, &call,
                          usec_until(m_deadline) + SD_BUS_SLACK_USEC);
    if (r < 0)
        return make_error(ErrorCode::backend_unavailable,
                          "cannot send " + call.member + " on the AT-SPI bus: " + std::strerror(-r));
    ++m_in_flight;
    ++m_sent;
    return {};
}

int AtspiBatch::on_reply(sd_bus_message* message, void* userdata, sd_bus_error*)
{
    auto& call = *static_cast<Call*>(userdata);
    AtspiBatch& batch = *call.batch;
    call.done = true;
    --batch.m_in_flight;
    ++batch.m_answered;
    Reply reply;
    if (sd_bus_message_is_method_error(message, nullptr))
        reply.error = sd_bus_message_get_error(message);
    else
        reply.message = message;
    if (call.handler) {
        try {
            call.handler(reply);
        } catch (...) {
            // Exceptions must not cross sd-bus's C frames; a handler that throws (allocation)
            // loses its reply, and the read reports what it got.
        }
    }
    // sd-bus holds its own reference while the callback runs, so dropping ours here is safe.
    call.slot = sd_bus_slot_unref(call.slot);
    call.handler = nullptr;
    call.args = nullptr;
    return 0;
}

nd_core::Result<void> AtspiBatch::run()
{
    std::lock_guard lock(m_bus.mutex());
    sd_bus* bus = m_bus.bus();
    std::size_t answered_before = m_answered;
    for (;;) {
        while (m_in_flight < MAX_IN_FLIGHT && m_next_to_send < m_calls.size()) {
            Call& call = m_calls[m_next_to_send++];
            TRY_VOID(send(call));
        }
        if (m_in_flight == 0 && m_next_to_send == m_calls.size())
            return {};

        int r = sd_bus_process(bus, nullptr);
        if (r < 0)
            return make_error(ErrorCode::backend_unavailable,
                              std::string("the AT-SPI bus connection broke: ") + std::strerror(-r));
        if (r > 0)
            continue;
        std::uint64_t left = usec_until(m_deadline);
        if (left == 0) {
            if (m_answered == answered_before)
                return make_error(ErrorCode::app_not_responding,
                                  "no reply to " + std::to_string(m_in_flight) + " AT-SPI calls before the deadline");
            return make_error(ErrorCode::timed_out, "AT-SPI calls still unanswered at the deadline (" +
                                                        std::to_string(m_in_flight) + " in flight)");
        }
        r = sd_bus_wait(bus, left);
        if (r < 0 && r != -EINTR)
            return make_error(ErrorCode::backend_unavailable,
                              std::string("waiting on the AT-SPI bus failed: ") + std::strerror(-r));
    }
}

} // namespace nd_linux

#pragma once

// Pipelined D-Bus calls: many calls in flight on one connection, collected under one deadline.
//
// A round trip to an app costs 130–220 µs when calls go one after another and about 60 µs each
// when many are in flight, so every read goes through a batch. Handlers run inside run() as
// replies arrive and may add more calls (a walk adds a node's children when its GetChildren
// answers); run() returns when nothing is queued or in flight, or at the deadline. At most
// MAX_IN_FLIGHT calls are outstanding at once; the rest wait in a queue.
//
// A batch that is destroyed with calls still in flight cancels them: their late replies are
// dropped by sd-bus and never reach a handler. The app still has them to answer, in order, before
// anything sent after them: the bus keeps the count (AtspiBus::owe), and a batch with calls for
// an app that owes some first pings it alone and holds the others until the ping is answered. A
// deadline that passes first fails the batch as app_not_responding with nothing more sent.
//
// Calls for an app with a peer-to-peer connection (AtspiBus::use_peer) go over that connection,
// reads spread over its lanes; the batch waits on all the connections it used at once. A peer
// connection that breaks (its app exited) answers its outstanding calls with a "disconnected"
// error, as the bus would.

#include "backend/linux/atspi/atspi_bus.h"
#include "backend/linux/atspi/atspi_message.h"

#include <cstddef>
#include <deque>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace nd_linux {

// One reply: either `message` (a method return) or `error` (an error reply, also those sd-bus
// synthesises when the peer leaves the bus).
struct Reply {
    sd_bus_message* message = nullptr;
    const sd_bus_error* error = nullptr;
    bool ok() const { return message != nullptr && error == nullptr; }
};

using ReplyHandler = std::function<void(const Reply&)>;

// What a GetExtents reply says of a place: none (an error or no extents), one with no area, or
// one with an area; `out` holds what the app answered.
struct PlaceAnswer {
    bool has_area = false;
    bool empty = false; // answered, with no area (Element::empty_frame)
};
PlaceAnswer read_place(const Reply&, nd_core::Frame& out);
// What a place an app answered says (from GetExtents or an outline): an area, or none.
PlaceAnswer answered_place(const nd_core::Frame&);

class AtspiBatch {
public:
    static constexpr std::size_t MAX_IN_FLIGHT = 256;

    AtspiBatch(AtspiBus&, Deadline);
    ~AtspiBatch();
    AtspiBatch(const AtspiBatch&) = delete;
    AtspiBatch& operator=(const AtspiBatch&) = delete;

    // Queues a call. `args` may be empty. The handler runs once, with the reply or error.
    void add(const Method&, ArgWriter args, ReplyHandler);

    // Sends and processes until every call has been answered, or fails with timed_out at the
    // deadline (app_not_responding when no reply at all came back), or backend_unavailable when
    // the bus connection breaks. Handlers of calls still outstanding at the deadline never run.
    nd_core::Result<void> run();

    std::size_t answered() const { return m_answered; }
    std::size_t sent() const { return m_sent; }
    Deadline deadline() const { return m_deadline; }

private:
    struct Call {
        AtspiBatch* batch = nullptr;
        std::string dest, path, iface, member;
        ArgWriter args;
        ReplyHandler handler;
        sd_bus_slot* slot = nullptr;
        sd_bus* conn = nullptr; // where it was sent
        bool done = false;
        bool probe = false; // the ping that a held app's other calls wait for
    };

    static int on_reply(sd_bus_message*, void* userdata, sd_bus_error*);
    nd_core::Result<void> send(Call&);
    // Holds a call for an app that owes answers to batches before (moved to m_held, its ping sent
    // with the first); false when it can go now.
    nd_core::Result<bool> hold(Call&);
    void release(const std::string& dest);
    void answer(Call&, const Reply&);
    // Processes every connection in use; true when anything happened.
    nd_core::Result<bool> process();
    // A peer connection broke: its calls fail as "disconnected" and the bus forgets it.
    void peer_broke(sd_bus*);
    // Waits until a connection has something to do or the deadline passes.
    nd_core::Result<void> wait();

    AtspiBus& m_bus;
    Deadline m_deadline;
    std::deque<Call> m_calls;      // stable addresses: userdata of the slots
    std::vector<sd_bus*> m_conns;  // the connections calls went to; [0] the bus
    std::unordered_map<std::string, std::vector<Call>> m_held; // by destination, in order
    std::unordered_set<std::string> m_ordered; // apps this batch sent an act or ping: one lane
    std::size_t m_next_to_send = 0;
    std::size_t m_in_flight = 0;
    std::size_t m_sent = 0;
    std::size_t m_answered = 0;
};

} // namespace nd_linux

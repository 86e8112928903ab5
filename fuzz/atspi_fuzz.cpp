// libFuzzer target for the AT-SPI reply decoders (backend/linux/atspi/atspi_message.h, the GetItems
// cache of atspi_cache.h, docs/fuzzing.md). An app on the accessibility bus is outside input: it
// answers whatever it likes, in whatever shape. Each input is the raw D-Bus wire bytes of one or
// more messages, as an app would send them (the seeds are replies and signals of real GTK 3, GTK 4
// and Qt 5 apps, recorded by scripts/fuzz-record-atspi). They reach a real sd-bus connection over a
// socket pair, exactly as a reply does; sd-bus parses the header and each message goes through
// every decoder. A decoder must fail with a negative errno, never crash or read past the message;
// what it gives back must keep the backend's bounds (strings cut to MAX_TEXT_BYTES on a character
// boundary, keys that parse back to what they were made of).

#include "backend/linux/atspi/atspi_cache.h"
#include "backend/linux/atspi/atspi_message.h"
#include "backend/linux/atspi/atspi_outline.h"
#include "fuzz_check.h"

#include <unordered_set>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace {

using nd_fuzz::require;
using namespace nd_linux;

// UTF-8 cut: never longer than the cap, never ending inside a character.
void require_cut(const std::string& s, std::size_t cap)
{
    require(s.size() <= cap);
    if (!s.empty()) {
        // The last character must be whole when the cut stepped back: a lead byte is not last.
        const auto last = static_cast<unsigned char>(s.back());
        require(s.size() < cap || (last & 0xC0) != 0xC0);
    }
}

void require_ref(const ObjectRef& ref)
{
    // A key made of what an app sent either parses back to the same reference or not at all.
    const auto back = parse_key(ref.key());
    if (!back)
        return;
    require(*back == ref);
    const auto child = parse_child_key(child_key(ref, 3, 4));
    if (child)
        require(child->container == ref && child->row == 3 && child->column == 4);
}

using Reader = int (*)(sd_bus_message*);

int refs(sd_bus_message* m)
{
    std::vector<ObjectRef> out;
    const int r = read_refs(m, out);
    for (const auto& ref : out)
        require_ref(ref);
    return r;
}

int ref(sd_bus_message* m)
{
    ObjectRef out;
    const int r = read_ref(m, out);
    if (r > 0)
        require_ref(out);
    return r;
}

int states(sd_bus_message* m)
{
    AtspiStates out;
    return read_states(m, out);
}

int interfaces(sd_bus_message* m)
{
    std::uint32_t bits = 0;
    return read_interfaces(m, bits);
}

int string(sd_bus_message* m)
{
    std::string out;
    const int r = read_string(m, out);
    require_cut(out, MAX_TEXT_BYTES);
    return r;
}

int string_variant(sd_bus_message* m)
{
    std::string out;
    const int r = read_string_variant(m, out);
    require_cut(out, MAX_TEXT_BYTES);
    return r;
}

int props(sd_bus_message* m)
{
    AccessibleProps out;
    const int r = read_accessible_props(m, out);
    require_cut(out.name, MAX_TEXT_BYTES);
    require_cut(out.description, MAX_TEXT_BYTES);
    return r;
}

int actions(sd_bus_message* m)
{
    std::vector<std::string> out;
    const int r = read_action_names(m, out);
    for (const auto& name : out)
        require_cut(name, 256);
    return r;
}

int attribute(sd_bus_message* m)
{
    std::string out;
    const int r = read_attribute(m, "toolkit", out);
    require_cut(out, MAX_TEXT_BYTES);
    return r;
}

int extents(sd_bus_message* m)
{
    nd_core::Frame out;
    return read_extents(m, out);
}

int number(sd_bus_message* m)
{
    double out = 0;
    const int r = read_variant_double(m, out);
    if (r >= 0) {
        const auto text = format_number(out);
        require(text.size() < 64);
    }
    return r;
}

int items(sd_bus_message* m)
{
    ItemCache cache;
    if (!cache.parse(m))
        return -EBADMSG;
    // What the cache lists are items of it: the objects that manage their descendants, their
    // children and their parents' children.
    for (const auto& ref : cache.managing_descendants()) {
        const auto* item = cache.find(ref);
        require(item != nullptr);
        for (const auto& parent : {ref, item->parent})
            if (const auto* kids = cache.children(parent))
                for (const auto& kid : *kids) {
                    const auto* listed = cache.find(kid);
                    require(listed != nullptr && listed->parent == parent);
                }
    }
    return 1;
}

int outline(sd_bus_message* m)
{
    // The outline of whichever object the reply lists first (an outline of another is none).
    ObjectRef root;
    if (sd_bus_message_enter_container(m, SD_BUS_TYPE_ARRAY, "((so)a{sv})") <= 0 ||
        sd_bus_message_enter_container(m, SD_BUS_TYPE_STRUCT, "(so)a{sv}") <= 0 || read_ref(m, root) < 0 ||
        sd_bus_message_rewind(m, 1) < 0)
        return -EBADMSG;
    Outline out;
    if (!out.parse(m, root))
        return -EBADMSG;
    // Every child is an object of the outline, placed once, and not the root.
    require(out.find(root) != nullptr);
    std::unordered_set<ObjectRef, ObjectRefHash> placed;
    for (const auto& [ref, item] : out.items())
        for (const auto& kid : item.children) {
            require(out.find(kid) != nullptr && kid != root && kid != ref);
            require(placed.insert(kid).second);
            require_ref(kid);
        }
    return 1;
}

constexpr Reader READERS[] = {refs,  ref,     states,    interfaces, string, string_variant,
                              props, actions, attribute, extents,    number, items, outline};

int on_message(sd_bus_message* m, void*, sd_bus_error*)
{
    for (Reader reader : READERS) {
        if (sd_bus_message_rewind(m, 1) < 0)
            return 0;
        (void)reader(m);
    }
    return 0;
}

// Both ends of a socket pair as sd-bus connections, authenticated (as an app and the backend are
// over the bus), so the app's end can then write bytes of its own.
struct Pair {
    sd_bus* backend = nullptr;
    sd_bus* app = nullptr;
    int app_fd = -1;
};

bool connect_pair(Pair& pair)
{
    int fds[2];
    require(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, fds) == 0);
    pair.app_fd = fds[1];
    const sd_id128_t id = SD_ID128_MAKE(00, 11, 22, 33, 44, 55, 66, 77, 88, 99, aa, bb, cc, dd, ee, ff);
    require(sd_bus_new(&pair.backend) >= 0 && sd_bus_new(&pair.app) >= 0);
    require(sd_bus_set_fd(pair.backend, fds[0], fds[0]) >= 0 && sd_bus_set_fd(pair.app, fds[1], fds[1]) >= 0);
    require(sd_bus_set_server(pair.app, 1, id) >= 0);
    require(sd_bus_negotiate_fds(pair.backend, 0) >= 0 && sd_bus_negotiate_fds(pair.app, 0) >= 0);
    require(sd_bus_add_filter(pair.backend, nullptr, on_message, nullptr) >= 0);
    require(sd_bus_start(pair.backend) >= 0 && sd_bus_start(pair.app) >= 0);
    for (int round = 0; round < 50; ++round) {
        if (sd_bus_is_ready(pair.backend) > 0 && sd_bus_is_ready(pair.app) > 0)
            return true;
        if (sd_bus_process(pair.backend, nullptr) < 0 || sd_bus_process(pair.app, nullptr) < 0)
            return false;
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > (1u << 20))
        return 0; // larger than any reply the backend reads in one piece
    Pair now;
    require(connect_pair(now));
    // The app's bytes go straight onto the socket, past its connection's own writer (idle now).
    std::string_view wire(reinterpret_cast<const char*>(data), size);
    std::size_t sent = 0;
    for (int rounds = 0; rounds < 100000; ++rounds) {
        if (sent < wire.size()) {
            const auto n = ::write(now.app_fd, wire.data() + sent, wire.size() - sent);
            if (n > 0)
                sent += static_cast<std::size_t>(n);
            if (sent == wire.size())
                ::shutdown(now.app_fd, SHUT_WR); // the app hangs up after its last byte
        }
        const int r = sd_bus_process(now.backend, nullptr);
        if (r < 0)
            break; // the connection gave up on the bytes: a clean end
        if (r == 0 && sent == wire.size())
            break; // every message decoded, or sd-bus waits for the rest of one that never comes
    }
    sd_bus_close_unref(now.backend);
    sd_bus_close_unref(now.app);
    return 0;
}

#pragma once

// The vision verbs' sessions (docs/vision.md): what element indexes and screenshot pixels mean for
// one caller. A session remembers the elements its latest computer_state listed (index -> the
// element's window, key and frame then) and the scale of its latest screenshot (screen pixels per
// screenshot pixel). A call names one with `session`; without it, a call uses its agent's default
// session ("agent:<agent_id>", or "default" for calls with no agent id, such as shuttle desk).
// computer_end ends a session: its name is refused for good, and an ended default comes back under
// a new name ("default#2"), empty, so its next element action needs a new computer_state.
// Thread-safe: calls of several clients use the store at once; a session is copied out and back.

#include "core/model/element.h"
#include "core/result.h"

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace nd_desk {

struct VisionElement {
    nd_core::WindowInfo window; // the window it was read in
    std::string key;            // the backend's identity of the element
    std::string role;
    std::string name;
    nd_core::Frame frame; // screen pixels, when listed
};

// A screenshot as the caller saw it: its size, and the screen's.
struct VisionShot {
    std::int32_t width = 0;
    std::int32_t height = 0;
    std::int32_t screen_width = 0;
    std::int32_t screen_height = 0;
    double scale() const { return width > 0 ? static_cast<double>(screen_width) / width : 1.0; }
};

struct VisionSession {
    std::string name;
    std::vector<VisionElement> elements;
    std::optional<VisionShot> shot;
};

class VisionSessions {
public:
    static constexpr std::size_t MAX_NAME_BYTES = 128;
    static constexpr std::size_t MAX_SESSIONS = 256; // the least recently used goes first

    // The name a call uses: `session` when given (invalid_arguments when empty or too long, or
    // when it was ended), else the current default of `agent_id`.
    nd_core::Result<std::string> name_for(const std::optional<std::string>& session, const std::string& agent_id);
    // A copy of the session, empty when it has no state yet.
    VisionSession get(const std::string& name);
    void put(VisionSession);
    // Records the session's latest screenshot and nothing else (computer_act, look), so that a
    // computer_state of the same session that ran meanwhile keeps its elements.
    void put_shot(const std::string& name, const VisionShot&);
    // Ends the session: forgets it and refuses its name from now on. Whether it held any state.
    bool end(const std::string& name);
    // The latest screenshot of any session, for computer_scale and look when the caller has none.
    std::optional<VisionShot> any_shot();

private:
    std::string default_name(const std::string& agent_id) const;

    std::mutex m_mutex;
    std::map<std::string, VisionSession> m_sessions;
    std::map<std::string, std::uint64_t> m_used; // name -> last use, for the cap
    std::uint64_t m_clock = 0;
    std::set<std::string> m_ended;
    std::map<std::string, std::int32_t> m_default_generation; // agent_id -> how many of its defaults ended
    std::optional<VisionShot> m_latest_shot;
};

} // namespace nd_desk

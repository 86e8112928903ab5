#pragma once

// Policy as pure functions: which elements are secure, which text looks like a credential (§5.3),
// and which apps a session may see. No state, no platform.

#include "core/model/element.h"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace nd_core {

// A password field or any field the platform marks protected.
bool is_secure_element(std::string_view role, std::uint32_t states);

// §5.3: text that looks like a credential. Errs towards true. `clipboard` turns on the rule for a
// single 16–512 character word that mixes at least three character classes.
struct CredentialVerdict {
    bool credential = false;
    std::string_view rule; // which rule matched, for tests and logs (never the text)
};
CredentialVerdict looks_like_credential(std::string_view text, bool clipboard);

// App scope: the approved apps of a session, compared case-insensitively on the app's own name.
class AppScope {
public:
    AppScope() = default;
    explicit AppScope(std::set<std::string> apps);
    bool allows(std::string_view app) const;
    // Whether a window belongs to an approved app: by the app's own name (the window's class), the
    // file name of its process's executable (a person says "nautilus" for the window class
    // "org.gnome.Nautilus"), the name its process was started under (a person says "thunderbird"
    // for the class "thunderbird-default" of the executable thunderbird-bin, started through its
    // symlink thunderbird), or the last part of an application id of that reverse-DNS shape. An
    // app names itself in all four, so none is more trusted than the others.
    bool allows(const WindowInfo&) const;
    const std::set<std::string>& apps() const { return m_apps; }
    bool empty() const { return m_apps.empty(); }

private:
    std::set<std::string> m_apps; // lower-cased
};

std::string to_lower_ascii(std::string_view);
// `s` without the ASCII spaces, tabs and line breaks around it.
std::string_view trim_space(std::string_view s);

} // namespace nd_core

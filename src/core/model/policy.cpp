#include "core/model/element.h"
#include "core/model/policy.h"

#include <algorithm>
#include <array>
#include <cstddef>

namespace nd_core {

namespace {

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_lower(c) || is_upper(c) || is_digit(c); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_base64url(char c) { return is_alnum(c) || c == '-' || c == '_'; }
bool is_ascii_symbol(char c) { return c > ' ' && c < 0x7f && !is_alnum(c); }

char lower(char c) { return is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

bool starts_with_ci(std::string_view text, std::size_t at, std::string_view prefix)
{
    if (at + prefix.size() > text.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (lower(text[at + i]) != lower(prefix[i]))
            return false;
    return true;
}

std::size_t find_ci(std::string_view text, std::string_view needle, std::size_t from = 0)
{
    for (std::size_t i = from; i + needle.size() <= text.size(); ++i)
        if (starts_with_ci(text, i, needle))
            return i;
    return std::string_view::npos;
}

// A token starts at a word boundary: the text's start or a character that cannot belong to a key.
bool at_token_start(std::string_view text, std::size_t at)
{
    return at == 0 || !is_base64url(text[at - 1]);
}

template<typename Pred>
std::size_t run_length(std::string_view text, std::size_t at, Pred pred)
{
    std::size_t n = 0;
    while (at + n < text.size() && pred(text[at + n]))
        ++n;
    return n;
}

// "-----BEGIN RSA PRIVATE KEY-----", "-----BEGIN OPENSSH PRIVATE KEY-----",
// "-----BEGIN PGP PRIVATE KEY BLOCK-----", "-----BEGIN ENCRYPTED PRIVATE KEY-----" and the like.
// A BEGIN line that mentions PRIVATE KEY is enough: the body may be cut off and still be secret.
bool has_private_key_block(std::string_view text)
{
    for (std::size_t at = find_ci(text, "-----BEGIN "); at != std::string_view::npos;
         at = find_ci(text, "-----BEGIN ", at + 1)) {
        std::size_t end = text.find('\n', at);
        std::string_view line = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
        if (find_ci(line, "PRIVATE KEY") != std::string_view::npos)
            return true;
    }
    return false;
}

// Key words of "name=value" and "name: value" pairs. The name may carry a prefix ("db_password",
// "X-Auth-Token") or sit in quotes ("\"password\": \"...\"").
constexpr std::array<std::string_view, 19> PAIR_KEYS = {
    "password",      "passwd",        "passphrase",  "pwd",          "secret",
    "api_key",       "api-key",       "apikey",      "access_token", "access-token",
    "auth_token",    "refresh_token", "token",       "auth",         "authorization",
    "client_secret", "private_key",   "credentials", "cookie",
};

bool has_credential_pair(std::string_view text)
{
    for (std::string_view key : PAIR_KEYS) {
        for (std::size_t at = find_ci(text, key); at != std::string_view::npos; at = find_ci(text, key, at + 1)) {
            // The key must end here: "authority=" and "tokens:" are other words.
            std::size_t i = at + key.size();
            if (i < text.size() && is_alnum(text[i]))
                continue;
            // Left side: any non-letter, so "db_password" and "X-Auth-Token" count but "compassword" not.
            if (at > 0 && (is_lower(lower(text[at - 1]))))
                continue;
            if (i < text.size() && (text[i] == '"' || text[i] == '\''))
                ++i;
            while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
                ++i;
            if (i >= text.size() || (text[i] != '=' && text[i] != ':'))
                continue;
            ++i;
            while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '"' || text[i] == '\''))
                ++i;
            // A non-empty value: something other than an end of line, a separator or a closing bracket.
            if (i < text.size() && !is_space(text[i]) && text[i] != ',' && text[i] != ';' && text[i] != '}'
                && text[i] != '&')
                return true;
        }
    }
    return false;
}

// scheme://user:password@host
bool has_url_password(std::string_view text)
{
    for (std::size_t at = text.find("://"); at != std::string_view::npos; at = text.find("://", at + 3)) {
        std::size_t i = at + 3;
        std::size_t colon = std::string_view::npos;
        for (; i < text.size() && !is_space(text[i]) && text[i] != '/' && text[i] != '?' && text[i] != '#'; ++i) {
            if (text[i] == ':' && colon == std::string_view::npos)
                colon = i;
            if (text[i] == '@') {
                if (colon != std::string_view::npos && colon > at + 3 && i > colon + 1)
                    return true;
                break;
            }
        }
    }
    return false;
}

struct TokenPrefix {
    std::string_view prefix;
    std::size_t min_body; // characters after the prefix
    bool (*body_char)(char);
    std::string_view rule;
};

bool body_alnum(char c) { return is_alnum(c); }
bool body_base64url(char c) { return is_base64url(c); }
bool body_upper_alnum(char c) { return is_upper(c) || is_digit(c); }

// Known secret prefixes. Stripe's publishable keys (pk_live_, pk_test_) are public by design, but
// they are refused too: they sit next to secret keys in pasted config and refusing one costs the
// model nothing it needs, while the contract asks the heuristic to err towards refusing.
constexpr std::array<TokenPrefix, 23> TOKEN_PREFIXES = {{
    {"github_pat_", 20, body_base64url, "github_token"},
    {"ghp_", 20, body_alnum, "github_token"},
    {"gho_", 20, body_alnum, "github_token"},
    {"ghu_", 20, body_alnum, "github_token"},
    {"ghs_", 20, body_alnum, "github_token"},
    {"ghr_", 20, body_alnum, "github_token"},
    {"glpat-", 20, body_base64url, "gitlab_token"},
    {"xoxb-", 10, body_base64url, "slack_token"},
    {"xoxp-", 10, body_base64url, "slack_token"},
    {"xoxa-", 10, body_base64url, "slack_token"},
    {"xoxs-", 10, body_base64url, "slack_token"},
    {"xapp-", 10, body_base64url, "slack_token"},
    {"sk-", 20, body_base64url, "openai_key"}, // also sk-proj-, sk-ant-: '-' is a body character
    {"sk_live_", 10, body_alnum, "stripe_key"},
    {"sk_test_", 10, body_alnum, "stripe_key"},
    {"rk_live_", 10, body_alnum, "stripe_key"},
    {"rk_test_", 10, body_alnum, "stripe_key"},
    {"pk_live_", 10, body_alnum, "stripe_key"},
    {"pk_test_", 10, body_alnum, "stripe_key"},
    {"whsec_", 20, body_alnum, "stripe_key"},
    {"AIza", 35, body_base64url, "google_api_key"},
    {"AKIA", 16, body_upper_alnum, "aws_access_key_id"},
    {"ASIA", 16, body_upper_alnum, "aws_access_key_id"},
}};

std::string_view match_token_prefix(std::string_view text)
{
    for (const TokenPrefix& p : TOKEN_PREFIXES) {
        for (std::size_t at = text.find(p.prefix); at != std::string_view::npos; at = text.find(p.prefix, at + 1)) {
            if (!at_token_start(text, at))
                continue;
            std::size_t body = at + p.prefix.size();
            std::size_t n = run_length(text, body, p.body_char);
            // Generated keys mix in digits or capitals; a hyphenated word such as
            // "sk-learn-compatible-estimators" does not.
            bool random = std::any_of(text.begin() + static_cast<std::ptrdiff_t>(body),
                                      text.begin() + static_cast<std::ptrdiff_t>(body + n),
                                      [](char c) { return is_digit(c) || is_upper(c); });
            if (n >= p.min_body && random)
                return p.rule;
        }
    }
    return {};
}

// header.payload.signature, base64url, the header a JSON object ("eyJ" is base64 of "{\"").
// The signature may be empty (alg "none"), so only its dot is required.
bool has_json_web_token(std::string_view text)
{
    for (std::size_t at = text.find("eyJ"); at != std::string_view::npos; at = text.find("eyJ", at + 1)) {
        if (!at_token_start(text, at))
            continue;
        std::size_t header = run_length(text, at, is_base64url);
        std::size_t i = at + header;
        if (header < 10 || i >= text.size() || text[i] != '.')
            continue;
        std::size_t payload = run_length(text, i + 1, is_base64url);
        i += 1 + payload;
        if (payload >= 4 && i < text.size() && text[i] == '.')
            return true;
    }
    return false;
}

bool looks_like_url_or_email(std::string_view word)
{
    std::size_t scheme = word.find("://");
    if (scheme != std::string_view::npos && scheme > 0
        && std::all_of(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(scheme),
                       [](char c) { return is_alnum(c) || c == '+' || c == '.' || c == '-'; }))
        return true;
    std::size_t at = word.find('@');
    if (at == std::string_view::npos || at == 0 || word.find('@', at + 1) != std::string_view::npos)
        return false;
    std::string_view domain = word.substr(at + 1);
    std::size_t dot = domain.rfind('.');
    return dot != std::string_view::npos && dot > 0 && dot + 3 <= domain.size()
        && std::all_of(domain.begin(), domain.end(), [](char c) { return is_alnum(c) || c == '.' || c == '-'; })
        && std::all_of(domain.begin() + static_cast<std::ptrdiff_t>(dot) + 1, domain.end(), is_lower);
}

// A clipboard holding one 16–512 character word that mixes at least three of lower case, upper
// case, digits and symbols: a copied password or key. Length counts code points, not bytes.
bool is_secret_looking_word(std::string_view text)
{
    std::string_view word = trim_space(text);
    std::size_t code_points = 0;
    bool has_lower = false, has_upper = false, has_digit = false, has_symbol = false;
    for (char c : word) {
        if (is_space(c))
            return false;
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80)
            ++code_points;
        has_lower |= is_lower(c);
        has_upper |= is_upper(c);
        has_digit |= is_digit(c);
        has_symbol |= is_ascii_symbol(c);
    }
    if (code_points < 16 || code_points > 512)
        return false;
    int classes = int(has_lower) + int(has_upper) + int(has_digit) + int(has_symbol);
    return classes >= 3 && !looks_like_url_or_email(word);
}

} // namespace

std::string_view trim_space(std::string_view s)
{
    while (!s.empty() && is_space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && is_space(s.back()))
        s.remove_suffix(1);
    return s;
}

std::string to_lower_ascii(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = lower(c);
    return out;
}

namespace {

// Whether `hay` holds `lower_needle` in any ASCII case, without a lowered copy (this runs for
// every row of every read).
bool contains_ascii_ci(std::string_view hay, std::string_view lower_needle)
{
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower_needle.size() > hay.size())
        return false;
    for (std::size_t i = 0; i + lower_needle.size() <= hay.size(); ++i) {
        std::size_t k = 0;
        while (k < lower_needle.size() && lower(hay[i + k]) == lower_needle[k])
            ++k;
        if (k == lower_needle.size())
            return true;
    }
    return false;
}

} // namespace

bool is_secure_element(std::string_view role, std::uint32_t states)
{
    if (states & STATE_SECURE)
        return true;
    // Roles that are secure by nature on any platform: AT-SPI password_text, macOS
    // AXSecureTextField (secure_text_field), UIA IsPassword edits mapped to password_*. Any role
    // that says password or secure counts, so a new platform's spelling errs towards secure.
    return contains_ascii_ci(role, "password") || contains_ascii_ci(role, "secure");
}

CredentialVerdict looks_like_credential(std::string_view text, bool clipboard)
{
    if (has_private_key_block(text))
        return {true, "private_key"};
    if (std::string_view rule = match_token_prefix(text); !rule.empty())
        return {true, rule};
    if (has_json_web_token(text))
        return {true, "json_web_token"};
    if (has_credential_pair(text))
        return {true, "credential_pair"};
    if (has_url_password(text))
        return {true, "url_password"};
    if (clipboard && is_secret_looking_word(text))
        return {true, "secret_looking_word"};
    return {};
}

namespace {

std::string normalize_app(std::string_view app) { return to_lower_ascii(trim_space(app)); }

} // namespace

AppScope::AppScope(std::set<std::string> apps)
{
    // The scope is explicit: "*" and empty names are dropped, never read as "every app".
    for (const std::string& app : apps) {
        std::string name = normalize_app(app);
        if (!name.empty() && name != "*")
            m_apps.insert(std::move(name));
    }
}

bool AppScope::allows(std::string_view app) const
{
    std::string name = normalize_app(app);
    return !name.empty() && m_apps.contains(name);
}

bool AppScope::allows(const WindowInfo& w) const
{
    if (allows(w.app) || allows(w.executable) || allows(w.process))
        return true;
    // "org.gnome.Nautilus": two dots at least, the last part a word of its own.
    const auto id = trim_space(w.app);
    const auto last = id.rfind('.');
    const bool reverse_dns = last != std::string_view::npos && id.find('.') < last && last + 1 < id.size() &&
                             id.find(' ') == std::string_view::npos;
    return reverse_dns && allows(id.substr(last + 1));
}

} // namespace nd_core

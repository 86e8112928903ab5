#include "core/model/element.h"
#include "core/model/policy.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using nd_core::looks_like_credential;

struct Case {
    const char* text;
    bool clipboard;
    const char* rule; // nullptr: not a credential
};

// Token-shaped literals are split ("gh" "p_...") so that secret scanners do not flag this file;
// the compiler joins them back. None of them is a real key.
const Case CASES[] = {
    // Private key blocks.
    {"-----BEGIN RSA PRIVATE KEY-----\nMIIEow...\n-----END RSA PRIVATE KEY-----", false, "private_key"},
    {"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA", false, "private_key"},
    {"-----BEGIN PGP PRIVATE KEY BLOCK-----", false, "private_key"},
    {"here: -----BEGIN ENCRYPTED PRIVATE KEY----- (cut)", false, "private_key"},
    {"-----BEGIN private key-----", false, "private_key"},
    // Pairs.
    {"password=hunter2", false, "credential_pair"},
    {"PASSWORD = hunter2", false, "credential_pair"},
    {"passwd: s3cret", false, "credential_pair"},
    {"pwd=abc", false, "credential_pair"},
    {"secret: value", false, "credential_pair"},
    {"api_key=1234", false, "credential_pair"},
    {"ApiKey: xyz", false, "credential_pair"},
    {"access_token=abc.def", false, "credential_pair"},
    {"token: abcdef", false, "credential_pair"},
    {"Auth: Basic dXNlcjpwYXNz", false, "credential_pair"},
    {"client_secret=shh", false, "credential_pair"},
    {"DB_PASSWORD=hunter2", false, "credential_pair"},
    {"{\"password\": \"hunter2\"}", false, "credential_pair"},
    {"https://example.com/cb?code=1&access_token=abcdef", false, "credential_pair"},
    {"X-Auth-Token: 12345", false, "credential_pair"},
    {"Authorization: Bearer abc123", false, "credential_pair"},
    {"Cookie: sessionid=abc", false, "credential_pair"},
    // Passwords inside URLs.
    {"postgres://admin:hunter2@db.example.com/app", false, "url_password"},
    // Known token prefixes.
    {"gh" "p_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", false, "github_token"},
    {"export GH_TOKEN=gh" "s_0123456789abcdefghijABCDEFGHIJ", false, "github_token"},
    {"github" "_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", false, "github_token"},
    {"gl" "pat-AbCdEfGhIj0123456789", false, "gitlab_token"},
    {"xo" "xb-1234567890-0987654321-AbCdEfGhIjKl", false, "slack_token"},
    {"xa" "pp-1-A0123456789-0123456789-abcdef", false, "slack_token"},
    {"s" "k-AbCdEfGhIjKlMnOpQrSt0123456789uvwxyz", false, "openai_key"},
    {"s" "k-proj-AbCdEfGhIjKlMnOpQrSt0123456789", false, "openai_key"},
    {"s" "k_live_51AbCdEfGh0123456789", false, "stripe_key"},
    {"r" "k_test_51AbCdEfGh0123456789", false, "stripe_key"},
    {"p" "k_live_51AbCdEfGh0123456789", false, "stripe_key"},
    {"key=AI" "zaSyA-1234567890abcdefghijklmnopqrstu", false, "google_api_key"},
    {"AK" "IAIOSFODNN7EXAMPLE", false, "aws_access_key_id"},
    {"id AS" "IAABCDEFGHIJ012345 in prose", false, "aws_access_key_id"},
    // JSON web tokens, with and without a signature.
    {"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", false, "json_web_token"},
    {"eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.", false, "json_web_token"},
    // Single secret-looking words on the clipboard.
    {"Tr0ub4dor&3xyzzyQ", true, "secret_looking_word"},
    {"  aB3dE6gH9jK2mN5p\n", true, "secret_looking_word"},
    {"correct-horse-battery-7", true, "secret_looking_word"},

    // Not credentials.
    {"", false, nullptr},
    {"hello", true, nullptr},
    {"The quick brown fox jumps over the lazy dog.", false, nullptr},
    {"Meeting moved to 3pm, see you there!", true, nullptr},
    {"Please reset your password in the settings page.", false, nullptr},
    {"The token bucket refills every second", false, nullptr},
    {"Author: Jane Doe", false, nullptr},
    {"authority=local", false, nullptr},
    {"password=", false, nullptr},
    {"password: ", false, nullptr},
    {"https://example.com/docs/getting-started?lang=en", true, nullptr},
    {"https://github.com/owner/repo/pull/42", true, nullptr},
    {"John.Doe42@example.com", true, nullptr},
    {"1234567890123456789", true, nullptr},
    {"42", true, nullptr},
    {"Straße", true, nullptr},
    {"superlongwordwithoutanythingelse", true, nullptr},
    {"Tr0ub4dor&3xyzzyQ", false, nullptr}, // a secret-looking word counts only on the clipboard
    {"Short1!", true, nullptr},
    {"pip install sk-learn-compatible-estimators", false, nullptr},
    {"the task-runner-for-all-our-projects-here", false, nullptr},
    {"AKIA is a prefix AWS uses", false, nullptr},
    {"eyJ alone is not a token", false, nullptr},
    {"Use the ghp_ prefix for personal tokens", false, nullptr},
    {"ssh://host.example.com:22/repo.git", true, nullptr},
};

TEST(PolicyTest, CredentialTable)
{
    int positives = 0, negatives = 0;
    for (const Case& c : CASES) {
        auto verdict = looks_like_credential(c.text, c.clipboard);
        SCOPED_TRACE(std::string("text: ") + c.text + (c.clipboard ? " (clipboard)" : ""));
        if (c.rule) {
            ++positives;
            EXPECT_TRUE(verdict.credential);
            EXPECT_EQ(verdict.rule, c.rule);
        } else {
            ++negatives;
            EXPECT_FALSE(verdict.credential);
            EXPECT_EQ(verdict.rule, "");
        }
    }
    EXPECT_GE(positives, 20);
    EXPECT_GE(negatives, 20);
}

TEST(PolicyTest, ClipboardWordLengthBounds)
{
    std::string base = "aB3";
    auto word = [&](std::size_t n) {
        std::string w;
        while (w.size() < n)
            w += base;
        return w.substr(0, n);
    };
    EXPECT_FALSE(looks_like_credential(word(15), true).credential);
    EXPECT_TRUE(looks_like_credential(word(16), true).credential);
    EXPECT_TRUE(looks_like_credential(word(512), true).credential);
    EXPECT_FALSE(looks_like_credential(word(513), true).credential);
    // Two classes only.
    EXPECT_FALSE(looks_like_credential("abcdefgh12345678", true).credential);
}

TEST(PolicyTest, SecureElements)
{
    using nd_core::is_secure_element;
    EXPECT_TRUE(is_secure_element("password_text", 0));
    EXPECT_TRUE(is_secure_element("secure_text", 0));
    EXPECT_TRUE(is_secure_element("secure_text_field", 0));
    EXPECT_TRUE(is_secure_element("Password_Box", 0));
    EXPECT_TRUE(is_secure_element("text", nd_core::STATE_SECURE));
    EXPECT_TRUE(is_secure_element("", nd_core::STATE_SECURE | nd_core::STATE_EDITABLE));
    EXPECT_FALSE(is_secure_element("text", nd_core::STATE_EDITABLE | nd_core::STATE_FOCUSED));
    EXPECT_FALSE(is_secure_element("push_button", 0));
    EXPECT_FALSE(is_secure_element("", 0));

    nd_core::Element e;
    e.role = "entry";
    EXPECT_FALSE(e.secure());
    e.states = nd_core::STATE_SECURE;
    EXPECT_TRUE(e.secure());
}

TEST(PolicyTest, AppScope)
{
    nd_core::AppScope scope({"Slack", " gedit ", "*", ""});
    EXPECT_TRUE(scope.allows("slack"));
    EXPECT_TRUE(scope.allows("SLACK"));
    EXPECT_TRUE(scope.allows("Gedit"));
    EXPECT_FALSE(scope.allows("Firefox"));
    EXPECT_FALSE(scope.allows("*"));
    EXPECT_FALSE(scope.allows(""));
    EXPECT_FALSE(scope.allows("slack2"));
    EXPECT_EQ(scope.apps().size(), 2u);

    nd_core::AppScope everything({"*"});
    EXPECT_TRUE(everything.empty());
    EXPECT_FALSE(everything.allows("slack"));
    EXPECT_FALSE(nd_core::AppScope().allows("slack"));
}

// A window's app is its class, which GNOME apps set to their application id: a person's "nautilus"
// finds "org.gnome.Nautilus" by the id's last part and by the process's executable, and a person's
// "thunderbird" finds the class "thunderbird-default" of thunderbird-bin by the name its process
// was started under.
TEST(PolicyTest, AWindowIsInScopeByItsClassItsExecutableItsProcessOrItsIdsLastPart)
{
    nd_core::AppScope scope({"nautilus", "soffice.bin", "StackPages", "Thunderbird"});
    auto window = [](std::string app, std::string executable, std::string process = {}) {
        nd_core::WindowInfo w;
        w.app = std::move(app);
        w.executable = std::move(executable);
        w.process = std::move(process);
        return w;
    };
    EXPECT_TRUE(scope.allows(window("thunderbird-default", "thunderbird-bin", "thunderbird")));
    EXPECT_FALSE(scope.allows(window("thunderbird-default", "thunderbird-bin", "thunderbird-bin")));
    EXPECT_FALSE(scope.allows(window("thunderbird-default", "thunderbird-bin", "")));
    EXPECT_FALSE(scope.allows(window("gedit", "gedit", "thunder")));
    EXPECT_TRUE(scope.allows(window("org.gnome.Nautilus", "nautilus")));
    EXPECT_TRUE(scope.allows(window("org.gnome.Nautilus", "")));
    EXPECT_TRUE(scope.allows(window("libreoffice-calc", "soffice.bin")));
    EXPECT_TRUE(scope.allows(window("org.nish.StackPages", "python3.11")));
    EXPECT_TRUE(scope.allows(window("Nautilus", "")));
    // One dot is a file name, not an id; a part before the last is not the app; spaces are a title's.
    EXPECT_FALSE(scope.allows(window("x.nautilus", "")));
    EXPECT_FALSE(scope.allows(window("org.nautilus.Files", "")));
    EXPECT_FALSE(scope.allows(window("org.gnome.", "")));
    EXPECT_FALSE(scope.allows(window("my app.org.nautilus", "")));
    EXPECT_FALSE(scope.allows(window("gedit", "gedit")));
    EXPECT_FALSE(scope.allows(window("", "")));
    EXPECT_FALSE(nd_core::AppScope({"*"}).allows(window("org.gnome.Nautilus", "nautilus")));
}

TEST(PolicyTest, ToLowerAscii)
{
    EXPECT_EQ(nd_core::to_lower_ascii("AbC-123 ÄÖ"), "abc-123 ÄÖ");
    EXPECT_EQ(nd_core::to_lower_ascii(""), "");
}

} // namespace

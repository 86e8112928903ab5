// Golden dumps of real apps (in the manner of Chromium's ui/accessibility dump tests): what the
// model reads of an app, kept in tests/linux/golden/<name>-expected-linux.txt, so that a change in
// the reader, the views or the text rendering shows up as a diff of lines a person can judge.
//
// Only the stable part is kept: the skeleton text without the window id, pid and snapshot id, and
// outlines of subtrees with role, name and the states an app's start-up fixes (selected, checked,
// expanded, disabled, secure), never values, frames, tokens or focus.
//
// NISH_UPDATE_GOLDENS=1 writes the files from what the apps show instead of comparing.

#include "tool_test_support.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace {

using nd_test::json;
using nd_test::OwnedApp;

std::vector<std::string> split_lines(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// A line diff of expected against actual (longest common subsequence; goldens are short), with
// three lines of context around each change.
std::string line_diff(const std::vector<std::string>& a, const std::vector<std::string>& b)
{
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::vector<std::size_t>> lcs(n + 1, std::vector<std::size_t>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = m; j-- > 0;)
            lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    struct Line {
        char op;
        const std::string* text;
    };
    std::vector<Line> script;
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[i] == b[j]) {
            script.push_back({' ', &a[i]});
            ++i, ++j;
        } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
            script.push_back({'-', &a[i++]});
        } else {
            script.push_back({'+', &b[j++]});
        }
    }
    constexpr std::size_t CONTEXT = 3;
    std::vector<bool> show(script.size(), false);
    for (std::size_t k = 0; k < script.size(); ++k)
        if (script[k].op != ' ')
            for (std::size_t c = k >= CONTEXT ? k - CONTEXT : 0; c <= std::min(script.size() - 1, k + CONTEXT); ++c)
                show[c] = true;
    std::string out = "--- expected\n+++ actual\n";
    bool gap = true;
    for (std::size_t k = 0; k < script.size(); ++k) {
        if (!show[k]) {
            gap = true;
            continue;
        }
        if (gap)
            out += "@@\n";
        gap = false;
        out += script[k].op;
        out += *script[k].text;
        out += '\n';
    }
    return out;
}

std::filesystem::path golden_path(const std::string& name)
{
    return std::filesystem::path(NISH_SOURCE_DIR) / "tests/linux/golden" / (name + "-expected-linux.txt");
}

void expect_golden(const std::string& name, const std::string& actual)
{
    const auto path = golden_path(name);
    const char* update = std::getenv("NISH_UPDATE_GOLDENS");
    if (update && std::string(update) == "1") {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << actual;
        ASSERT_TRUE(out.good()) << "could not write " << path;
        std::cout << "[golden] wrote " << path << "\n";
        return;
    }
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in.good()) << "no golden file " << path << "; NISH_UPDATE_GOLDENS=1 writes it from:\n" << actual;
    std::stringstream expected;
    expected << in.rdbuf();
    if (expected.str() == actual)
        return;
    ADD_FAILURE() << name << " differs from " << path.filename()
                  << " (NISH_UPDATE_GOLDENS=1 rewrites it, if the change is right):\n"
                  << line_diff(split_lines(expected.str()), split_lines(actual));
}

// The skeleton's text without what changes from run to run (window id, pid, snapshot id).
std::string stable_skeleton(const nd_test::ToolReply& skeleton)
{
    static const std::regex header("^window [0-9]+ pid [0-9]+ snapshot s[0-9]+ ");
    return std::regex_replace(skeleton.text, header, "", std::regex_constants::format_first_only);
}

// One line per row of a full view: indent by depth, role, name, and the states an app's start-up
// fixes.
std::string outline(const json& view)
{
    std::string out;
    for (const auto& row : view["elements"]) {
        out.append(static_cast<std::size_t>(row["depth"].get<int>()) * 2, ' ');
        out += row["role"].get<std::string>() + " " + json(row["name"]).dump();
        std::vector<std::string> words;
        // Compared as std::string: GCC 12 at -O3 warns falsely (-Warray-bounds) on json == const char*.
        const auto st = row["states"].get<std::vector<std::string>>();
        auto has = [&](const std::string& s) { return std::find(st.begin(), st.end(), s) != st.end(); };
        for (const auto* word : {"selected", "checked", "expanded", "secure"})
            if (has(word))
                words.push_back(word);
        if (!has("enabled"))
            words.push_back("disabled");
        for (std::size_t k = 0; k < words.size(); ++k)
            out += (k ? ", " : " (") + words[k] + (k + 1 == words.size() ? ")" : "");
        out += '\n';
    }
    return out;
}

class Golden : public nd_test::LinuxToolTest {
protected:
    nd_test::ToolReply skeleton(const json& window)
    {
        auto r = call("get_window_state", {{"window_id", window["window_id"]}, {"skeleton", true}});
        EXPECT_FALSE(r.is_error) << r.text;
        return r;
    }
};

TEST(GoldenDiff, ShowsChangedLinesWithContext)
{
    const std::vector<std::string> a{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"};
    std::vector<std::string> b = a;
    b[1] = "two";
    b.push_back("11");
    const auto d = line_diff(a, b);
    EXPECT_NE(d.find("-2\n+two\n"), std::string::npos) << d;
    EXPECT_NE(d.find("+11\n"), std::string::npos) << d;
    EXPECT_NE(d.find(" 5\n"), std::string::npos) << d;
    EXPECT_EQ(d.find(" 6\n"), std::string::npos) << "line 6 is more than three lines from a change:\n" << d;
    EXPECT_EQ(line_diff(a, a), "--- expected\n+++ actual\n");
}

// A directory that removes itself, with an empty folder "home" in it.
class TempHome {
public:
    TempHome()
    {
        std::string dir = (std::filesystem::temp_directory_path() / "nish-golden-XXXXXX").string();
        if (::mkdtemp(dir.data()) == nullptr)
            return;
        m_dir = dir;
        std::filesystem::create_directory(m_dir / "home");
    }
    ~TempHome()
    {
        std::error_code ec;
        if (!m_dir.empty())
            std::filesystem::remove_all(m_dir, ec);
    }
    TempHome(const TempHome&) = delete;
    TempHome& operator=(const TempHome&) = delete;
    bool ok() const { return !m_dir.empty(); }
    std::string home() const { return (m_dir / "home").string(); }

private:
    std::filesystem::path m_dir;
};

TEST_F(Golden, Gtk3WidgetFactory)
{
    // The file chooser button lists the home folder by its name: always "home" here.
    TempHome home;
    ASSERT_TRUE(home.ok());
    OwnedApp app({"gtk3-widget-factory"}, {"HOME=" + home.home()});
    auto window = wait_for_window(app, "gtk3-widget-factory", 200, std::chrono::seconds(20));
    ASSERT_FALSE(window.is_null());
    auto sk = skeleton(window);
    std::string dump = "# gtk3-widget-factory: get_window_state skeleton: true\n" + stable_skeleton(sk);
    // The four alike notebooks fold into one skeleton row; a drill-down reads the first and the last.
    int notebooks = 0;
    for (const auto& row : sk.s["elements"]) {
        if (row["role"] != "page_tab_list")
            continue;
        ASSERT_TRUE(row.contains("alike")) << row.dump();
        notebooks += row["alike"]["count"].get<int>();
        const auto first = row["element_index"].get<int>();
        const auto last = row["alike"]["last_index"].get<int>();
        for (int index : {first, last}) {
            auto tabs = call("get_window_state",
                {{"root", sk.s["snapshot_id"].get<std::string>() + ":" + std::to_string(index)}});
            ASSERT_FALSE(tabs.is_error) << tabs.text;
            dump += "# notebook [" + std::to_string(index) + "]: get_window_state root\n" + outline(tabs.s);
        }
    }
    EXPECT_EQ(notebooks, 4);
    dump += "# the whole window: get_window_state max_elements: 5000\n" + outline(read_all(window));
    expect_golden("gtk3-widget-factory", dump);
}

TEST_F(Golden, ZenityPasswordDialog)
{
    OwnedApp app({"zenity", "--password", "--title", "Unlock"});
    auto window = wait_for_window(app, "zenity", 5, std::chrono::seconds(20));
    ASSERT_FALSE(window.is_null());
    std::string dump = "# zenity --password: get_window_state skeleton: true\n" + stable_skeleton(skeleton(window));
    auto all = read_all(window);
    dump += "# the whole dialog: get_window_state\n" + outline(all);
    expect_golden("zenity-password", dump);
}

} // namespace

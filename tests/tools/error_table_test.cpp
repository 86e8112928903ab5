// every_error_code_has_a_disposition (contract §2.2): scans the sources for the codes they emit and
// checks them against the one table; and the generated docs match the committed copies.

#include "core/errors.h"
#include "driver/docs_gen.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace {

std::string read_file(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::set<std::string> emitted_codes()
{
    std::set<std::string> codes;
    const std::regex use(R"(ErrorCode::([a-z_]+))");
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(NISH_SOURCE_DIR) + "/src")) {
        const auto ext = entry.path().extension();
        if (ext != ".cpp" && ext != ".h")
            continue;
        auto text = read_file(entry.path());
        for (std::sregex_iterator it(text.begin(), text.end(), use), end; it != end; ++it)
            if ((*it)[1] != "code") // the X-macro's parameter in errors.cpp
                codes.insert((*it)[1]);
    }
    return codes;
}

TEST(ErrorTable, every_error_code_has_a_disposition)
{
    auto codes = emitted_codes();
    ASSERT_GT(codes.size(), 10u);
    for (const auto& code : codes) {
        auto parsed = nd_core::error_code_from_name(code);
        ASSERT_TRUE(parsed.has_value()) << "emitted code " << code << " is not in errors.def";
        const auto& info = nd_core::error_info(*parsed);
        EXPECT_FALSE(info.suggestion.empty()) << code;
        EXPECT_EQ(info.suggestion.back(), '.') << code;
    }
}

TEST(ErrorTable, ContractCodesArePresent)
{
    for (auto code : {"ambiguous_target", "ambiguous_window_target", "window_target_not_found", "invalid_arguments",
             "capability_not_consented", "requires_takeover", "unsupported", "user_took_over", "stale_element_token",
             "consent_expired", "unknown_method"})
        EXPECT_TRUE(nd_core::error_code_from_name(code).has_value()) << code;
    EXPECT_EQ(nd_core::error_info(nd_core::ErrorCode::user_took_over).suggestion,
        "The person took control. Wait for them to click Continue, then start again.");
    EXPECT_EQ(nd_core::retry_name(nd_core::error_info(nd_core::ErrorCode::stale_element_token).retry), "after_refresh");
}

TEST(ErrorTable, EveryTableCodeIsEmittedSomewhere)
{
    auto codes = emitted_codes();
    for (const auto& row : nd_core::error_table()) {
        // unknown_method belongs to the daemon socket and the control pipe, which answer it by name.
        if (row.name == "unknown_method")
            continue;
        EXPECT_TRUE(codes.count(std::string(row.name))) << row.name << " is in the table but nothing emits it";
    }
}

TEST(GeneratedDocs, MatchTheCommittedCopies)
{
    const std::string docs = std::string(NISH_SOURCE_DIR) + "/docs/";
    EXPECT_EQ(read_file(docs + "errors.md"), nd_driver::errors_markdown())
        << "docs/errors.md is stale: run build/bin/nish-docgen --write docs";
    EXPECT_EQ(read_file(docs + "tools.md"), nd_driver::tools_markdown())
        << "docs/tools.md is stale: run build/bin/nish-docgen --write docs";
    EXPECT_EQ(read_file(docs + "act-actions.md"), nd_driver::act_actions_markdown())
        << "docs/act-actions.md is stale: run build/bin/nish-docgen --write docs";
}

} // namespace

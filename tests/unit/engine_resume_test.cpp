// Engine::pause / Engine::resume on the mock (§4.3), below the driver: what the audit log records
// for a pause and a resume (session, reason, by, at_ms; never keys or positions), and the overlay's
// Continue handler that the engine wires up and unwires.

#include "core/engine/engine.h"

#include "backend/mock/mock_backend.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <memory>

using namespace nd_core;
using nd_mock::MockBackend;
namespace fs = std::filesystem;

namespace {

class EngineResumeTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        auto loaded = MockBackend::load(MockBackend::default_fixture_dir());
        ASSERT_TRUE(loaded.ok()) << loaded.error().text();
        mock = std::move(loaded).value();
        audit = std::make_unique<AuditLog>((m_dir / "audit.jsonl").string());
        engine = std::make_unique<Engine>(*mock, consent, *audit);
        SessionRequest r;
        r.apps = std::vector<std::string>{"Settings"};
        r.input = InputMode::takeover;
        auto started = engine->start_session(r);
        ASSERT_TRUE(started.ok()) << started.error().text();
    }
    void TearDown() override
    {
        engine.reset();
    }

    std::vector<nlohmann::json> lines(std::string_view event)
    {
        std::vector<nlohmann::json> out;
        std::ifstream in(m_dir / "audit.jsonl");
        for (std::string line; std::getline(in, line);) {
            auto j = nlohmann::json::parse(line);
            if (j["event"] == event)
                out.push_back(j);
        }
        return out;
    }

    Session& session() { return *engine->live_session().value(); }

    nd_test::TempDir m_tmp{"nd-resume"};
    fs::path m_dir = m_tmp.path;
    std::unique_ptr<MockBackend> mock;
    AutoConsent consent;
    std::unique_ptr<AuditLog> audit;
    std::unique_ptr<Engine> engine;
};

TEST_F(EngineResumeTest, AuditRecordsWhoResumedAndNothingElse)
{
    engine->pause(session(), "pointer_moved");
    const auto id = session().id;
    auto resumed = engine->resume(ResumeBy::host);
    ASSERT_TRUE(resumed.has_value());
    EXPECT_EQ(*resumed, id);

    auto paused = lines("takeover.paused");
    ASSERT_EQ(paused.size(), 1u);
    EXPECT_EQ(paused[0]["session"], id);
    EXPECT_EQ(paused[0]["reason"], "pointer_moved");
    auto r = lines("takeover.resumed");
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0]["session"], id);
    EXPECT_EQ(r[0]["by"], "host");
    EXPECT_TRUE(r[0]["at_ms"].is_number_integer());
    EXPECT_GE(r[0]["at_ms"].get<std::int64_t>(), paused[0]["at_ms"].get<std::int64_t>());
    // Only the fixed fields: no positions, keys or characters.
    for (const auto& [key, value] : r[0].items())
        EXPECT_TRUE(key == "time" || key == "at_ms" || key == "event" || key == "session" || key == "outcome"
            || key == "by")
            << key;
}

TEST_F(EngineResumeTest, ResumeDoesNotExtendTheLeaseOrTouchAnUnpausedSession)
{
    const auto lease = session().lease_expires_ms;
    EXPECT_FALSE(engine->resume(ResumeBy::indicator).has_value());
    engine->pause(session(), "key_pressed");
    EXPECT_TRUE(engine->resume(ResumeBy::indicator).has_value());
    EXPECT_EQ(session().lease_expires_ms, lease);
    EXPECT_FALSE(session().takeover.paused);
    EXPECT_FALSE(session().takeover.paused_reason.has_value());
    EXPECT_EQ(lines("takeover.resumed").size(), 1u);
}

TEST_F(EngineResumeTest, ContinueHandlerIsWiredAndUnwired)
{
    engine->pause(session(), "button_pressed");
    EXPECT_TRUE(mock->indicator_paused());
    EXPECT_TRUE(mock->click_continue());
    EXPECT_FALSE(session().takeover.paused);
    EXPECT_EQ(lines("takeover.resumed").at(0)["by"], "indicator");
    // Once the engine is gone the button calls nothing.
    engine->pause(session(), "button_pressed");
    engine.reset();
    EXPECT_FALSE(mock->click_continue());
}

} // namespace

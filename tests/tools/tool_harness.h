#pragma once

// Tier-2 harness: the real dispatcher, engine and mock backend, called the way the MCP server calls
// them (ToolHost::call_tool), with results parsed back from their serialized form.

#include "backend/mock/mock_backend.h"
#include "core/engine/audit.h"
#include "core/backend/consent.h"
#include "core/engine/engine.h"
#include "driver/dispatcher.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace nd_test {

// A host that approves every call it is asked about (clipboard_read needs one per call).
class ApproveAll final : public nd_driver::ApprovalGate {
public:
    bool approve_reads() const override { return false; }
    nd_driver::ApprovalOutcome ask(const nd_driver::ApprovalAsk&) override { return nd_driver::ApprovalOutcome::approved; }
};

struct Reply {
    bool is_error = false;
    nlohmann::json structured;
    std::string text;
    bool has_image = false;
    std::string image_base64;

    std::string code() const { return is_error ? structured["error"]["code"].get<std::string>() : std::string(); }
    std::string retry() const
    {
        return is_error ? structured["error"]["disposition"]["retry"].get<std::string>() : std::string();
    }
};

class ToolHarness {
public:
    explicit ToolHarness(bool auto_consent = true)
        : m_audit("")
    {
        auto backend = nd_mock::MockBackend::load(nd_mock::MockBackend::default_fixture_dir());
        if (!backend.ok())
            throw std::runtime_error(backend.error().text());
        m_backend = std::move(backend).value();
        nd_core::ConsentProvider& consent = auto_consent ? static_cast<nd_core::ConsentProvider&>(m_auto)
                                                         : static_cast<nd_core::ConsentProvider&>(m_scripted);
        nd_core::EngineOptions options;
        options.settle_interval = std::chrono::milliseconds(1);
        options.settle_timeout = std::chrono::milliseconds(100);
        options.settle_quiet = std::chrono::milliseconds(10);
        m_engine = std::make_unique<nd_core::Engine>(*m_backend, consent, m_audit, options);
        m_dispatcher = std::make_unique<nd_driver::Dispatcher>(*m_engine);
        m_dispatcher->set_approvals(&m_approve_all);
    }

    Reply call(std::string_view tool, const nlohmann::json& args = nlohmann::json::object())
    {
        nd_mcp::CallContext ctx;
        auto out = m_dispatcher->call_tool(tool, args, ctx);
        Reply r;
        r.is_error = out.is_error;
        r.structured = nlohmann::json::parse(out.structured);
        r.text = out.text;
        r.has_image = out.image.has_value();
        if (out.image)
            r.image_base64 = out.image->data_base64;
        return r;
    }

    Reply start(const nlohmann::json& args = nlohmann::json::object())
    {
        auto r = call("start_session", args);
        EXPECT_FALSE(r.is_error) << r.text;
        return r;
    }

    // The token of the first row of a full read of `app` whose name equals `name`.
    std::string token(const std::string& app, const std::string& name, nlohmann::json extra = nlohmann::json::object())
    {
        extra["app"] = app;
        extra["max_elements"] = 5000;
        extra["max_depth"] = 200;
        auto r = call("get_window_state", extra);
        EXPECT_FALSE(r.is_error) << r.text;
        for (const auto& row : r.structured["elements"])
            if (row.value("name", "") == name)
                return row["element_token"].get<std::string>();
        ADD_FAILURE() << "no element named " << name << " in " << app;
        return "s0:0";
    }

    nd_mock::MockBackend& mock() { return *m_backend; }
    nd_core::Engine& engine() { return *m_engine; }
    nd_driver::Dispatcher& dispatcher() { return *m_dispatcher; }
    nd_core::ScriptedConsent& scripted() { return m_scripted; }

private:
    ApproveAll m_approve_all;
    nd_core::AuditLog m_audit;
    nd_core::AutoConsent m_auto;
    nd_core::ScriptedConsent m_scripted;
    std::unique_ptr<nd_mock::MockBackend> m_backend;
    std::unique_ptr<nd_core::Engine> m_engine;
    std::unique_ptr<nd_driver::Dispatcher> m_dispatcher;
};

} // namespace nd_test

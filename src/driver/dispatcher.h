#pragma once

// The dispatch wrapper: the ToolHost the MCP server calls. It validates arguments against the
// tool's declaration, runs the checks every tool shares (a live session, the lease, the pause
// refusal of acts) once, asks the host's approval where one is needed (driver/approvals.h), calls
// the handler, turns errors into the envelope, and audits the call.

#include "core/engine/engine.h"
#include "driver/approvals.h"
#include "driver/tool.h"
#include "mcp/tool_host.h"

namespace nd_driver {

class Dispatcher final : public nd_mcp::ToolHost {
public:
    explicit Dispatcher(nd_core::Engine&);

    nlohmann::json list_tools() override;
    bool has_tool(std::string_view name) override;
    ToolOutput call_tool(std::string_view name, const nlohmann::json& arguments, const CallContext&) override;
    void set_client_name(std::string_view) override;
    void connection_closed() override;

    // The host's approval channel (the control pipe), or none. Set before serving; not owned.
    void set_approvals(ApprovalGate* gate) { m_approvals = gate; }

private:
    nd_core::Result<ToolOutput> run(const ToolDef&, const nlohmann::json& arguments, const CallContext&);
    nd_core::Result<void> approve(const ToolDef&, const Args&, const nd_core::Session*);

    nd_core::Engine& m_engine;
    ApprovalGate* m_approvals = nullptr;
};

} // namespace nd_driver

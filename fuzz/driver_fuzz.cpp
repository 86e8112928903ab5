// libFuzzer target for nish-driver's whole request path (docs/fuzzing.md): each input is up to 8
// received JSON-RPC lines (a session's start, a read, an act...), each routed as the server's reader
// routes it, and each queued request answered in turn by the real dispatcher (argument checks, sessions, every tool) on the mock desktop with consent
// given automatically, as `nish-driver mcp --backend mock --consent auto` answers it. Both protocol
// eras. Nothing may crash, hang or leak; every answer must be one JSON-RPC line with the request's
// id; a tool's failure must be the contract's envelope with a code from the error table.
//
// The desktop is fresh for every input (fuzz_desktop.h), so a crash replays from its input alone.

#include "core/backend/consent.h"
#include "core/engine/audit.h"
#include "core/engine/engine.h"
#include "driver/dispatcher.h"
#include "fuzz_check.h"
#include "fuzz_desktop.h"
#include "mcp/mcp_routing.h"

#include <atomic>
#include <memory>

namespace {

using nd_fuzz::require;

class Denier final : public nd_driver::ApprovalGate {
public:
    bool approve_reads() const override { return false; }
    nd_driver::ApprovalOutcome ask(const nd_driver::ApprovalAsk&) override { return nd_driver::ApprovalOutcome::denied; }
};

void check_tool_result(const nlohmann::json& result)
{
    // Only a tools/call result has structuredContent; a failed call carries the envelope.
    if (!result.contains("structuredContent"))
        return;
    const auto& structured = result["structuredContent"];
    require(structured.is_object());
    if (result.value("isError", false) && structured.contains("error"))
        nd_fuzz::require_envelope(structured);
}

// Any response, and a tools/call result's envelope.
void check_response(const std::string& line, const nlohmann::json* id)
{
    const auto message = nd_fuzz::check_response(line, id);
    if (message.contains("result"))
        check_tool_result(message["result"]);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const nd_mcp::McpServerInfo info{"nish-driver", "fuzz", "instructions", false};
    auto backend = nd_fuzz::fresh_desktop();
    nd_core::AutoConsent consent;
    nd_core::AuditLog audit("");
    nd_core::EngineOptions options;
    options.settle_interval = std::chrono::milliseconds(1);
    options.settle_timeout = std::chrono::milliseconds(5);
    options.settle_quiet = std::chrono::milliseconds(1);
    nd_core::Engine engine(*backend, consent, audit, options);
    nd_driver::Dispatcher dispatcher(engine);
    Denier approvals;
    dispatcher.set_approvals(&approvals);

    std::string_view rest = nd_fuzz::text_of(data, size);
    for (int n = 0; n < 8 && !rest.empty(); ++n) {
        const auto end = rest.find('\n');
        const auto line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        auto action = nd_mcp::route_line(line, info);
        if (action.kind == nd_mcp::LineAction::Kind::reply)
            check_response(action.reply, nullptr);
        if (action.kind != nd_mcp::LineAction::Kind::enqueue)
            continue;
        std::atomic<bool> cancelled{false};
        nd_mcp::CallContext context;
        context.cancelled = &cancelled;
        check_response(nd_mcp::answer_request(action.request, action.era, dispatcher, info, context), &action.request.id);
    }
    dispatcher.connection_closed();
    return 0;
}

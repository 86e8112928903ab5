// libFuzzer target for the host control pipe (docs/control-pipe.md, docs/fuzzing.md): the input,
// cut into up to 8 lines, is handled line by line as the pipe handles what the host writes, on an
// engine of the mock desktop with one session open, with an approval broker. Every line gets one
// reply line: a JSON object with an "event", "ack" or "error" (the error's code from the table);
// nothing crashes, and once the host is gone the engine still answers the session's tools.

#include "core/backend/consent.h"
#include "core/engine/audit.h"
#include "core/engine/engine.h"
#include "driver/control/approval_broker.h"
#include "driver/control/control_commands.h"
#include "driver/dispatcher.h"
#include "fuzz_check.h"
#include "fuzz_desktop.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using nd_fuzz::require;
    auto backend = nd_fuzz::fresh_desktop();
    nd_core::AutoConsent consent;
    nd_core::AuditLog audit("");
    nd_core::Engine engine(*backend, consent, audit, nd_core::EngineOptions{});
    nd_driver::Dispatcher dispatcher(engine);
    nd_driver::ApprovalBroker broker([](std::string_view) { return true; });
    dispatcher.set_approvals(&broker);
    nd_mcp::CallContext context;
    require(!dispatcher.call_tool("start_session", nlohmann::json::object(), context).is_error);

    nd_driver::ControlCommands commands(engine, &broker);
    std::string_view rest = nd_fuzz::text_of(data, size);
    for (int n = 0; n < 8 && !rest.empty(); ++n) {
        const auto end = rest.find('\n');
        const auto line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        const auto reply = commands.handle(line);
        require(!reply.empty() && reply.find('\n') == std::string::npos);
        const auto message = nlohmann::json::parse(reply, nullptr, false);
        require(message.is_object() && message.contains("event") && message["event"].is_string());
        if (message["event"] == "error")
            require(nd_fuzz::is_table_code(message.at("error").at("code").get<std::string>()));
    }
    // The host is gone (after close every approval fails at once): the session's tools still answer.
    broker.close();
    require(!dispatcher.call_tool("list_windows", nlohmann::json::object(), context).structured.empty());
    return 0;
}

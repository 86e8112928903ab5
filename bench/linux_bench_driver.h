#pragma once

// The driver the Linux benchmarks call tool by tool: the real Linux backend, an engine with
// consent granted (the benches start the apps themselves) and the dispatcher, in-process.

#include "backend/linux/linux_backend.h"
#include "core/engine/audit.h"
#include "core/backend/consent.h"
#include "core/engine/engine.h"
#include "driver/dispatcher.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <string_view>

struct LinuxBenchDriver {
    nd_core::AuditLog audit{""};
    nd_core::AutoConsent consent;
    std::unique_ptr<nd_linux::LinuxBackend> backend;
    std::unique_ptr<nd_core::Engine> engine;
    std::unique_ptr<nd_driver::Dispatcher> dispatcher;

    // Opens the backend, the engine and the dispatcher; false, with the reason on stderr, when
    // the backend cannot open.
    bool open()
    {
        auto opened = nd_linux::LinuxBackend::open();
        if (!opened.ok()) {
            std::cerr << opened.error().text() << "\n";
            return false;
        }
        backend = std::move(opened).value();
        engine = std::make_unique<nd_core::Engine>(*backend, consent, audit);
        dispatcher = std::make_unique<nd_driver::Dispatcher>(*engine);
        return true;
    }

    nd_mcp::ToolOutput call_tool(std::string_view tool, const nlohmann::json& args)
    {
        nd_mcp::CallContext ctx;
        return dispatcher->call_tool(tool, args, ctx);
    }
};

#pragma once

// The session state start_session and get_session_state both report.

#include "core/engine/engine.h"

#include <nlohmann/json.hpp>

namespace nd_driver::tools {

nlohmann::json session_json(const nd_core::Engine&, const nd_core::Session*);
std::string session_text(const nlohmann::json&);
nlohmann::json session_schema();

} // namespace nd_driver::tools

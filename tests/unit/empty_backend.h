#pragma once

// A backend with no parts, for unit tests that give it one or two of their own (a tree reader, an
// actuator) by overriding their getters.

#include "core/backend/backend.h"

#include <string>

namespace nd_test {

struct EmptyBackend : nd_core::Backend {
    std::string name() const override { return "empty"; }
    std::string session_type() const override { return "none"; }
    nd_core::WindowSource* windows() override { return nullptr; }
    nd_core::TreeReader* trees() override { return nullptr; }
    nd_core::ElementFinder* finder() override { return nullptr; }
    nd_core::Actuator* actuator() override { return nullptr; }
    nd_core::SyntheticInput* input() override { return nullptr; }
    nd_core::InputWatcher* watcher() override { return nullptr; }
    nd_core::Capture* capture() override { return nullptr; }
    nd_core::Clipboard* clipboard() override { return nullptr; }
    nd_core::Overlay* overlay() override { return nullptr; }
    nd_core::RegistryReport registry() override { return {}; }
};

} // namespace nd_test

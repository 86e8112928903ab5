#pragma once

// The mock desktop a fuzz target acts on, fresh for every input so a crash replays from its input
// alone. The fixtures are loaded once; each input gets a copy (loading them is most of the cost).

#include "backend/mock/fixture_loader.h"
#include "backend/mock/mock_backend.h"
#include "fuzz_check.h"

#include <memory>

namespace nd_fuzz {

inline std::unique_ptr<nd_mock::MockBackend> fresh_desktop()
{
    static const nd_mock::FixtureSet fixtures = [] {
        auto set = nd_mock::load_fixture_dir(nd_mock::MockBackend::default_fixture_dir());
        require(set.ok());
        return std::move(*set);
    }();
    return nd_mock::MockBackend::from(fixtures);
}

} // namespace nd_fuzz

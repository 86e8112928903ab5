#pragma once

// Reads fixture files (docs/mock.md) into windows. A fixture document describes one app: its
// name, pid, templates and windows. Every problem is an Error naming the file and the JSON path.

#include "backend/mock/mock_model.h"
#include "core/result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace nd_mock {

// Appends the windows of one parsed document to `windows`, checking window ids against those
// already there. `source` names the document in error messages.
nd_core::Result<void> load_fixture_document(const nlohmann::json& doc, const std::string& source,
                                            std::vector<MockWindow>& windows);

struct FixtureSet {
    std::vector<MockWindow> windows; // load order: file name order, then the file's own order
    std::vector<std::string> files;  // file names (without the directory), in load order
};

// Loads every *.json of `dir` in name order.
nd_core::Result<FixtureSet> load_fixture_dir(const std::string& dir);

} // namespace nd_mock

#pragma once

// Validates JSON against a draft-7 schema with valijson; returns the first errors as text.

#include <nlohmann/json.hpp>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <string>

namespace nd_test {

inline std::string schema_errors(const nlohmann::json& schema, const nlohmann::json& doc)
{
    valijson::Schema parsed;
    valijson::SchemaParser parser;
    valijson::adapters::NlohmannJsonAdapter schema_adapter(schema);
    parser.populateSchema(schema_adapter, parsed);
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter doc_adapter(doc);
    if (validator.validate(parsed, doc_adapter, &results))
        return {};
    std::string out;
    valijson::ValidationResults::Error error;
    int n = 0;
    while (results.popError(error) && n++ < 5) {
        std::string where;
        for (const auto& c : error.context)
            where += c;
        out += where + ": " + error.description + "\n";
    }
    return out.empty() ? "invalid" : out;
}

} // namespace nd_test

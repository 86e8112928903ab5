#pragma once

// Consent comes from a provider behind this interface: the native dialog (a later backend part),
// `--consent auto` for tests and demos (grants what is asked), or a scripted provider that can deny
// or grant part. The engine never grants anything the provider did not.

#include "core/result.h"

#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace nd_core {

struct ConsentRequest {
    std::vector<std::string> apps; // app names as the windows report them
    bool takeover = false;         // the "ALSO allow VISIBLE TAKEOVER" line
    bool clipboard_read = false;   // its own line
    std::int64_t lease_s = 0;
};

struct ConsentGrant {
    bool allowed = false;
    std::vector<std::string> apps;
    bool takeover = false;
    bool clipboard_read = false;
};

class ConsentProvider {
public:
    virtual ~ConsentProvider() = default;
    virtual std::string name() const = 0;
    virtual Result<ConsentGrant> ask(const ConsentRequest&) = 0;
};

// Grants exactly what is asked. For tests and demos only; --help says so.
class AutoConsent final : public ConsentProvider {
public:
    std::string name() const override { return "auto"; }
    Result<ConsentGrant> ask(const ConsentRequest& req) override
    {
        return ConsentGrant{true, req.apps, req.takeover, req.clipboard_read};
    }
};

// Answers from a queue that a test fills; with the queue empty it denies. Records every request.
class ScriptedConsent final : public ConsentProvider {
public:
    std::string name() const override { return "scripted"; }
    void push(ConsentGrant answer)
    {
        std::lock_guard lock(m_mutex);
        m_answers.push_back(std::move(answer));
    }
    std::vector<ConsentRequest> requests() const
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }
    Result<ConsentGrant> ask(const ConsentRequest& req) override
    {
        std::lock_guard lock(m_mutex);
        m_requests.push_back(req);
        if (m_answers.empty())
            return ConsentGrant{};
        auto answer = std::move(m_answers.front());
        m_answers.pop_front();
        return answer;
    }

private:
    mutable std::mutex m_mutex;
    std::deque<ConsentGrant> m_answers;
    std::vector<ConsentRequest> m_requests;
};

} // namespace nd_core

#pragma once

// What the desk's tests that run anywhere share: a temporary directory for a socket
// (support/temp_dir.h), and a real daemon on the mock backend serving on a thread of its own.

#include "backend/mock/mock_backend.h"
#include "desk/daemon/daemon.h"
#include "desk/wire/client.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace nd_test {

// A real daemon on the mock backend, serving on its own thread.
class MockDaemon {
public:
    // `allow`: the app allowlist of its config (empty: every app).
    explicit MockDaemon(const std::string& endpoint, std::vector<std::string> allow = {})
        : MockDaemon(endpoint, [&] {
            nd_desk::DeskConfig config;
            config.allow = std::move(allow);
            return config;
        }())
    {
    }
    // `adjust` changes the daemon's options before it opens (the services' timings, its log).
    MockDaemon(const std::string& endpoint, nd_desk::DeskConfig config,
        const std::function<void(nd_desk::DaemonOptions&)>& adjust = {})
    {
        auto backend = nd_mock::MockBackend::load(nd_mock::MockBackend::default_fixture_dir());
        if (!backend.ok())
            throw std::runtime_error(backend.error().text());
        m_backend = std::move(backend).value();
        nd_desk::DaemonOptions options;
        options.endpoint = endpoint;
        options.config = std::move(config);
        if (adjust)
            adjust(options);
        auto daemon = nd_desk::Daemon::open(*m_backend, std::move(options));
        if (!daemon.ok())
            throw std::runtime_error(daemon.error().text());
        m_daemon = std::move(daemon).value();
        m_thread = std::thread([this] { m_daemon->run(); });
    }
    ~MockDaemon() { stop(); }
    nd_desk::Daemon& daemon() { return *m_daemon; }
    // Stops it now (what its destructor does), for a test that times the stop.
    void stop()
    {
        if (!m_daemon)
            return;
        m_daemon->request_stop();
        m_thread.join();
        m_daemon.reset();
    }
    // The mock desktop, for its test hooks (they are thread-safe).
    nd_mock::MockBackend& backend() { return *m_backend; }
    // safety_stop / safety_resume over the wire, as `shuttle stop` sends them.
    void safety(bool stop)
    {
        namespace w = nd_desk::wire;
        auto client = w::Client::connect(m_daemon->endpoint());
        ASSERT_TRUE(client.ok());
        auto r = client->call(w::Request{"", stop ? "safety_stop" : "safety_resume", nullptr},
            w::Clock::now() + std::chrono::seconds(5));
        ASSERT_EQ(r.status, w::Client::CallStatus::answered);
        ASSERT_FALSE(r.response.is_error) << r.response.text;
    }

private:
    std::unique_ptr<nd_mock::MockBackend> m_backend;
    std::unique_ptr<nd_desk::Daemon> m_daemon;
    std::thread m_thread;
};

} // namespace nd_test

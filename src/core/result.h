#pragma once

// Errors as values. A Result<T> holds either a T or an Error; TRY returns the error to the caller.
// Exceptions do not cross layers: code that calls a throwing library catches at its edge.

#include "core/errors.h"

#include <utility>
#include <variant>

namespace nd_core {

template<typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_value(std::move(value)) {}
    Result(Error error) : m_value(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_value); }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<T>(m_value); }
    const T& value() const& { return std::get<T>(m_value); }
    T&& value() && { return std::get<T>(std::move(m_value)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const& { return std::get<Error>(m_value); }
    Error&& error() && { return std::get<Error>(std::move(m_value)); }

private:
    std::variant<T, Error> m_value;
};

struct Ok {};

template<>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Ok) {}
    Result(Error error) : m_error(std::move(error)), m_failed(true) {}

    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const Error& error() const& { return m_error; }
    Error&& error() && { return std::move(m_error); }

private:
    Error m_error;
    bool m_failed = false;
};

inline Error make_error(ErrorCode code, std::string message) { return Error(code, std::move(message)); }

} // namespace nd_core

// TRY(expr): evaluates a Result; on failure returns its error from the enclosing function,
// otherwise yields the value (GNU statement expression, as in SerenityOS).
#define TRY(expr)                                              \
    __extension__({                                                         \
        auto _nish_try = (expr);                               \
        if (!_nish_try.ok())                                   \
            return std::move(_nish_try).error();               \
        std::move(_nish_try).value();                          \
    })

#define TRY_VOID(expr)                                         \
    do {                                                       \
        auto _nish_try = (expr);                               \
        if (!_nish_try.ok())                                   \
            return std::move(_nish_try).error();               \
    } while (0)

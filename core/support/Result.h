// Errors cross core's boundary as values: Result<T> holds either a T or an Error that a person
// can act on (what failed, on which input, what to do). No exception leaves core.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace nvpg::support {

// What kind of failure, so that front ends can map it (the CLI to its exit codes). The numbers
// cross the engine protocol: add new kinds at the end.
enum class ErrorKind {
    Usage,        // the request itself is wrong: a bad option value, an unknown name
    Environment,  // something outside the input is missing: libNVVM, libdevice, a GPU
    Input,        // an input file cannot be read or has the wrong format
    Compile,      // libNVVM rejected the program
    Link,         // nvJitLink rejected the inputs
    Run,          // a kernel launch failed (Timeout: it did not finish)
    Internal,     // a library misbehaved in a way the input does not explain
    Timeout,      // it did not finish in time: the engine did not answer, a kernel ran past its timeout
};

struct Error {
    ErrorKind kind = ErrorKind::Internal;
    std::string message;
};

inline Error makeError(ErrorKind kind, std::string message) {
    return Error{kind, std::move(message)};
}

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : error_(std::move(error)), ok_(false) {}

    bool ok() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const Error& error() const { return error_; }

private:
    Error error_;
    bool ok_ = true;
};

using Status = Result<void>;

}  // namespace nvpg::support

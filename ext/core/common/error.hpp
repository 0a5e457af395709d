// Typed errors of the core. The PHP shim maps each class to the PHP exception users expect;
// nothing here knows about Zend.
#pragma once

#include <stdexcept>
#include <string>

namespace nativelock {

class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A caller passed something the protocol cannot work with (maps to ValueError).
class InvalidArgument : public Error {
  public:
    using Error::Error;
};

// A system call failed in a way the operation cannot recover from.
class SystemError : public Error {
  public:
    SystemError(const std::string &what, int err);
    int code() const noexcept { return code_; }

  private:
    int code_;
};

// The backend could not be reached or stopped answering (network, server down, timeout).
class ConnectionError : public Error {
  public:
    using Error::Error;
};

// The backend answered something the protocol did not expect.
class ProtocolError : public Error {
  public:
    using Error::Error;
};

}  // namespace nativelock

// The owner record this test process writes into lock files it takes.
#pragma once

#include <string>

#include "common/process.hpp"
#include "file/record.hpp"

namespace nativelock::file::test_support {

inline std::string own_record(const std::string &lock_name) {
    const auto &self = process::self();
    OwnerRecord r;
    r.pid = self.pid;
    r.host = self.host;
    r.boot_id = self.boot_id;
    r.pid_namespace = self.pid_namespace;
    r.start_ticks = self.start_ticks;
    r.name = lock_name;
    return encode(r);
}

}  // namespace nativelock::file::test_support

// libFuzzer target: lock-file naming (map_name, lock_file_path, temp_file_path).
// Input: first byte = length of the lockpath part, then the lockpath, then the lock name.
// Properties: the mapping keeps the length and yields only [A-Za-z0-9_]; the path is exactly
// lockpath + mapped + ".lock" (nothing can climb out of lockpath); invalid input is refused
// with InvalidArgument and nothing else; the temp name always fits NAME_MAX.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/error.hpp"
#include "file/name.hpp"

using namespace nativelock;
using namespace nativelock::file;

namespace {
bool is_word(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
void check(bool ok) {
    if (!ok) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    size_t lockpath_len = data[0] % 64;
    if (lockpath_len > size - 1) lockpath_len = size - 1;
    std::string_view lockpath(reinterpret_cast<const char *>(data + 1), lockpath_len);
    std::string_view name(reinterpret_cast<const char *>(data + 1 + lockpath_len),
                          size - 1 - lockpath_len);

    std::string mapped = map_name(name);
    check(mapped.size() == name.size());
    for (size_t i = 0; i < name.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(name[i]);
        check(is_word(c) ? mapped[i] == name[i] : mapped[i] == '_');
    }

    bool must_refuse = name.empty() || name.size() > kMaxMappedNameLength ||
                       lockpath.find('\0') != std::string_view::npos;
    std::string path;
    try {
        path = lock_file_path(lockpath, name);
    } catch (const InvalidArgument &) {
        check(must_refuse);
        return 0;
    }
    check(!must_refuse);
    check(path == std::string(lockpath) + mapped + ".lock");
    check(path.find('\0') == std::string::npos);
    // The file name part: no '/', so no directory other than lockpath's.
    check(path.find('/', lockpath.size()) == std::string::npos);

    std::string temp = temp_file_path(path, 2147483647L, 2147483647UL);
    std::string temp_base = temp.substr(lockpath.size());
    check(temp_base.size() <= 255);
    return 0;
}

#include "file/name.hpp"

#include "common/error.hpp"

namespace nativelock::file {

namespace {
bool is_word_byte(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
}  // namespace

std::string map_name(std::string_view name) {
    std::string mapped(name);
    for (char &c : mapped) {
        if (!is_word_byte(static_cast<unsigned char>(c))) c = '_';
    }
    return mapped;
}

std::string lock_file_path(std::string_view lockpath, std::string_view name) {
    // The path goes to the kernel as a C string: a NUL in the directory part would cut it
    // there, so "/etc/passwd\0" would lock, and unlock(true) delete, /etc/passwd.
    if (lockpath.find('\0') != std::string_view::npos) {
        throw InvalidArgument("lock path must not contain any null bytes");
    }
    if (name.empty()) throw InvalidArgument("lock name must not be empty");
    if (name.size() > kMaxMappedNameLength) {
        throw InvalidArgument("lock name must be at most " + std::to_string(kMaxMappedNameLength) +
                              " bytes long, " + std::to_string(name.size()) + " given");
    }
    std::string path;
    path.reserve(lockpath.size() + name.size() + 5);
    path.append(lockpath);
    path.append(map_name(name));
    path.append(".lock");
    return path;
}

std::string temp_file_path(const std::string &lock_file, long pid, unsigned long random) {
    std::string path = lock_file;
    path.append(".pid.");
    path.append(std::to_string(pid));
    path.append(".mtrand.");
    path.append(std::to_string(random));
    return path;
}

}  // namespace nativelock::file

// LockFile against an attacker who predicts the temp-file name and plants something there
// first. The named temp file is what shared filesystems use (use_named_temp_file() forces it
// here); on a local one the record goes to an unnamed file, which has no name to predict. The
// name's random part comes from getrandom(), which this executable replaces (hence its own binary:
// the PHP module cannot be given one, PHP dlopen()s it with RTLD_DEEPBIND), so the test knows the
// name exactly; the control case proves the prediction is the real path.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "common/process.hpp"
#include "file/lock_file.hpp"
#include "file/name.hpp"
#include "file/record.hpp"

extern "C" ssize_t getrandom(void *buf, size_t len, unsigned int) {
    std::memset(buf, 0x2a, len);
    return static_cast<ssize_t>(len);
}

using namespace nativelock;
using namespace nativelock::file;

namespace {

constexpr unsigned long kPredictedRandom = 0x2a2a2a2aUL & 0x7fffffffUL;

std::string slurp(const std::string &path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

class PlantedTempPath : public ::testing::Test {
  protected:
    void SetUp() override {
        char tmpl[] = "/tmp/nl-planted-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        root_ = tmpl;
        locks_ = root_ + "/locks/";
        ASSERT_EQ(mkdir(locks_.c_str(), 0700), 0);
        path_ = lock_file_path(locks_, "planted");
        temp_ = temp_file_path(path_, process::current_pid(), kPredictedRandom);
        victim_ = root_ + "/victim";
        std::ofstream(victim_) << "precious";
    }
    void TearDown() override { std::system(("rm -rf '" + root_ + "'").c_str()); }

    static std::string record() {
        OwnerRecord r;
        r.pid = process::current_pid();
        r.name = "planted";
        return encode(r);
    }

    std::string root_, locks_, path_, temp_, victim_;
};

TEST_F(PlantedTempPath, PredictionIsTheRealTempPath) {
    // Control: a FIFO at the predicted name would block a plain open(); O_EXCL refuses it,
    // so the attempt fails, and succeeds once it is gone. That only happens if the
    // prediction is the path the lock really uses.
    ASSERT_EQ(mkfifo(temp_.c_str(), 0600), 0);
    LockFile lock(path_);
    lock.use_named_temp_file();
    EXPECT_EQ(lock.try_acquire(record()), Status::FailedToObtain);
    ASSERT_EQ(unlink(temp_.c_str()), 0);
    EXPECT_EQ(lock.try_acquire(record()), Status::Acquired);
    lock.release();
}

TEST_F(PlantedTempPath, SymlinkToAnExistingFileIsNotWrittenThrough) {
    ASSERT_EQ(symlink(victim_.c_str(), temp_.c_str()), 0);
    LockFile lock(path_);
    lock.use_named_temp_file();
    EXPECT_EQ(lock.try_acquire(record()), Status::FailedToObtain);
    EXPECT_EQ(slurp(victim_), "precious");
    struct stat st;
    EXPECT_EQ(lstat(path_.c_str(), &st), -1) << "no lock file may exist";
    EXPECT_EQ(lstat(temp_.c_str(), &st), 0) << "the plant is not ours to remove";
    EXPECT_TRUE(S_ISLNK(st.st_mode));
}

TEST_F(PlantedTempPath, DanglingSymlinkCreatesNothing) {
    std::string target = root_ + "/created-through-link";
    ASSERT_EQ(symlink(target.c_str(), temp_.c_str()), 0);
    LockFile lock(path_);
    lock.use_named_temp_file();
    EXPECT_EQ(lock.try_acquire(record()), Status::FailedToObtain);
    EXPECT_NE(access(target.c_str(), F_OK), 0);
}

TEST_F(PlantedTempPath, SomeoneElsesRegularFileIsNeitherOverwrittenNorLinked) {
    std::ofstream(temp_) << "not ours";
    LockFile lock(path_);
    lock.use_named_temp_file();
    EXPECT_EQ(lock.try_acquire(record()), Status::FailedToObtain);
    EXPECT_EQ(slurp(temp_), "not ours");
    EXPECT_NE(access(path_.c_str(), F_OK), 0);
}

}  // namespace

TEST_F(PlantedTempPath, AnUnnamedRecordFileHasNoNameToPlantAt) {
    // The FIFO that makes the named path fail (above) is never opened on a local filesystem.
    ASSERT_EQ(mkfifo(temp_.c_str(), 0600), 0);
    LockFile lock(path_);
    EXPECT_EQ(lock.try_acquire(record()), Status::Acquired);
    EXPECT_EQ(slurp(path_), record());
    lock.release();
    struct stat st;
    ASSERT_EQ(lstat(temp_.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

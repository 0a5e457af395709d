// configureConnection()'s $additionalDsn for the native driver.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "mysql/native_session.hpp"

using nativelock::InvalidArgument;
using nativelock::mysql::ConnectParams;

TEST(MysqlParams, AdditionalDsnSetsWhatTheNativeDriverHonours) {
    ConnectParams p;
    p.apply_additional_dsn(
        "port=3307; unix_socket=/run/mysqld.sock;;dbname=app;charset=latin1;host=db");
    EXPECT_EQ(p.port, 3307u);
    EXPECT_EQ(p.unix_socket, "/run/mysqld.sock");
    EXPECT_EQ(p.database, "app");
    EXPECT_EQ(p.charset, "latin1");
    EXPECT_EQ(p.host, "db");
}

TEST(MysqlParams, UnknownDsnKeysAreRejectedWithoutTheirValue) {
    ConnectParams p;
    try {
        p.apply_additional_dsn("sslkey=/very/secret");
        FAIL() << "accepted";
    } catch (const InvalidArgument &e) {
        EXPECT_NE(std::string(e.what()).find("\"sslkey\""), std::string::npos);
        EXPECT_EQ(std::string(e.what()).find("secret"), std::string::npos);
    }
    EXPECT_THROW(p.apply_additional_dsn("compress"), InvalidArgument);
    for (const char *port : {"port=", "port=0", "port=65536", "port=12ab", "port=-1"})
        EXPECT_THROW(p.apply_additional_dsn(port), InvalidArgument) << port;
}

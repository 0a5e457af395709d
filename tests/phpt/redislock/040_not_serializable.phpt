--TEST--
RedisLock: objects (and subclass objects) cannot be serialized or unserialized into uninitialised shells
--EXTENSIONS--
nativelock
--FILE--
<?php
class MyLock extends RedisLock {}
foreach ([new RedisLock('a', 5, RedisLock::FAIL_EXCEPT), new MyLock('b', 5, RedisLock::FAIL_EXCEPT)] as $lock) {
    try {
        serialize($lock);
        echo "serialized\n";
    } catch (Exception $e) {
        echo $e->getMessage(), "\n";
    }
}
foreach (['O:9:"RedisLock":0:{}', 'O:6:"MyLock":1:{s:7:"' . "\0*\0" . 'name";s:1:"x";}'] as $data) {
    try {
        var_dump(unserialize($data));
    } catch (Exception $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
Serialization of 'RedisLock' is not allowed
Serialization of 'MyLock' is not allowed
Unserialization of 'RedisLock' is not allowed
Unserialization of 'MyLock' is not allowed

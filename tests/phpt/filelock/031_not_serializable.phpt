--TEST--
Filelock: objects cannot be serialized nor unserialized into uninitialised shells
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = nl_lockdir();
class MyLock extends Filelock {}
foreach ([new Filelock('s'), new MyLock('s')] as $lock) {
    try { serialize($lock); } catch (Exception $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
foreach (['O:8:"Filelock":0:{}', 'O:6:"MyLock":0:{}'] as $text) {
    try { var_dump(unserialize($text)); } catch (Exception $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
?>
--EXPECT--
Exception: Serialization of 'Filelock' is not allowed
Exception: Serialization of 'MyLock' is not allowed
Exception: Unserialization of 'Filelock' is not allowed
Exception: Unserialization of 'MyLock' is not allowed

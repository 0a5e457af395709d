--TEST--
SharedLock: handles cannot be serialized nor unserialized into shells that name a lock
--EXTENSIONS--
nativelock
--FILE--
<?php
use ItsMieger\MySqlSharedLocks\SharedLockHandle;
try { serialize(new SharedLockHandle('x')); } catch (Exception $e) { echo $e->getMessage(), "\n"; }
$class = SharedLockHandle::class;
try { unserialize('O:' . strlen($class) . ':"' . $class . '":1:{s:8:"lockName";s:1:"x";}'); } catch (Exception $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
Serialization of 'ItsMieger\MySqlSharedLocks\SharedLockHandle' is not allowed
Unserialization of 'ItsMieger\MySqlSharedLocks\SharedLockHandle' is not allowed

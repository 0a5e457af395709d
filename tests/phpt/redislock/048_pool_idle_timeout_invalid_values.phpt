--TEST--
nativelock.pool_idle_timeout: NaN, infinite, negative, absurdly large and non-numeric values are rejected with a warning and the setting is kept; 0 to 86400 seconds are accepted
--EXTENSIONS--
nativelock
--FILE--
<?php
foreach (['-1', '-0.5', 'NAN', 'INF', '1e999', '86401', 'abc', '', '5s', '0x10', '-INF'] as $value) {
    var_dump(ini_set('nativelock.pool_idle_timeout', $value));
}
var_dump(ini_get('nativelock.pool_idle_timeout'));
foreach (['0', '0.25', '30', '86400', ' 5 '] as $value) {
    ini_set('nativelock.pool_idle_timeout', $value);
    var_dump(ini_get('nativelock.pool_idle_timeout'));
}
?>
--EXPECTF--
Warning: ini_set(): nativelock.pool_idle_timeout must be a number of seconds in [0, 86400] (0: pooled connections are closed at the end of every request), "-1" given in %s on line %d
bool(false)

Warning: ini_set(): nativelock.pool_idle_timeout must be a number of seconds in [0, 86400] (0: pooled connections are closed at the end of every request), "-0.5" given in %s on line %d
bool(false)

Warning: ini_set(): nativelock.pool_idle_timeout must be a number of seconds in [0, 86400] (0: pooled connections are closed at the end of every request), "NAN" given in %s on line %d
bool(false)

Warning: ini_set(): nativelock.pool_idle_timeout must be a number of seconds in [0, 86400] (0: pooled connections are closed at the end of every request), "INF" given in %s on line %d
bool(false)

Warning: ini_set(): nativelock.pool_idle_timeout must be a number of seconds in [0, 86400] (0: pooled connections are closed at the end of every request), "1e999" given in %s on line %d
bool(false)

Warning: ini_set(): nativelock.pool_idle_timeout must be a number of seconds in [0, 86400] (0: pooled connections are closed at the end of every request), "86401" given in %s on line %d
bool(false)

Warning: ini_set(): nativelock.pool_idle_timeout must be a number of seconds in [0, 86400] (0: pooled connections are closed at the end of every request), "abc" given in %s on line %d
bool(false)

Warning: ini_set(): nativelock.pool_idle_timeout must be a number of seconds in [0, 86400] (0: pooled connections are closed at the end of every request), "" given in %s on line %d
bool(false)

Warning: ini_set(): nativelock.pool_idle_timeout must be a number of seconds in [0, 86400] (0: pooled connections are closed at the end of every request), "5s" given in %s on line %d
bool(false)

Warning: ini_set(): nativelock.pool_idle_timeout must be a number of seconds in [0, 86400] (0: pooled connections are closed at the end of every request), "0x10" given in %s on line %d
bool(false)

Warning: ini_set(): nativelock.pool_idle_timeout must be a number of seconds in [0, 86400] (0: pooled connections are closed at the end of every request), "-INF" given in %s on line %d
bool(false)
string(2) "60"
string(1) "0"
string(4) "0.25"
string(2) "30"
string(5) "86400"
string(3) " 5 "

<?php
require __DIR__ . '/end_request.inc';
// Takes a RedisLock and ends the request in the way asked, without releasing it.
RedisLock::setRedis($_GET['uri']);
$lock = RedisLock::createAndLock($_GET['name'], 60, RedisLock::FAIL_RETURN);
echo getmypid(), ' ', $lock ? 1 : 0, "\n";
end_request_as_asked($lock, [
    // A second lock whose object nobody keeps: held until request end, like the original.
    'unstored' => fn() => RedisLock::createAndLock($_GET['name'] . '-unstored', 60),
]);

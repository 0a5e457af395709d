<?php
require __DIR__ . '/end_request.inc';
// Takes a Filelock and ends the request in the way asked, without unlocking.
$lock = new Filelock($_GET['name']);
$got = $lock->try_lock();
echo getmypid(), ' ', $got, "\n";
end_request_as_asked($lock);

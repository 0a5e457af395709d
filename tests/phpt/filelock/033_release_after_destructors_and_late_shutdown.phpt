--TEST--
Filelock: request end releases a held lock only after destructors and shutdown functions registered later
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
[$code, $out] = nl_run(sprintf('Filelock::$lockpath = %1$s;
    class Job { public $lock; function __destruct() {
        echo "destructor: ", file_exists(%2$s) ? "held" : "free", "\n"; } }
    $job = new Job();
    $job->lock = new Filelock("job");
    $job->lock->try_lock();
    register_shutdown_function(function () {
        register_shutdown_function(function () {
            echo "late shutdown function: ", file_exists(%2$s) ? "held" : "free", "\n";
        });
    });
    echo "end of script\n";', var_export($dir, true), var_export($dir . 'job.lock', true)));
echo $out;
var_dump($code, file_exists($dir . 'job.lock'));
?>
--EXPECT--
end of script
late shutdown function: held
destructor: held
int(0)
bool(false)

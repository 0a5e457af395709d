--TEST--
Filelock: a lock taken after a wait has a record whose timestamp says when it was taken, as the original's (a new record every try); a bake_data() override's record stays as it returned it
--EXTENSIONS--
nativelock
pcntl
posix
--SKIPIF--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
// Rewritten on local filesystems only (on shared ones the lock file's mtime says it).
$type = trim((string) shell_exec('stat -f -c %T ' . escapeshellarg(nl_lockdir()) . ' 2>/dev/null'));
if (preg_match('/^(nfs|smb|cifs|fuse|v9fs|9p|ceph|gluster|lustre|afs|gpfs)/', $type)) die("skip lock directory on $type");
?>
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
Filelock::$lockpath = $dir;

class OwnRecord extends Filelock
{
    public static $stamp;
    public function bake_data()
    {
        // The default record's format and second: a rewrite that ignored the override would
        // find this timestamp where it looks for its own.
        (new Filelock('q040-other'))->try_lock();
        self::$stamp = date('d-m-Y H:i:s');
        return ['mypid' => getmypid(), 'timestamp' => self::$stamp, 'name' => 'q040b'];
    }
}

foreach (['q040a' => 'Filelock', 'q040b' => 'OwnRecord'] as $name => $class) {
    $holder = nl_file_hold_in_child($dir, $name, 2.5);
    $began = time();
    $lock = new $class($name);
    var_dump($lock->lock(10));
    $took = time();
    $record = unserialize(file_get_contents($dir . $name . '.lock'));
    if ($class === 'Filelock') {
        $stamp = DateTime::createFromFormat('d-m-Y H:i:s', $record['timestamp'])->getTimestamp();
        var_dump($took - $began >= 2, $stamp >= $began + 2, $stamp <= $took);
        var_dump(filemtime($dir . $name . '.lock') >= $began + 2);
    } else {
        var_dump($record['timestamp'] === OwnRecord::$stamp);
    }
    var_dump($record['mypid'] === getmypid());
    $lock->unlock();
    pcntl_waitpid($holder, $status);
}
?>
--EXPECT--
int(1)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(1)
bool(true)
bool(true)

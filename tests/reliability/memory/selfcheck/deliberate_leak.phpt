--TEST--
A deliberate leak: the valgrind step must report it, or it could not fail (run only by valgrind_phpt.sh)
--EXTENSIONS--
ffi
--INI--
ffi.enable=1
--FILE--
<?php
$ffi = FFI::cdef("void *malloc(size_t);");
$p = $ffi->malloc(100);
$p = null;
echo "done\n";
?>
--EXPECT--
done

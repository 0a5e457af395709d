--TEST--
ASan self-check: a deliberate use after free must be reported (this test passes; the step must see the report)
--EXTENSIONS--
ffi
--FILE--
<?php
// No library named: the symbols resolve globally, to the sanitizer's malloc and free.
$libc = FFI::cdef('void *malloc(size_t size); void free(void *ptr);');
$freed = $libc->malloc(16);
$libc->free($freed);
$buffer = FFI::new('char[16]');
FFI::memcpy($buffer, $freed, 16);  // the memcpy interceptor sees freed memory
echo "done\n";
?>
--EXPECTF--
%A

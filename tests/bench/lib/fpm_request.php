<?php
// One php-fpm request of the per-request scenario: set the backend up the way an application
// does on every request, take one lock (named after the worker, so uncontended), release it.
// $NLB_ID is set by the per-backend stub that includes this file; 'none' is the baseline.
require_once __DIR__ . '/backends.php';
if ($NLB_ID !== 'none') {
    $b = nlb_backends()[$NLB_ID];
    $b->unavailable();   // loads the PHP code the backend needs (Symfony autoloader, originals)
    $b->setUp();
    $h = $b->tryAcquire('fpm-' . getmypid());
    if ($h === null) {
        echo 'not acquired';
        return;
    }
    $b->release($h);
}
echo 'ok';

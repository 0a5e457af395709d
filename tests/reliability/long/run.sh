#!/usr/bin/env bash
# The long reliability variant (not in CI): 10x the CI sizes - the issue's 8 x 20,000 torture
# on Filelock (~4 min), 2,000 crash trials, 1,000 forked children, 3,000 random names, 5 min of
# fuzzing per target. Results go to build/test-results/reliability-long/.
#   tests/reliability/long/run.sh [--update-readme]
set -uo pipefail
cd "$(dirname "$0")/../../.."
export NATIVELOCK_RELIABILITY_RESULTS="$(pwd)/build/test-results/reliability-long"
export NATIVELOCK_RELIABILITY_VARIANT=long
export REL_PROCS=8 REL_FILE_CYCLES=20000 REL_SERVER_CYCLES=5000 REL_CRASH_TRIALS=2000 \
    REL_SERVER_CRASH_TRIALS=500 REL_FORK_CHILDREN=1000 REL_RANDOM_NAMES=3000 REL_FAULT_ROUNDS=30 \
    REL_FUZZ_SECONDS=300 REL_LOAD_PROCS=200 REL_HOT_SECONDS=10
exec tests/reliability/run.sh "$@"

#!/bin/sh
# examples/kv/run.sh as a test: the disaggregated-serving demo (a prefill
# job, a decode job started after it whose PE 1 dies midway, a second
# decode job for the rest) must end with every request pulled and every
# byte right (its exit status).
exec sh "${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/examples/kv/run.sh" \
    "${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}"

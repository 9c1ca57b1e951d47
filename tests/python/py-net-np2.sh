#!/bin/sh
# The Python tests, net mode on 2 PEs (run.sh says what that is).
exec sh "$(dirname "$0")/run.sh" net 2

#!/bin/sh
# The Python tests, group mode on 2 PEs (run.sh says what that is).
exec sh "$(dirname "$0")/run.sh" group 2

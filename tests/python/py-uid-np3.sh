#!/bin/sh
# The Python tests, uid mode on 3 PEs (run.sh says what that is).
exec sh "$(dirname "$0")/run.sh" uid 3

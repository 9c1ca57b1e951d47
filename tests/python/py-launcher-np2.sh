#!/bin/sh
# The Python tests, launcher mode on 2 PEs (run.sh says what that is).
exec sh "$(dirname "$0")/run.sh" launcher 2

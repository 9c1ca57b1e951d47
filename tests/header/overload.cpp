/*
 * overload.cpp - the C++ overloads of the type-generic names: the checks
 * of generic.c, compiled as C++ (where the names are overloads, not
 * _Generic macros).  generic.sh builds and runs it.
 */
#include "generic.c"

# multi-PE tests of the reduce collectives: appends to check_PROGRAMS and TESTS

# multi-PE tests of the coll collectives: appends to check_PROGRAMS and TESTS

# ctest's driver for one fuzz target: fuzz a fresh copy of the checked-in corpus for SECONDS, so
# that the inputs libFuzzer adds land in the build tree, never in the source tree.
#   cmake -DFUZZER=exe -DCORPUS=dir -DWORK=dir -DSECONDS=n -P RunFuzzer.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/corpus" "${WORK}/artifacts")
file(COPY "${CORPUS}/" DESTINATION "${WORK}/corpus")
# -timeout: one input taking this long is a hang; -rss_limit_mb: more is a memory bug, not a
# test of the machine.
execute_process(
    COMMAND "${FUZZER}" -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
            "-artifact_prefix=${WORK}/artifacts/" "${WORK}/corpus"
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    file(GLOB found "${WORK}/artifacts/*")
    message(FATAL_ERROR "${FUZZER} failed (${rc}). The input: ${found}\n"
                        "Run it alone with: ${FUZZER} <that file>")
endif()

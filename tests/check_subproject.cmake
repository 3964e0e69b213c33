# weft as another project's subdirectory (run by ctest as `cmake -P`): configure tests/subproject,
# which fails if weft makes more than its library or touches the parent's build type, then build its
# consumer against weft::weft (run-time GLSL off, the default there) and run it.
# -DSOURCE_DIR=<checkout> -DWORK_DIR=<scratch folder>
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(JOIN " " command ${ARGN})
    message(FATAL_ERROR "`${command}` failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/subproject -B ${WORK_DIR} -DWEFT_SOURCE_DIR=${SOURCE_DIR})
run(${CMAKE_COMMAND} --build ${WORK_DIR} --target consumer --parallel 2)
run(${WORK_DIR}/consumer)

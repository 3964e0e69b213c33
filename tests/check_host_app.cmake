# The installed package as a host sees it (run by ctest as `cmake -P`): install the build to a
# prefix, then build examples/consumer and examples/host_app against it with find_package(weft),
# and run both; host_app with the validation layer and its own checks of the picture and the motion.
# -DBUILD_DIR=<weft build> -DSOURCE_DIR=<checkout> -DWORK_DIR=<scratch folder>
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${out}")
  if(NOT rc EQUAL 0)
    string(JOIN " " command ${ARGN})
    message(FATAL_ERROR "`${command}` failed (${rc}):\n${out}\n${err}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
# No header but weft's public ones is installed.
file(GLOB_RECURSE installed RELATIVE ${WORK_DIR}/prefix/include ${WORK_DIR}/prefix/include/*)
foreach(header ${installed})
  if(NOT header MATCHES "^weft/[a-z_]+\\.h$")
    message(FATAL_ERROR "the install put ${header} among the public headers")
  endif()
endforeach()
foreach(example consumer host_app)
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/${example} -B ${WORK_DIR}/${example}
      -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release)
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/${example} --parallel 2)
endforeach()
run(${WORK_DIR}/consumer/consumer)
run(${WORK_DIR}/host_app/host_app --png ${WORK_DIR}/host_app.png --check)

# The module rules refuse what they forbid: cmake/check_layers.cmake run over tests/layers/, a tree
# whose files each break named rules (and make allowed includes beside them), must fail and name
# each forbidden include, and no allowed one.
execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${FIXTURE} -P ${CHECK}
  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX REPLACE "[ \n]+" " " text "${out}${err}")
if(result EQUAL 0)
  message(FATAL_ERROR "check_layers.cmake passed a tree that breaks its rules:\n${text}")
endif()
foreach(expected
    "engine/bad.h includes \"solver/model/cloth_model.h\""
    "solver/model/bad.h includes \"engine/buffer.h\""
    "solver/model/bad.h includes \"solver/io/recording.h\""
    "solver/integrators/xpbd/bad.cpp includes \"solver/contact/contact.h\""
    "solver/integrators/xpbd/bad.cpp includes \"solver/passes/handles.h\""
    "solver/integrators/xpbd/bad.cpp includes \"solver/integrators/verlet/verlet.h\""
    "demos/bad.cpp includes \"solver/integrators/xpbd/xpbd.h\""
    "solver/cpu/simd/bad.h includes \"solver/cpu/thread_pool.h\""
    "8 include(s) against the module rules")
  string(FIND "${text}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "check_layers.cmake did not refuse: ${expected}\nIt printed: ${text}")
  endif()
endforeach()
message(STATUS "check_layers.cmake refused each of the 8 forbidden includes and none of the allowed ones")

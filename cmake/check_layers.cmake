# The rules of which module may include which (docs/architecture.md), checked over every source
# file of the tree before anything compiles: each library depends on the target weft_layers, which
# runs this script, so a forbidden include fails the build with the file, the line's include and the
# rule it breaks. tests/CMakeLists.txt runs it again on a tree that breaks each rule once
# (tests/layers/), to show that it refuses them.
#   cmake -DROOT=<checkout> -P cmake/check_layers.cmake
#
# A module is a folder; a file belongs to the deepest one listed. Includes are written from the
# checkout's root ("solver/model/cloth_model.h"), so an include's module is read from its path.
# Each rule: a module, the include folders it may not name (comma-separated), and why.
if(NOT ROOT)
  message(FATAL_ERROR "check_layers.cmake: -DROOT=<checkout> is required")
endif()

# The integrators, one folder each under solver/integrators/ (everything there but common/).
file(GLOB integrator_dirs LIST_DIRECTORIES true RELATIVE "${ROOT}/solver/integrators" "${ROOT}/solver/integrators/*")
set(integrators "")
foreach(dir IN LISTS integrator_dirs)
  if(IS_DIRECTORY "${ROOT}/solver/integrators/${dir}" AND NOT dir STREQUAL "common")
    list(APPEND integrators "${dir}")
  endif()
endforeach()
set(every_integrator "")
foreach(name IN LISTS integrators)
  string(APPEND every_integrator ",solver/integrators/${name}/")
endforeach()

# module | folders it may not include | why (one sentence, printed with a refusal)
set(rules
  "engine/|solver/,shaders/,demos/|the Vulkan layer names no cloth concept"
  "shaders/|engine/,solver/,demos/|the shaders see only the shaders' own headers"
  "solver/model/|engine/,solver/io/,solver/backend/,solver/cpu/,solver/gpu/,solver/contact/,solver/passes/,solver/integrators/,solver/api/,demos/|the model knows no file format, no Vulkan and no backend"
  "solver/io/|engine/,solver/backend/,solver/cpu/,solver/gpu/,solver/contact/,solver/passes/,solver/integrators/,solver/api/,demos/|the readers and writers see the model alone"
  "solver/cpu/simd/|engine/,solver/,demos/|the vector lanes are a leaf any kernel may use"
  "solver/integrators/common/|solver/io/,solver/contact/,solver/passes/,solver/api/,demos/${every_integrator}|what integrators share includes no integrator, no contact and no pass"
  "solver/contact/|solver/io/,solver/passes/,solver/api/,demos/${every_integrator}|contact includes no integrator and no pass"
  "solver/passes/|solver/io/,solver/contact/,solver/api/,demos/${every_integrator}|a pass includes no integrator and no contact"
  "solver/backend/|solver/io/,solver/api/,demos/${every_integrator}|the backends include no integrator's folder (they reach integrators through the registry)"
  "solver/cpu/|solver/io/,solver/api/,demos/${every_integrator}|the backends include no integrator's folder (they reach integrators through the registry)"
  "solver/gpu/|solver/io/,solver/api/,demos/${every_integrator}|the backends include no integrator's folder (they reach integrators through the registry)"
  "solver/api/|solver/io/,demos/${every_integrator}|the public API reaches integrators through the registry and reads no file format"
  "demos/|${every_integrator}|the program never includes an integrator's folder (it enumerates the registry)"
  "examples/|engine/,solver/,shaders/,demos/|an example host sees the public headers alone")
foreach(name IN LISTS integrators)
  set(others "")
  foreach(other IN LISTS integrators)
    if(NOT other STREQUAL name)
      string(APPEND others ",solver/integrators/${other}/")
    endif()
  endforeach()
  list(APPEND rules
    "solver/integrators/${name}/|solver/io/,solver/contact/,solver/passes/,solver/api/,demos/${others}|an integrator includes no other integrator, no contact and no pass")
endforeach()

file(GLOB_RECURSE sources RELATIVE "${ROOT}"
  "${ROOT}/engine/*.h" "${ROOT}/engine/*.cpp"
  "${ROOT}/shaders/*.h" "${ROOT}/shaders/*.glsl" "${ROOT}/shaders/*.comp" "${ROOT}/shaders/*.vert" "${ROOT}/shaders/*.frag"
  "${ROOT}/solver/*.h" "${ROOT}/solver/*.cpp"
  "${ROOT}/demos/*.h" "${ROOT}/demos/*.cpp"
  "${ROOT}/examples/*.h" "${ROOT}/examples/*.cpp")

set(refusals 0)
foreach(file IN LISTS sources)
  # The deepest module the file is in.
  set(module "")
  set(forbidden "")
  set(why "")
  foreach(rule IN LISTS rules)
    string(REGEX REPLACE "\\|.*$" "" prefix "${rule}")
    string(LENGTH "${prefix}" prefix_length)
    string(LENGTH "${module}" module_length)
    string(FIND "${file}" "${prefix}" at)
    if(at EQUAL 0 AND prefix_length GREATER module_length)
      set(module "${prefix}")
      string(REGEX REPLACE "^[^|]*\\|([^|]*)\\|.*$" "\\1" forbidden "${rule}")
      string(REPLACE "," ";" forbidden "${forbidden}")
      string(REGEX REPLACE "^.*\\|" "" why "${rule}")
    endif()
  endforeach()
  if(module STREQUAL "")
    continue()
  endif()
  file(STRINGS "${ROOT}/${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*$" "\\1" included "${line}")
    string(FIND "${included}" "${module}" own)
    if(own EQUAL 0)
      continue()  # a module's own files
    endif()
    foreach(folder IN LISTS forbidden)
      if(folder STREQUAL "")
        continue()
      endif()
      string(FIND "${included}" "${folder}" at)
      if(at EQUAL 0)
        message(SEND_ERROR "${file} includes \"${included}\": ${module} may not include ${folder} (${why}).")
        math(EXPR refusals "${refusals} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
if(refusals GREATER 0)
  message(FATAL_ERROR "check_layers.cmake: ${refusals} include(s) against the module rules (docs/architecture.md).")
endif()

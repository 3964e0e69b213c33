# `cmake --install`: the public headers (include/weft/), the static libraries, and the CMake package
# that gives a host `find_package(weft CONFIG REQUIRED)` and the target weft::weft. weft::weft's
# internal parts (weft_solver, weft_model, weft_engine) are installed for the linker only: no
# header of theirs is.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS weft_library weft_solver weft_model weft_engine
  EXPORT weftTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/weft DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/weft/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/weft)

set(weft_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/weft)
install(EXPORT weftTargets NAMESPACE weft:: DESTINATION ${weft_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/weftConfig.cmake.in
  ${PROJECT_BINARY_DIR}/weftConfig.cmake INSTALL_DESTINATION ${weft_cmake_dir})
# Same major version: the 0.x series promises nothing between minor versions, so 0.x asks for an
# exact minor match (SameMinorVersion) until 1.0.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/weftConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/weftConfig.cmake ${PROJECT_BINARY_DIR}/weftConfigVersion.cmake
  DESTINATION ${weft_cmake_dir})

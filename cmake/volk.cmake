# Debian ships volk as a header and a source file only: build it as a small static library.
find_file(WEFT_VOLK_SOURCE volk.c PATHS /usr/include REQUIRED)
add_library(weft_volk STATIC ${WEFT_VOLK_SOURCE})
target_compile_definitions(weft_volk PUBLIC VK_NO_PROTOTYPES)
target_link_libraries(weft_volk PUBLIC Vulkan::Headers ${CMAKE_DL_LIBS})
set_target_properties(weft_volk PROPERTIES POSITION_INDEPENDENT_CODE ON)

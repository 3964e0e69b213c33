# Dear ImGui from Debian's libimgui-dev. The packaged libimgui.a has a Vulkan backend built against the
# global Vulkan prototypes, which weft does not link; the package's own backend source is compiled here
# instead with IMGUI_IMPL_VULKAN_NO_PROTOTYPES (its functions come from a loader callback that asks the
# viewer's Context). Linked
# before libimgui.a, this object's symbols win; the packaged GLFW backend is used as it is.
find_package(PkgConfig REQUIRED)
pkg_check_modules(WEFT_IMGUI REQUIRED IMPORTED_TARGET imgui)
find_file(WEFT_IMGUI_VULKAN_SOURCE imgui_impl_vulkan.cpp
  PATHS /usr/share/doc/libimgui-dev/examples/backends REQUIRED NO_DEFAULT_PATH)
find_path(WEFT_IMGUI_BACKENDS imgui_impl_vulkan.h PATHS /usr/include/imgui/backends REQUIRED NO_DEFAULT_PATH)
add_library(weft_imgui STATIC ${WEFT_IMGUI_VULKAN_SOURCE})
target_compile_definitions(weft_imgui PUBLIC IMGUI_IMPL_VULKAN_NO_PROTOTYPES)
target_include_directories(weft_imgui PUBLIC ${WEFT_IMGUI_BACKENDS}/.. ${WEFT_IMGUI_BACKENDS})
target_link_libraries(weft_imgui PUBLIC Vulkan::Headers PkgConfig::WEFT_IMGUI)
# Third-party source: its warnings are not ours to fix.
target_compile_options(weft_imgui PRIVATE -w)

#pragma once
// VK_CHECK: programmer errors (a Vulkan call that must not fail) reported with file and line.
#include <vulkan/vulkan_core.h>

#include <stdexcept>
#include <string>

namespace weft::engine {

const char* vkResultName(VkResult result);

[[noreturn]] void throwVkError(VkResult result, const char* expr, const char* file, int line);

}  // namespace weft::engine

#define VK_CHECK(expr)                                                                  \
  do {                                                                                  \
    VkResult weft_vk_result_ = (expr);                                                  \
    if (weft_vk_result_ != VK_SUCCESS)                                                  \
      ::weft::engine::throwVkError(weft_vk_result_, #expr, __FILE__, __LINE__);         \
  } while (0)

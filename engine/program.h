#pragma once
// Compute and graphics programs. A program reads its own layout from the SPIR-V (set-0 storage
// buffer bindings, workgroup size), so adding a kernel is a shader file and one constructor call.
// Descriptors are pushed per dispatch (VK_KHR_push_descriptor): no pools, no sets to keep alive.
#include <vulkan/vulkan_core.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace weft::engine {

class Buffer;
class Context;
struct VulkanApi;
class ShaderLibrary;

// What a program needs to know about a shader, read from its SPIR-V.
struct ShaderLayout {
  std::array<uint32_t, 3> localSize{1, 1, 1};
  std::vector<uint32_t> bindings;  // storage buffers in set 0, ascending
  std::vector<uint32_t> specIds;   // specialization constants' constant_id, ascending
};
ShaderLayout reflectShader(std::span<const uint32_t> spirv);

// A 32-bit specialization constant: its constant_id and the value the pipeline is built with.
struct SpecConstant {
  uint32_t id;
  uint32_t value;
};

struct BufferBinding {
  uint32_t binding;
  const Buffer* buffer;
  // The bytes of the buffer this dispatch can reach, where it indexes a known part of it (a colour's
  // constraints; 0 where it reads and writes none of it this time): what the recording statistics
  // count for it (RecordStats). None: the whole buffer. The buffer is bound whole either way.
  std::optional<uint64_t> reach = std::nullopt;
};

// Every program has one push-constant range of this size: the minimum every device guarantees.
constexpr uint32_t kPushConstantBytes = 128;

// The least maxPushDescriptors a device with VK_KHR_push_descriptor may report: a kernel binds at
// most this many storage buffers (checked when it is built).
constexpr uint32_t kMaxPushDescriptors = 32;

// The Vulkan objects of a built program, destroyed with the last Program that holds them
// (engine/program.cpp).
struct ProgramObjects;

class Program {
 public:
  Program() = default;
  // Copies share one pipeline: a context's program library hands out copies of the compute
  // programs it built, so every solver on a device uses one pipeline per kernel.
  Program(const Program&) = default;
  Program& operator=(const Program&) = default;
  Program(Program&&) noexcept = default;
  Program& operator=(Program&&) noexcept = default;
  ~Program() = default;

  const std::string& name() const { return name_; }
  const std::vector<uint32_t>& bindings() const { return bindings_; }
  VkPipeline pipeline() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }

  // Binds the pipeline, pushes the descriptors and the push constants. Every binding the shader
  // declares must be given (checked: a missing one is a programmer error).
  void bind(VkCommandBuffer cmd, std::span<const BufferBinding> buffers, const void* push, uint32_t pushBytes) const;

 protected:
  void createLayout(const Context& context, const std::vector<uint32_t>& bindings, VkShaderStageFlags stages);
  VkPipelineBindPoint bindPoint_ = VK_PIPELINE_BIND_POINT_COMPUTE;
  VkShaderStageFlags stages_ = 0;
  const VulkanApi* vk_ = nullptr;  // the context's table, which records this program's commands
  VkDevice device_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  std::vector<uint32_t> bindings_;
  std::string name_;
  uint32_t localSize_ = 1;       // compute only
  uint32_t maxGroupsX_ = 65535;  // compute only
  std::shared_ptr<ProgramObjects> objects_;  // owns the handles above
};

class ComputeProgram : public Program {
 public:
  ComputeProgram() = default;
  // `constants`: the values of specialization constants, by constant_id; those the shader does not
  // declare are left out of its pipeline (Vulkan allows them; skipping keeps the map exact). The
  // context builds one pipeline per kernel and set of values given, so pass them only to the
  // kernels whose code depends on them.
  ComputeProgram(const Context& context, const ShaderLibrary& library, const std::string& shaderName,
                 std::span<const SpecConstant> constants = {});

  uint32_t workgroupSize() const { return localSize_; }

  // Dispatches enough workgroups for `threads` invocations (1-D, folded into a 2-D grid past the
  // device's per-dimension limit; shaders guard the tail with their element count).
  template <class Push>
  void dispatch(VkCommandBuffer cmd, uint32_t threads, std::span<const BufferBinding> buffers,
                const Push& push) const {
    static_assert(sizeof(Push) <= kPushConstantBytes);
    bind(cmd, buffers, &push, sizeof(Push));
    dispatchGroups(cmd, threads);
  }
  template <class Push>
  void dispatch(VkCommandBuffer cmd, uint32_t threads, std::initializer_list<BufferBinding> buffers,
                const Push& push) const {
    dispatch(cmd, threads, std::span<const BufferBinding>(buffers.begin(), buffers.size()), push);
  }

  // Dispatches the group counts a previous pass wrote into `args` at `offset`
  // (VkDispatchIndirectCommand): how an iterative solver stops itself without the host, by writing
  // zero groups once converged. Needs barrier::computeToIndirect after the writing pass.
  template <class Push>
  void dispatchIndirect(VkCommandBuffer cmd, const Buffer& args, VkDeviceSize offset,
                        std::span<const BufferBinding> buffers, const Push& push) const {
    static_assert(sizeof(Push) <= kPushConstantBytes);
    bind(cmd, buffers, &push, sizeof(Push));
    dispatchIndirectGroups(cmd, args, offset);
  }

  // Workgroups a dispatch of `threads` invocations uses, as dispatch() lays them out.
  void groupsFor(uint32_t threads, uint32_t& x, uint32_t& y) const;

 private:
  void dispatchGroups(VkCommandBuffer cmd, uint32_t threads) const;
  void dispatchIndirectGroups(VkCommandBuffer cmd, const Buffer& args, VkDeviceSize offset) const;
};

// renderPass null in GraphicsProgram: dynamic rendering into colorFormat (and depthFormat, unless
// UNDEFINED) instead of a render pass's subpass.
struct GraphicsState {
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPolygonMode polygonMode = VK_POLYGON_MODE_FILL;
  VkCullModeFlags cullMode = VK_CULL_MODE_NONE;
  bool depthTest = true;
  bool depthWrite = true;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  uint32_t subpass = 0;
  VkFormat colorFormat = VK_FORMAT_UNDEFINED;  // dynamic rendering only
  VkFormat depthFormat = VK_FORMAT_UNDEFINED;  // dynamic rendering only
};

class GraphicsProgram : public Program {
 public:
  GraphicsProgram() = default;
  // Vertex pulling only: no vertex input state; the vertex shader reads storage buffers.
  GraphicsProgram(const Context& context, const ShaderLibrary& library, const std::string& vertexShader,
                  const std::string& fragmentShader, VkRenderPass renderPass, const GraphicsState& state);
};

}  // namespace weft::engine

// Each Context calls Vulkan through its own table (engine/vulkan_api.h): several contexts, owned or
// borrowed, work side by side in one process.

// A host application may include weft's headers with the Vulkan prototypes declared (weft's own
// sources build with VK_NO_PROTOTYPES): the headers must not depend on either.
#undef VK_NO_PROTOTYPES
#include <vulkan/vulkan_core.h>

#include <atomic>
#include <cstring>
#include <numeric>
#include <type_traits>

#include "engine/buffer.h"
#include "engine/context.h"
#include "solver/gpu/gpu_solver.h"
#include "test_support.h"

static_assert(std::is_same_v<decltype(&vkGetInstanceProcAddr), PFN_vkGetInstanceProcAddr>,
              "the test sees the global prototypes, as a host application would");

namespace weft::test {
namespace {

ClothModel smallCloth() {
  GridSpec grid;
  grid.width = 8;
  grid.height = 8;
  ClothModel model = buildGrid(grid, Material{});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  return model;
}

std::vector<glm::vec4> positionsAfter(GpuSolver& solver, int frames) {
  for (int f = 0; f < frames; ++f) solver.advance(1.f / 60.f, 4);
  std::vector<glm::vec4> positions, velocities;
  solver.readState(positions, velocities);
  return positions;
}

bool bitwiseEqual(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4)) == 0;
}

void expectClean(const engine::Context& context, const char* which) {
  EXPECT_EQ(context.validationMessageCount(), 0u)
      << which << ": " << (context.validationMessages().empty() ? "" : context.validationMessages().back());
}

std::vector<uint32_t> roundTrip(const engine::Context& context, const std::vector<uint32_t>& data) {
  engine::Buffer buffer(context, data.size() * 4, engine::kStorageUsage, engine::MemoryUsage::DeviceLocal,
                        "test.vulkanApi.roundTrip");
  engine::uploadBuffer(context, buffer, data.data(), data.size() * 4);
  std::vector<uint32_t> back(data.size());
  engine::downloadBuffer(context, buffer, back.data(), back.size() * 4);
  return back;
}

// Two owned, validated contexts (their own instances and devices) alive at once, and a third
// without the validation layer: each runs its own solver, interleaved, and all agree bit for bit.
// With one process-wide table (as volk had), the last context loaded would serve all three, and the
// validated ones' objects would reach the driver without their layer.
TEST(VulkanApiTest, ContextsAliveAtOnceEachRunTheirOwnWork) {
  engine::Context a(engine::ContextOptions{.validation = true});
  engine::Context b(engine::ContextOptions{.validation = true});
  engine::Context plain(engine::ContextOptions{});
  EXPECT_NE(a.device(), b.device());
  EXPECT_NE(&a.vk(), &b.vk());
  ClothModel model = smallCloth();
  SolverParams params;
  GpuSolver onA(model, params, a, embeddedShaders());
  GpuSolver onB(model, params, b, embeddedShaders());
  GpuSolver onPlain(model, params, plain, embeddedShaders());
  const std::vector<glm::vec4> start = positionsAfter(onA, 0);
  std::vector<glm::vec4> pa, pb, pp;
  for (int round = 0; round < 3; ++round) {  // interleaved: every context's objects live throughout
    pa = positionsAfter(onA, 2);
    pb = positionsAfter(onB, 2);
    pp = positionsAfter(onPlain, 2);
  }
  EXPECT_TRUE(bitwiseEqual(pa, pb));
  EXPECT_TRUE(bitwiseEqual(pa, pp));
  EXPECT_GT(maxPositionDifference(pa, start), 0.f) << "the cloth did not move";

  std::vector<uint32_t> data(4099);
  std::iota(data.begin(), data.end(), 11u);
  EXPECT_EQ(roundTrip(a, data), data);
  EXPECT_EQ(roundTrip(b, data), data);
  EXPECT_EQ(roundTrip(plain, data), data);
  expectClean(a, "context a");
  expectClean(b, "context b");
}

std::atomic<int> hostLookups{0};
PFN_vkGetInstanceProcAddr hostNext = nullptr;

// A host's vkGetInstanceProcAddr: counts what weft asks it for, and forwards.
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL hostGetInstanceProcAddr(VkInstance instance, const char* name) {
  ++hostLookups;
  return hostNext(instance, name);
}

// Context B borrows context A's device and loads its table from the function the host gives
// (ExternalDevice::getInstanceProcAddr), not from the loader weft opens: both run the same step and
// end bit for bit alike, and A's validation layer (on the shared instance) sees nothing wrong.
TEST(VulkanApiTest, BorrowedDeviceLoadsTheHostsTableAndMatchesTheOwner) {
  engine::Context a(engine::ContextOptions{.validation = true});
  hostNext = a.vk().GetInstanceProcAddr;
  hostLookups = 0;
  engine::ExternalDevice external{.instance = a.instance(),
                                  .physicalDevice = a.physicalDevice(),
                                  .device = a.device(),
                                  .queue = a.queue(),
                                  .queueFamily = a.queueFamily(),
                                  .getInstanceProcAddr = &hostGetInstanceProcAddr};
  ClothModel model = smallCloth();
  SolverParams params;
  std::vector<glm::vec4> onA, onB;
  {
    engine::Context b(external);
    EXPECT_FALSE(b.ownsDevice());
    EXPECT_GT(hostLookups.load(), 0) << "the borrowed context did not load through the host's function";
    EXPECT_EQ(b.vk().GetInstanceProcAddr, &hostGetInstanceProcAddr);
    GpuSolver solverB(model, params, b, embeddedShaders());
    onB = positionsAfter(solverB, 3);
  }  // B goes first: A's device must outlive it
  GpuSolver solverA(model, params, a, embeddedShaders());
  onA = positionsAfter(solverA, 3);
  EXPECT_TRUE(bitwiseEqual(onA, onB));
  expectClean(a, "context a (and b, on its instance)");
}

}  // namespace
}  // namespace weft::test

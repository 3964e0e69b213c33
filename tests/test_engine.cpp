// The host layer: SPIR-V reflection, buffers, run-time shader compilation.
#include <algorithm>
#include <array>
#include <numeric>

#include "engine/buffer.h"
#include "engine/commands.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/gpu_timer.h"
#include "engine/program.h"
#include "engine/record_stats.h"
#include "engine/shader_library.h"
#include "shaders/shared.h"
#include "test_support.h"

namespace weft::test {
namespace {

class EngineTest : public ValidatedTest {};

TEST_F(EngineTest, ReflectionReadsBindingsAndWorkgroupSize) {
  auto code = embeddedShaders().load("euler_step.comp");
  engine::ShaderLayout layout = engine::reflectShader(code);
  EXPECT_EQ(layout.localSize[0], uint32_t(WEFT_WORKGROUP_SIZE));
  std::vector<uint32_t> expected = {WEFT_BIND_POSITIONS,  WEFT_BIND_VELOCITIES, WEFT_BIND_POSITIONS_OUT,
                                    WEFT_BIND_VELOCITIES_OUT, WEFT_BIND_SPRING_ROWS, WEFT_BIND_SPRINGS,
                                    WEFT_BIND_COLLIDERS,  WEFT_BIND_ELEMENTS,   WEFT_BIND_ELEMENT_ROWS,
                                    WEFT_BIND_ELEMENT_REFS, WEFT_BIND_SPRING_BOUNDS, WEFT_BIND_COLLIDER_GRID,
                                    WEFT_BIND_COLLIDER_CELLS, WEFT_BIND_CONTACT_PAIRS, WEFT_BIND_CONTACT_PAIR_COUNTS};
  EXPECT_EQ(layout.bindings, expected);
  // verlet_predict touches neither springs nor colliders (only the elements, for aerodynamics; it
  // starts the step's carried velocity in VELOCITIES_OUT): the compiler drops them, reflection agrees
  auto predict = engine::reflectShader(embeddedShaders().load("verlet_predict.comp"));
  EXPECT_EQ(predict.bindings,
            (std::vector<uint32_t>{WEFT_BIND_POSITIONS, WEFT_BIND_VELOCITIES, WEFT_BIND_POSITIONS_OUT,
                                   WEFT_BIND_VELOCITIES_OUT, WEFT_BIND_PREV_POSITIONS, WEFT_BIND_ELEMENTS,
                                   WEFT_BIND_ELEMENT_ROWS, WEFT_BIND_ELEMENT_REFS, WEFT_BIND_CONTACT_PAIRS,
                                   WEFT_BIND_CONTACT_PAIR_COUNTS}));
}

// A recording-statistics sink counts each dispatch, with the sizes of the buffers it binds, and
// each barrier, under the timer pass open when recorded; with no sink installed nothing is counted.
TEST_F(EngineTest, RecordStatsCountsDispatchesBarriersAndBoundBytesPerPass) {
  engine::ComputeProgram copy(gpuContext(), embeddedShaders(), "copy.comp");
  engine::Buffer src(gpuContext(), 1000 * 16, engine::kStorageUsage, engine::MemoryUsage::DeviceLocal, "test.src");
  engine::Buffer dst(gpuContext(), 2000 * 16, engine::kStorageUsage, engine::MemoryUsage::DeviceLocal, "test.dst");
  engine::GpuTimer timer(gpuContext(), 4);
  gpu::StepParams params{};
  params.particleCount = 1000;
  auto record = [&](VkCommandBuffer cmd) {
    timer.reset(cmd);
    engine::timed(&timer, cmd, "copy", [&] {
      copy.dispatch(cmd, 1000, {{WEFT_BIND_POSITIONS, &src}, {WEFT_BIND_POSITIONS_OUT, &dst}}, params);
      copy.dispatch(cmd, 1000, {{WEFT_BIND_POSITIONS, &src}, {WEFT_BIND_POSITIONS_OUT, &dst}}, params);
    });
    engine::barrier::computeToCompute(gpuContext().vk(), cmd);
  };
  engine::RecordStats stats;
  {
    engine::ScopedRecordStats counting(stats);
    engine::submitAndWait(gpuContext(), record);
  }
  engine::submitAndWait(gpuContext(), record);  // not counted: the sink is gone
  EXPECT_EQ(engine::recordStats(), nullptr);
  const engine::PassRecordStats total = stats.total();
  EXPECT_EQ(total.dispatches, 2u);
  EXPECT_EQ(total.barriers, 1u);
  EXPECT_EQ(total.boundBytes, 2u * 3000 * 16);
  EXPECT_EQ(stats.distinctBoundBytes(), 3000u * 16);
  if (timer.enabled()) {
    ASSERT_EQ(stats.passes().size(), 2u);
    EXPECT_EQ(stats.passes()[0].name, "copy");
    EXPECT_EQ(stats.passes()[0].dispatches, 2u);
    EXPECT_EQ(stats.passes()[0].barriers, 0u);
    EXPECT_EQ(stats.passes()[1].name, "");  // the barrier after the pass
    EXPECT_EQ(stats.passes()[1].barriers, 1u);
  }
}

// A dispatch that declares the part of a buffer it reaches (BufferBinding::reach) counts that part of
// it, none of it for a reach of 0, and never more than the buffer; the others count whole.
TEST_F(EngineTest, RecordStatsCountsTheReachADispatchDeclares) {
  engine::ComputeProgram copy(gpuContext(), embeddedShaders(), "copy.comp");
  engine::Buffer src(gpuContext(), 1000 * 16, engine::kStorageUsage, engine::MemoryUsage::DeviceLocal, "test.src");
  engine::Buffer dst(gpuContext(), 2000 * 16, engine::kStorageUsage, engine::MemoryUsage::DeviceLocal, "test.dst");
  gpu::StepParams params{};
  params.particleCount = 100;
  engine::RecordStats stats;
  {
    engine::ScopedRecordStats counting(stats);
    engine::submitAndWait(gpuContext(), [&](VkCommandBuffer cmd) {
      copy.dispatch(cmd, 100, {{WEFT_BIND_POSITIONS, &src, 100 * 16}, {WEFT_BIND_POSITIONS_OUT, &dst}}, params);
      copy.dispatch(cmd, 100, {{WEFT_BIND_POSITIONS, &src, 0}, {WEFT_BIND_POSITIONS_OUT, &dst, 100 * 16}}, params);
      copy.dispatch(cmd, 100, {{WEFT_BIND_POSITIONS, &src, 5000 * 16}, {WEFT_BIND_POSITIONS_OUT, &dst, 100 * 16}}, params);
    });
  }
  EXPECT_EQ(stats.total().dispatches, 3u);
  EXPECT_EQ(stats.total().boundBytes, (100u + 2000u) * 16 + (0u + 100u) * 16 + (1000u + 100u) * 16);
}

TEST_F(EngineTest, BufferRoundTripIsExact) {
  std::vector<uint32_t> data(100003);
  std::iota(data.begin(), data.end(), 7u);
  engine::Buffer buffer(gpuContext(), data.size() * 4, engine::kStorageUsage, engine::MemoryUsage::DeviceLocal,
                        "test.roundtrip");
  engine::uploadBuffer(gpuContext(), buffer, data.data(), data.size() * 4);
  std::vector<uint32_t> back(data.size());
  engine::downloadBuffer(gpuContext(), buffer, back.data(), back.size() * 4);
  EXPECT_EQ(back, data);
}

TEST_F(EngineTest, RuntimeCompiledShadersMatchEmbeddedOnes) {
  // --shader-dir compiles the GLSL with shaderc at start-up: the solver must behave the same.
  engine::ShaderLibrary fromSource(std::string(WEFT_SOURCE_DIR) + "/shaders");
  GridSpec grid;
  grid.width = 10;
  grid.height = 10;
  ClothModel model = buildGrid(grid, Material{});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  SolverParams params;
  auto embedded = makeSolver(model, params, Backend::Gpu, &gpuContext(), &embeddedShaders());
  auto compiled = makeSolver(model, params, Backend::Gpu, &gpuContext(), &fromSource);
  embedded->advance(0.1f, 10);
  compiled->advance(0.1f, 10);
  std::vector<glm::vec4> a, b, va, vb;
  embedded->readState(a, va);
  compiled->readState(b, vb);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(glm::distance(a[i], b[i]), 0.f, 1e-6f) << i;
}

// Every element-gathering kernel comes in a variant for cloths of springs only that declares none of
// the element buffers, contact's pairs among them (so none is bound per dispatch), embedded and compiled at run time alike.
TEST_F(EngineTest, SpringsOnlyKernelVariantsDeclareNoElementBuffers) {
  engine::ShaderLibrary fromSource(std::string(WEFT_SOURCE_DIR) + "/shaders");
  auto declares = [](const engine::ComputeProgram& p, uint32_t binding) {
    return std::find(p.bindings().begin(), p.bindings().end(), binding) != p.bindings().end();
  };
  for (const char* file : {"euler_step.comp", "verlet_predict.comp", "verlet_relax.comp", "rk4_stage.comp",
                           "cg_setup.comp", "cg_product.comp", "newton_gradient.comp", "newton_sweep.comp",
                           "nlcg_residual.comp"}) {
    const engine::ComputeProgram full(gpuContext(), embeddedShaders(), file);
    EXPECT_TRUE(declares(full, WEFT_BIND_ELEMENT_REFS)) << file;
    for (const engine::ShaderLibrary* library : {&embeddedShaders(), static_cast<const engine::ShaderLibrary*>(&fromSource)}) {
      const engine::ComputeProgram springsOnly(gpuContext(), *library, std::string(file) + engine::kNoElementsVariant);
      for (uint32_t binding : {WEFT_BIND_ELEMENTS, WEFT_BIND_ELEMENT_ROWS, WEFT_BIND_ELEMENT_REFS,
                               WEFT_BIND_CONTACT_PAIRS, WEFT_BIND_CONTACT_PAIR_COUNTS})
        EXPECT_FALSE(declares(springsOnly, binding)) << file << " binding " << binding;
      // and it drops nothing else a springs-only step reads (Newton's sweep also drops the iterate,
      // which only its element product read).
      for (uint32_t binding : springsOnly.bindings()) EXPECT_TRUE(declares(full, binding)) << file << " " << binding;
      EXPECT_LE(springsOnly.bindings().size() + 3, full.bindings().size()) << file;
    }
  }
}

// Every kernel that gathers springs (by particleAcceleration, or Verlet's constraints) comes in a grid stencil variant, with and
// without elements, embedded and compiled at run time alike: it declares the stencil and none of
// the spring table's buffers (so a grid's step binds and moves none of them), and nothing else new
// but the stencil's rest lengths.
TEST_F(EngineTest, GridStencilVariantsDeclareTheStencilAndNoSpringTable) {
  engine::ShaderLibrary fromSource(std::string(WEFT_SOURCE_DIR) + "/shaders");
  auto declares = [](const engine::ComputeProgram& p, uint32_t binding) {
    return std::find(p.bindings().begin(), p.bindings().end(), binding) != p.bindings().end();
  };
  for (const char* file : {"euler_step.comp", "rk4_stage.comp", "nlcg_start.comp", "nlcg_residual.comp", "verlet_relax.comp"}) {
    for (const std::string& base : {std::string(file), std::string(file) + engine::kNoElementsVariant}) {
      for (const engine::ShaderLibrary* library : {&embeddedShaders(), static_cast<const engine::ShaderLibrary*>(&fromSource)}) {
        const engine::ComputeProgram table(gpuContext(), *library, base);
        const engine::ComputeProgram stencil(gpuContext(), *library, base + engine::kGridStencilVariant);
        EXPECT_TRUE(declares(table, WEFT_BIND_SPRING_ROWS)) << base;
        EXPECT_FALSE(declares(table, WEFT_BIND_GRID_STENCIL)) << base;
        EXPECT_FALSE(declares(table, WEFT_BIND_GRID_REST_LENGTHS)) << base;
        EXPECT_TRUE(declares(stencil, WEFT_BIND_GRID_STENCIL)) << base;
        EXPECT_TRUE(declares(stencil, WEFT_BIND_GRID_REST_LENGTHS)) << base;
        for (uint32_t binding : {WEFT_BIND_SPRING_ROWS, WEFT_BIND_SPRINGS, WEFT_BIND_SPRING_LINKS, WEFT_BIND_SPRING_BOUNDS})
          EXPECT_FALSE(declares(stencil, binding)) << base << " binding " << binding;
        for (uint32_t binding : stencil.bindings())
          EXPECT_TRUE(binding == WEFT_BIND_GRID_STENCIL || binding == WEFT_BIND_GRID_REST_LENGTHS || declares(table, binding))
              << base << " " << binding;
      }
    }
  }
}

// The kernels that collide declare the collider-kinds constant (shaders/colliders.h), others do not;
// the context keeps one pipeline per kernel and set of values, so a solver built for the same
// colliders shares it and one built for others gets its own.
TEST_F(EngineTest, SpecializationConstantsAreReflectedAndEachSetOfValuesHasItsPipeline) {
  EXPECT_EQ(engine::reflectShader(embeddedShaders().load("xpbd_finish.comp")).specIds,
            std::vector<uint32_t>{WEFT_SPEC_COLLIDER_KINDS});
  EXPECT_TRUE(engine::reflectShader(embeddedShaders().load("copy.comp")).specIds.empty());
  // Values no solver asks for (the grid bit without mesh faces), so no other test built them first.
  const std::array<engine::SpecConstant, 1> gridOnly{{{WEFT_SPEC_COLLIDER_KINDS, WEFT_COLLIDER_GRID_BIT}}};
  const std::array<engine::SpecConstant, 1> gridAndPlane{
      {{WEFT_SPEC_COLLIDER_KINDS, WEFT_COLLIDER_GRID_BIT | WEFT_COLLIDER_KIND_BIT(WEFT_COLLIDER_PLANE)}}};
  const size_t before = gpuContext().pipelineCount();
  const engine::ComputeProgram first(gpuContext(), embeddedShaders(), "xpbd_finish.comp", gridOnly);
  EXPECT_EQ(gpuContext().pipelineCount(), before + 1);
  const engine::ComputeProgram again(gpuContext(), embeddedShaders(), "xpbd_finish.comp", gridOnly);
  EXPECT_EQ(again.pipeline(), first.pipeline());
  EXPECT_EQ(gpuContext().pipelineCount(), before + 1);
  const engine::ComputeProgram other(gpuContext(), embeddedShaders(), "xpbd_finish.comp", gridAndPlane);
  EXPECT_NE(other.pipeline(), first.pipeline());
  EXPECT_EQ(gpuContext().pipelineCount(), before + 2);
}

// The kernels that gather elements declare the element-kinds constant (shaders/elements.h). A
// constant a kernel does not declare is left out of its pipeline and out of the context's key, so
// the solver may hand every kernel the same set: values it never reads build no second pipeline.
TEST_F(EngineTest, ConstantsAKernelDoesNotDeclareShareItsPipeline) {
  const std::vector<uint32_t> projectIds = engine::reflectShader(embeddedShaders().load("xpbd_project.comp")).specIds;
  EXPECT_TRUE(std::find(projectIds.begin(), projectIds.end(), uint32_t(WEFT_SPEC_ELEMENT_KINDS)) != projectIds.end());
  const std::array<engine::SpecConstant, 2> tethers{
      {{WEFT_SPEC_COLLIDER_KINDS, 0u}, {WEFT_SPEC_ELEMENT_KINDS, WEFT_ELEMENT_KIND_BIT(WEFT_ELEMENT_TETHER)}}};
  const std::array<engine::SpecConstant, 2> hinges{
      {{WEFT_SPEC_COLLIDER_KINDS, 0u}, {WEFT_SPEC_ELEMENT_KINDS, WEFT_ELEMENT_KIND_BIT(WEFT_ELEMENT_HINGE)}}};
  const engine::ComputeProgram plain(gpuContext(), embeddedShaders(), "copy.comp");
  const size_t before = gpuContext().pipelineCount();
  const engine::ComputeProgram copyA(gpuContext(), embeddedShaders(), "copy.comp", tethers);
  const engine::ComputeProgram copyB(gpuContext(), embeddedShaders(), "copy.comp", hinges);
  EXPECT_EQ(copyA.pipeline(), plain.pipeline());
  EXPECT_EQ(copyB.pipeline(), plain.pipeline());
  EXPECT_EQ(gpuContext().pipelineCount(), before);
  // xpbd_project reads the element kinds: each set of kinds is a pipeline of its own.
  const engine::ComputeProgram projectA(gpuContext(), embeddedShaders(), "xpbd_project.comp", tethers);
  const engine::ComputeProgram projectB(gpuContext(), embeddedShaders(), "xpbd_project.comp", hinges);
  EXPECT_NE(projectA.pipeline(), projectB.pipeline());
}

TEST_F(EngineTest, MissingShaderFolderIsAnInputError) {
  EXPECT_THROW(engine::ShaderLibrary("/nonexistent/shaders"), InputError);  // names the folder
}

TEST_F(EngineTest, UnknownDeviceNameIsAnInputError) {
  try {
    engine::Context context(engine::ContextOptions{.deviceName = "no-such-gpu-9000"});
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("no-such-gpu-9000"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("available"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace weft::test

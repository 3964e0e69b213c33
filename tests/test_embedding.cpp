// The public library (include/weft/) on a device the test made itself, as a host application
// makes it: recordStep matches the solver's own advance() bit for bit, records without submitting,
// waiting or allocating, keeps one output buffer, and a device weft cannot use is refused in one
// sentence.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include <glm/gtc/matrix_transform.hpp>

#include <weft/weft.h>

#include "host_device.h"
#include "solver/api/api_internal.h"
#include "test_support.h"

namespace weft::test {
namespace {

constexpr float kDt = 1.f / 60.f;

Fabric hangingFabric(const FabricMaterial& material = {}) {
  GridShape shape;
  shape.width = shape.height = 12;
  shape.origin = {-0.5f, 1.f, -0.5f};
  Fabric fabric = Fabric::grid(shape, material);
  fabric.pinCorners(Corners::Two);
  return fabric;
}

std::vector<glm::vec4> asVec4(const std::vector<uint8_t>& bytes) {
  std::vector<glm::vec4> out(bytes.size() / sizeof(glm::vec4));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(glm::vec4));
  return out;
}

// One host device for the suite: what a host's process would have.
HostDevice& host() {
  static HostDevice device;
  return device;
}

class Embedding : public ::testing::Test {
 protected:
  void TearDown() override {
    EXPECT_EQ(host().validationMessages(), seen_) << "validation: " << host().lastValidationMessage();
    seen_ = host().validationMessages();
  }
  static inline size_t seen_ = 0;
};

class EmbeddedIntegrator : public Embedding, public ::testing::WithParamInterface<std::string> {};

// Every integrator that records frames, on the host's device through the public API, against the
// solver's advance() on weft's own device: the same kernels in the same order, so the same bits.
TEST_P(EmbeddedIntegrator, RecordStepMatchesAdvanceBitForBit) {
  Device device(host().desc());
  // Springs soft enough for the explicit methods at 16 steps a frame (omega h about 0.3).
  const Fabric fabric = hangingFabric({.structuralStiffness = 200.f, .shearStiffness = 50.f, .bendStiffness = 5.f,
                                       .damping = 0.02f});
  StepSettings settings;
  settings.integrator = GetParam();
  settings.colliders.push_back(Collider::sphere({0.f, 0.4f, 0.f}, 0.3f));
  GpuCloth cloth(device, fabric, settings);
  const int substeps = 16;
  cloth.prepare(substeps);
  GpuSolver reference(fabric.data().model, detail::toSolverParams(settings), gpuContext(), embeddedShaders());
  for (int frame = 0; frame < 5; ++frame) {
    host().submit([&](VkCommandBuffer cmd) { cloth.recordStep(cmd, kDt, substeps); });
    reference.advance(kDt, substeps);
  }
  std::vector<glm::vec4> x, v, xr, vr;
  cloth.readState(x, v);
  reference.readState(xr, vr);
  ASSERT_EQ(x.size(), xr.size());
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_TRUE(std::isfinite(x[i].x) && std::isfinite(x[i].y) && std::isfinite(x[i].z)) << "particle " << i;
    ASSERT_EQ(x[i], xr[i]) << "particle " << i;
    ASSERT_EQ(v[i], vr[i]) << "particle " << i;
  }
  // The output buffer holds the same positions, and the cloth moved.
  const std::vector<glm::vec4> out =
      asVec4(host().read(cloth.positionBuffer(), cloth.positionOffset(), x.size() * sizeof(glm::vec4)));
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(out[i], x[i]) << "particle " << i;
  EXPECT_LT(x.back().y, 1.f - 0.01f);
}

INSTANTIATE_TEST_SUITE_P(Recordable, EmbeddedIntegrator,
                         ::testing::Values("explicit-euler", "symplectic-euler", "verlet", "rk4", "implicit-cg",
                                           "newton-chebyshev", "imex", "xpbd"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

TEST_F(Embedding, TheOutputBufferKeepsItsHandleWhateverTheSubstepsAndIterations) {
  Device device(host().desc());
  for (int iterations : {9, 10}) {
    StepSettings settings;
    settings.iterations = iterations;
    GpuCloth cloth(device, hangingFabric(), settings);
    cloth.prepare(4);
    const VkBuffer buffer = cloth.positionBuffer();
    for (int substeps : {1, 2, 3, 4}) {
      host().submit([&](VkCommandBuffer cmd) { cloth.recordStep(cmd, kDt, substeps); });
      ASSERT_EQ(cloth.positionBuffer(), buffer) << substeps << " substeps, " << iterations << " iterations";
      std::vector<glm::vec4> x, v;
      cloth.readState(x, v);
      const std::vector<glm::vec4> out = asVec4(host().read(buffer, 0, x.size() * sizeof(glm::vec4)));
      ASSERT_EQ(out[x.size() / 2], x[x.size() / 2]) << substeps << " substeps, " << iterations << " iterations";
    }
  }
}

// The positions land in a buffer of the host's, at its offset, and nowhere else of it.
TEST_F(Embedding, PositionsGoIntoTheHostsOwnBufferAtItsOffset) {
  Device device(host().desc());
  const Fabric fabric = hangingFabric();
  const VkDeviceSize offset = 256, bytes = fabric.particleCount() * sizeof(glm::vec4);
  const VkBuffer buffer =
      host().makeBuffer(offset + bytes + 64, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  host().fill(buffer, 0x7f7f7f7fu);
  GpuCloth cloth(device, fabric, StepSettings{}, {.positionBuffer = buffer, .positionOffset = offset});
  EXPECT_EQ(cloth.positionBuffer(), buffer);
  EXPECT_EQ(cloth.positionOffset(), offset);
  cloth.prepare(2);
  for (int frame = 0; frame < 3; ++frame) host().submit([&](VkCommandBuffer cmd) { cloth.recordStep(cmd, kDt, 2); });
  std::vector<glm::vec4> x, v;
  cloth.readState(x, v);
  const std::vector<uint8_t> all = host().read(buffer, 0, offset + bytes + 64);
  const std::vector<glm::vec4> out = asVec4({all.begin() + offset, all.begin() + offset + bytes});
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(out[i], x[i]) << "particle " << i;
  for (VkDeviceSize b = 0; b < offset; ++b) ASSERT_EQ(all[b], 0x7f) << "byte " << b << " before the offset";
  for (VkDeviceSize b = offset + bytes; b < all.size(); ++b) ASSERT_EQ(all[b], 0x7f) << "byte " << b << " after the positions";
}

TEST_F(Embedding, RecordStepNeitherSubmitsNorWaitsNorAllocates) {
  Device device(host().desc());
  for (const char* integrator : {"verlet", "implicit-cg", "newton-chebyshev", "imex", "xpbd", "xpbd+contact"}) {
    StepSettings settings;
    settings.integrator = std::string(integrator).substr(0, std::string(integrator).find('+'));
    settings.contact.enabled = std::string(integrator).find("contact") != std::string::npos;
    GpuCloth cloth(device, hangingFabric(), settings);
    cloth.prepare(4);
    for (int substeps : {4, 1, 3}) {
      host().submit([&](VkCommandBuffer cmd) {
        weftCalls().reset();
        cloth.recordStep(cmd, kDt, substeps);
        EXPECT_EQ(weftCalls().submits, 0u) << integrator;
        EXPECT_EQ(weftCalls().waits, 0u) << integrator;
        EXPECT_EQ(weftCalls().allocations, 0u) << integrator;
      });
    }
  }
}

// Two free 8 x 8 sheets 6 mm apart, the lower at rest and the upper thrown down onto it at 1 m/s,
// no gravity. After one frame contact
// has pushed both layers apart: the two backends report it alike and mark the same particles, and
// the GPU's mark buffer holds what readContactMarks returns. A cloth without contact reports zeros
// and has no marks.
TEST_F(Embedding, ContactIsReportedAndMarkedPerParticleAlikeOnBothBackends) {
  std::vector<glm::vec3> vertices;
  std::vector<uint32_t> indices;
  const uint32_t n = 8;
  for (int layer = 0; layer < 2; ++layer) {
    const uint32_t first = uint32_t(vertices.size());
    for (uint32_t j = 0; j < n; ++j)
      for (uint32_t i = 0; i < n; ++i) vertices.push_back({0.02f * float(i), 0.006f * float(layer), 0.02f * float(j)});
    for (uint32_t j = 0; j + 1 < n; ++j)
      for (uint32_t i = 0; i + 1 < n; ++i) {
        const uint32_t a = first + j * n + i, b = a + 1, c = a + n, d = c + 1;
        indices.insert(indices.end(), {a, c, b, b, c, d});
      }
  }
  const Fabric fabric = Fabric::mesh(vertices, indices);
  StepSettings settings;
  settings.integrator = "xpbd";
  settings.gravity = glm::vec3(0.f);
  settings.contact.enabled = true;
  settings.contact.thickness = 0.004f;
  settings.contact.radius = 0.01f;
  std::vector<glm::vec4> x(vertices.size()), v(vertices.size(), glm::vec4(0.f));
  for (size_t i = 0; i < x.size(); ++i) x[i] = glm::vec4(vertices[i], 1.f);
  for (size_t i = n * n; i < v.size(); ++i) v[i].y = -1.f;  // the upper sheet, thrown down

  CpuCloth cpu(fabric, settings);
  x = [&] { std::vector<glm::vec4> p, u; cpu.readState(p, u); return p; }();  // the inverse masses
  cpu.writeState(x, v);
  cpu.step(kDt, 4);
  Device device(host().desc());
  GpuCloth gpu(device, fabric, settings);
  gpu.writeState(x, v);
  gpu.prepare(4);
  host().submit([&](VkCommandBuffer cmd) { gpu.recordStep(cmd, kDt, 4); });

  const ContactReport a = cpu.contactReport(), b = gpu.readContactReport();
  EXPECT_LT(a.nearest, 0.0045f) << "nearer than they started, held near the thickness";
  EXPECT_NEAR(b.nearest, a.nearest, 1e-6f);
  EXPECT_NEAR(double(b.pushed), double(a.pushed), 0.02 * double(a.pushed));
  EXPECT_NEAR(double(b.cutShort), double(a.cutShort), 0.02 * double(a.cutShort) + 2.0);
  const std::vector<uint32_t> cpuMarks = cpu.contactMarks(), gpuMarks = gpu.readContactMarks();
  ASSERT_EQ(cpuMarks.size(), x.size());
  ASSERT_EQ(gpuMarks.size(), x.size());
  size_t pushed = 0, differ = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    pushed += (cpuMarks[i] & kContactPushed) != 0;
    differ += cpuMarks[i] != gpuMarks[i];
  }
  EXPECT_EQ(pushed, x.size()) << "every particle of both layers pushed";
  EXPECT_EQ(a.pushed, 4 * pushed) << "in every one of the four steps";
  EXPECT_EQ(a.near, a.pushed) << "every particle near is pushed: the layers are within the thickness";
  EXPECT_EQ(b.near, a.near);
  EXPECT_LT(a.cutShort, a.pushed) << "the throw is cut short only until the layers meet";
  EXPECT_LE(differ, 2u);
  ASSERT_NE(gpu.contactMarkBuffer(), VK_NULL_HANDLE);
  const std::vector<uint8_t> inPlace = host().read(gpu.contactMarkBuffer(), 0, x.size() * sizeof(uint32_t));
  EXPECT_EQ(std::memcmp(inPlace.data(), gpuMarks.data(), inPlace.size()), 0);

  CpuCloth plain(fabric, StepSettings{});
  plain.step(kDt, 1);
  EXPECT_TRUE(plain.contactMarks().empty());
  EXPECT_EQ(plain.contactReport().pushed, 0u);
  GpuCloth plainGpu(device, fabric, StepSettings{});
  EXPECT_EQ(plainGpu.contactMarkBuffer(), VK_NULL_HANDLE);
  EXPECT_TRUE(plainGpu.readContactMarks().empty());
}

TEST_F(Embedding, RecordingMoreSubstepsThanPreparedIsRefused) {
  Device device(host().desc());
  GpuCloth cloth(device, hangingFabric(), StepSettings{});
  cloth.prepare(2);
  host().submit([&](VkCommandBuffer cmd) {
    EXPECT_THROW(cloth.recordStep(cmd, kDt, 3), std::logic_error);
    cloth.recordStep(cmd, kDt, 2);  // a valid frame, so the command buffer is not empty
  });
}

TEST_F(Embedding, SettingsWeftCannotRecordAreRefusedInOneSentence) {
  Device device(host().desc());
  StepSettings settings;
  settings.integrator = "nonlinear-cg";
  try {
    GpuCloth cloth(device, hangingFabric(), settings);
    FAIL() << "nonlinear-cg was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("CpuCloth"), std::string::npos) << e.what();
  }
  settings.integrator = "leapfrog";
  EXPECT_THROW(GpuCloth(device, hangingFabric(), settings), InputError);
  // The two-level preconditioner is the CPU backend's alone; a CpuCloth takes it.
  settings.integrator = "implicit-cg";
  settings.preconditioner = "two-level";
  try {
    GpuCloth cloth(device, hangingFabric(), settings);
    FAIL() << "two-level was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("a CpuCloth's alone"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(CpuCloth(hangingFabric(), settings));
  settings.preconditioner = "ilu";
  EXPECT_THROW(CpuCloth(hangingFabric(), settings), InputError);
  settings = {};
  settings.colliders.push_back(Collider::sphere({0.f, 0.f, 0.f}, -1.f));
  EXPECT_THROW(GpuCloth(device, hangingFabric(), settings), InputError);
  settings = {};
  Collider slippery = Collider::plane({0.f, 1.f, 0.f}, 0.f);
  slippery.friction = 0.5f;
  slippery.staticFriction = 0.2f;  // sticking must take at least what sliding does
  settings.colliders.push_back(slippery);
  EXPECT_THROW(CpuCloth(hangingFabric(), settings), InputError);
  settings.colliders[0].staticFriction = -1.f;  // the same as friction
  EXPECT_NO_THROW(CpuCloth(hangingFabric(), settings));
  settings = {};
  settings.iterations = -1;
  EXPECT_THROW(CpuCloth(hangingFabric(), settings), InputError);
  settings = {};
  settings.contact.enabled = true;
  settings.contact.radius = settings.contact.thickness;  // must exceed it
  EXPECT_THROW(CpuCloth(hangingFabric(), settings), InputError);
  // Contact's tables come from the cloth: a cloth made without it cannot turn it on later.
  GpuCloth cloth(device, hangingFabric(), StepSettings{});
  settings = {};
  settings.contact.enabled = true;
  EXPECT_THROW(cloth.setSettings(settings), InputError);
}

TEST_F(Embedding, ADeviceWithoutPushDescriptorsIsRefusedInOneSentence) {
  HostDevice bare(false);
  DeviceDesc desc = bare.desc();
  const std::string problem = checkDevice(desc);
  EXPECT_NE(problem.find("VK_KHR_push_descriptor"), std::string::npos) << problem;
  try {
    Device device(desc);
    FAIL() << "a device without VK_KHR_push_descriptor was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), problem);
  }
  // A host that says it enabled the extension on a device made without it: weft finds out.
  desc.enabledExtensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  EXPECT_NE(checkDevice(desc).find("VK_KHR_push_descriptor"), std::string::npos) << checkDevice(desc);
  desc = host().desc();
  desc.apiVersion = VK_API_VERSION_1_1;
  EXPECT_NE(checkDevice(desc).find("1.2"), std::string::npos) << checkDevice(desc);
  desc = host().desc();
  desc.getInstanceProcAddr = nullptr;
  EXPECT_THROW(Device{desc}, InputError);
}

TEST_F(Embedding, ClothsOnOneDeviceShareTheirPipelines) {
  Device device(host().desc());
  StepSettings settings;
  settings.integrator = "implicit-cg";
  GpuCloth first(device, hangingFabric(), settings);
  first.prepare(2);
  const size_t pipelines = device.pipelineCount();
  EXPECT_GT(pipelines, 5u);  // implicit-cg's kernels and the normals pass
  GpuCloth second(device, hangingFabric(), settings);
  second.prepare(2);
  EXPECT_EQ(device.pipelineCount(), pipelines);
  settings.integrator = "verlet";
  GpuCloth third(device, hangingFabric(), settings);
  third.prepare(2);
  EXPECT_GT(device.pipelineCount(), pipelines);  // verlet's own kernels
  EXPECT_FALSE(device.pipelineCacheData().empty());
}

// Several weft devices in one process (weft's own and the host's), each with its own function
// table: the same cloth gives the same bits on each.
TEST_F(Embedding, SeveralDevicesInOneProcessStepAlike) {
  Device borrowed(host().desc());
  Device ownA = Device::create({.validation = true});
  Device ownB = Device::create({.validation = true});
  const Fabric fabric = hangingFabric();
  GpuCloth onHost(borrowed, fabric, StepSettings{});
  onHost.prepare(2);
  for (int frame = 0; frame < 3; ++frame)
    host().submit([&](VkCommandBuffer cmd) { onHost.recordStep(cmd, kDt, 2); });
  std::vector<glm::vec4> expected, v;
  onHost.readState(expected, v);
  for (Device* own : {&ownA, &ownB}) {
    GpuCloth cloth(*own, fabric, StepSettings{});
    cloth.prepare(2);
    HostCommands commands(*own);
    for (int frame = 0; frame < 3; ++frame) commands.submit([&](VkCommandBuffer cmd) { cloth.recordStep(cmd, kDt, 2); });
    std::vector<glm::vec4> x;
    cloth.readState(x, v);
    for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(x[i], expected[i]) << "particle " << i;
    EXPECT_EQ(own->validationMessageCount(), 0u);
  }
}

TEST_F(Embedding, TheCpuClothFollowsTheGpuCloth) {
  Device device(host().desc());
  const Fabric fabric = hangingFabric();
  StepSettings settings;
  GpuCloth gpu(device, fabric, settings);
  CpuCloth cpu(fabric, settings);
  gpu.prepare(4);
  for (int frame = 0; frame < 20; ++frame) {
    host().submit([&](VkCommandBuffer cmd) { gpu.recordStep(cmd, kDt, 4); });
    cpu.step(kDt, 4);
  }
  std::vector<glm::vec4> xg, vg, xc, vc;
  gpu.readState(xg, vg);
  cpu.readState(xc, vc);
  EXPECT_LT(maxPositionDifference(xg, xc), 1e-4f);
  EXPECT_LT(xc.back().y, 0.9f);  // it swung down
}

// Raises collider 0 of `settings` under the hanging cloth 2 cm a frame for 20 frames through
// setColliderTransform, on both backends, the GPU's frames recorded without a submission: the
// positions after it.
void liftColliderOnBothBackends(Device& device, const Fabric& fabric, const StepSettings& settings,
                                std::vector<glm::vec4>& gpuX, std::vector<glm::vec4>& cpuX) {
  GpuCloth gpu(device, fabric, settings);
  CpuCloth cpu(fabric, settings);
  gpu.prepare(4);
  for (int frame = 1; frame <= 20; ++frame) {
    const glm::mat4 raised = glm::translate(glm::mat4(1.f), glm::vec3(0.f, 0.02f * frame, 0.f));
    gpu.setColliderTransform(0, raised);
    cpu.setColliderTransform(0, raised);
    host().submit([&](VkCommandBuffer cmd) {
      weftCalls().reset();
      gpu.recordStep(cmd, kDt, 4);
      EXPECT_EQ(weftCalls().submits, 0u);
    });
    cpu.step(kDt, 4);
  }
  std::vector<glm::vec4> v;
  gpu.readState(gpuX, v);
  cpu.readState(cpuX, v);
}

// A host moves a collider every frame (an animated body): a sphere under the hanging cloth rises
// 2 cm a frame by setColliderTransform, recorded without a submission, and lifts the cloth the
// same way on both backends. A transform with scale is refused in one sentence.
TEST_F(Embedding, AColliderTheHostMovesEveryFrameCarriesTheClothOnBothBackends) {
  Device device(host().desc());
  const Fabric fabric = hangingFabric();
  StepSettings settings;
  settings.gravity = glm::vec3(0.f);
  settings.colliders = {Collider::sphere({0.f, 0.7f, 0.f}, 0.2f)};
  std::vector<glm::vec4> xg, xc;
  liftColliderOnBothBackends(device, fabric, settings, xg, xc);
  EXPECT_LT(maxPositionDifference(xg, xc), 1e-4f);
  float highest = 0.f;
  for (const glm::vec4& x : xc) highest = std::max(highest, x.y);
  EXPECT_NEAR(highest, 0.7f + 0.4f + 0.2f + 0.005f, 0.01f);  // on top of the sphere, now centred 0.4 m higher
  CpuCloth cpu(fabric, settings);
  EXPECT_THROW(cpu.setColliderTransform(0, glm::scale(glm::mat4(1.f), glm::vec3(2.f))), InputError);
  EXPECT_THROW(cpu.setColliderTransform(1, glm::mat4(1.f)), InputError);
}

// A box from the public settings, turned a quarter turn about z so that its long axis stands up,
// rises 2 cm a frame under the hanging cloth by setColliderTransform: its top, where the turn puts
// it (20 cm over its centre, not 10), lifts the cloth the same way on both backends.
TEST_F(Embedding, ATurnedBoxTheHostMovesLiftsTheClothByItsTurnedExtent) {
  Device device(host().desc());
  const Fabric fabric = hangingFabric();
  StepSettings settings;
  settings.gravity = glm::vec3(0.f);
  settings.colliders = {Collider::box({0.f, 0.7f, 0.f}, {0.2f, 0.1f, 0.1f}, {0.f, 0.f, 1.f}, 0.5f * 3.14159265f)};
  std::vector<glm::vec4> xg, xc;
  liftColliderOnBothBackends(device, fabric, settings, xg, xc);
  EXPECT_LT(maxPositionDifference(xg, xc), 1e-4f);
  float highest = 0.f;
  for (const glm::vec4& x : xc) highest = std::max(highest, x.y);
  EXPECT_NEAR(highest, 0.7f + 0.4f + 0.2f + 0.005f, 0.01f);
  settings.colliders = {Collider::box({0.f, 0.f, 0.f}, {0.2f, 0.f, 0.1f})};
  EXPECT_THROW(CpuCloth(fabric, settings), InputError);
}

// A cube mesh 0.4 m wide about (0, 0.7, 0), 12 triangles of 2 mm shells, and its vertices.
Collider cubeCollider(std::vector<glm::vec3>& vertices) {
  vertices.clear();
  for (int k = 0; k < 8; ++k)
    vertices.push_back(glm::vec3(0.f, 0.7f, 0.f) + 0.2f * glm::vec3(k & 1 ? 1.f : -1.f, k & 2 ? 1.f : -1.f, k & 4 ? 1.f : -1.f));
  std::vector<glm::uvec3> triangles;
  const uint32_t quads[6][4] = {{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
  for (const auto& q : quads) {
    triangles.push_back({q[0], q[1], q[2]});
    triangles.push_back({q[0], q[2], q[3]});
  }
  return Collider::mesh(vertices, triangles, 0.002f);
}

// Over the cube's top, raised 0.4 m, every particle is at least half the shell and the margin above
// it, and some rest there; the flat top lifts the cloth's middle, which bulges a little higher.
void expectOnTheRaisedCubesTop(const std::vector<glm::vec4>& positions) {
  const float top = 0.7f + 0.4f + 0.2f + 0.001f + 0.005f;
  int resting = 0;
  for (const glm::vec4& x : positions) {
    if (std::abs(x.x) < 0.2f && std::abs(x.z) < 0.2f) {
      EXPECT_GT(x.y, top - 1e-4f);
    }
    resting += std::abs(x.y - top) < 1e-4f;
    EXPECT_LT(x.y, top + 0.02f);
  }
  EXPECT_GE(resting, 4);
}

// A cube mesh (12 triangles, 2 mm shells) from the public settings, under the hanging cloth, raised
// 2 cm a frame by setColliderTransform: its top lifts the cloth, the same way on both backends,
// and nothing gets inside.
// A triangle naming a missing vertex is refused in one sentence.
TEST_F(Embedding, AMeshTheHostMovesLiftsTheClothOnBothBackends) {
  Device device(host().desc());
  const Fabric fabric = hangingFabric();
  std::vector<glm::vec3> vertices;
  StepSettings settings;
  settings.gravity = glm::vec3(0.f);
  settings.colliders = {cubeCollider(vertices)};
  std::vector<glm::vec4> xg, xc;
  liftColliderOnBothBackends(device, fabric, settings, xg, xc);
  EXPECT_LT(maxPositionDifference(xg, xc), 1e-4f);
  expectOnTheRaisedCubesTop(xc);
  std::vector<glm::uvec3> triangles = settings.colliders[0].triangles;
  triangles.push_back({0, 1, 8});
  settings.colliders = {Collider::mesh(vertices, triangles, 0.002f)};
  EXPECT_THROW(CpuCloth(fabric, settings), InputError);
}

// A host deforms a mesh every frame (a skinned body): the cube's top four vertices rise 2 cm a frame
// by setColliderVertices while its bottom stays, so the cube stretches to 0.8 m tall under the
// hanging cloth. Its top lifts the cloth as the rigid lift above does, the same way on both
// backends (the GPU's frames recorded without a submission), and nothing gets inside.
TEST_F(Embedding, AMeshTheHostDeformsLiftsTheClothOnBothBackends) {
  Device device(host().desc());
  const Fabric fabric = hangingFabric();
  std::vector<glm::vec3> rest;
  StepSettings settings;
  settings.gravity = glm::vec3(0.f);
  settings.colliders = {cubeCollider(rest)};
  GpuCloth gpu(device, fabric, settings);
  CpuCloth cpu(fabric, settings);
  gpu.prepare(4);
  for (int frame = 1; frame <= 20; ++frame) {
    std::vector<glm::vec3> stretched = rest;
    for (glm::vec3& v : stretched)
      if (v.y > 0.7f) v.y += 0.02f * float(frame);
    gpu.setColliderVertices(0, stretched);
    cpu.setColliderVertices(0, stretched);
    host().submit([&](VkCommandBuffer cmd) {
      weftCalls().reset();
      gpu.recordStep(cmd, kDt, 4);
      EXPECT_EQ(weftCalls().submits, 0u);
    });
    cpu.step(kDt, 4);
  }
  std::vector<glm::vec4> xg, xc, v;
  gpu.readState(xg, v);
  cpu.readState(xc, v);
  EXPECT_LT(maxPositionDifference(xg, xc), 1e-4f);
  expectOnTheRaisedCubesTop(xc);
}

// Vertices that all move by the same 2 cm a frame are the rigid lift of setColliderTransform: the
// cloth ends where that leaves it, to rounding (the two reach the faces' corners and speeds by
// different float sums: 0.06 mm apart after 80 steps that lift it 0.4 m).
TEST_F(Embedding, MovingEveryVertexAlikeIsTheRigidTransform) {
  const Fabric fabric = hangingFabric();
  std::vector<glm::vec3> rest;
  StepSettings settings;
  settings.gravity = glm::vec3(0.f);
  settings.colliders = {cubeCollider(rest)};
  CpuCloth deformed(fabric, settings), rigid(fabric, settings);
  for (int frame = 1; frame <= 20; ++frame) {
    std::vector<glm::vec3> raised = rest;
    for (glm::vec3& v : raised) v.y += 0.02f * float(frame);
    deformed.setColliderVertices(0, raised);
    rigid.setColliderTransform(0, glm::translate(glm::mat4(1.f), glm::vec3(0.f, 0.02f * frame, 0.f)));
    deformed.step(kDt, 4);
    rigid.step(kDt, 4);
  }
  std::vector<glm::vec4> xd, xr, v;
  deformed.readState(xd, v);
  rigid.readState(xr, v);
  EXPECT_LT(maxPositionDifference(xd, xr), 2e-4f);
  float highest = 0.f;
  for (const glm::vec4& x : xd) highest = std::max(highest, x.y);
  EXPECT_GT(highest, 1.3f);  // it was lifted
}

// Vertices for a collider that is not a mesh, of another count, not finite, or past the colliders
// are refused in one sentence each, and the cloth steps as if the call had not been made.
TEST_F(Embedding, WrongColliderVerticesAreRefusedWithNothingChanged) {
  const Fabric fabric = hangingFabric();
  std::vector<glm::vec3> rest;
  StepSettings settings;
  settings.colliders = {cubeCollider(rest), Collider::sphere({0.f, 0.3f, 0.f}, 0.1f)};
  CpuCloth refused(fabric, settings), untouched(fabric, settings);
  std::vector<glm::vec3> raised = rest;
  for (glm::vec3& v : raised) v.y += 0.05f;
  refused.setColliderVertices(0, raised);
  untouched.setColliderVertices(0, raised);
  std::vector<glm::vec3> nan = rest;
  nan[3].x = std::nanf("");
  const std::vector<glm::vec3> fewer(rest.begin(), rest.end() - 1);
  const std::vector<std::pair<size_t, std::vector<glm::vec3>>> wrong = {{0, fewer}, {0, nan}, {1, rest}, {2, rest}};
  for (const auto& [index, vertices] : wrong) {
    try {
      refused.setColliderVertices(index, vertices);
      ADD_FAILURE() << "collider " << index << " took " << vertices.size() << " vertices";
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      EXPECT_NE(message.find(std::to_string(index)), std::string::npos) << message;
    }
  }
  for (int frame = 0; frame < 5; ++frame) {
    refused.step(kDt, 4);
    untouched.step(kDt, 4);
  }
  std::vector<glm::vec4> xa, xb, v;
  refused.readState(xa, v);
  untouched.readState(xb, v);
  for (size_t i = 0; i < xa.size(); ++i) ASSERT_EQ(xa[i], xb[i]) << "particle " << i;
}

}  // namespace
}  // namespace weft::test

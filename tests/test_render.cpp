// The offscreen renderer: the cloth and colliders land where the camera says, the background is the
// sky, both position sources draw the same picture, PNGs are whole or absent, and the validation layer
// (synchronisation included) stays silent over several frames.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>

#include "demos/render/cloth_renderer.h"
#include "engine/buffer.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/shader_library.h"

namespace weft {
namespace {

constexpr uint32_t kWidth = 160;
constexpr uint32_t kHeight = 120;
constexpr float kClothHeight = 0.5f;  // m

// An n x n grid spanning 1 m, centred on the y axis at kClothHeight, two triangles per cell,
// counter-clockwise seen from +y. Filled by hand: the renderer must not depend on the model builders.
ClothModel horizontalGrid(uint32_t n) {
  ClothModel model;
  for (uint32_t j = 0; j < n; ++j)
    for (uint32_t i = 0; i < n; ++i)
      model.positions.push_back({float(i) / float(n - 1) - 0.5f, kClothHeight, float(j) / float(n - 1) - 0.5f});
  for (uint32_t j = 0; j + 1 < n; ++j)
    for (uint32_t i = 0; i + 1 < n; ++i) {
      uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;  // a at (x, z), b at +x, c at +z
      // Seen from +y with x right, +z points down the page: a -> c -> b turns counter-clockwise.
      model.triangles.push_back({a, c, b});
      model.triangles.push_back({b, c, d});
    }
  model.velocities.assign(model.positions.size(), glm::vec3(0.f));
  model.masses.assign(model.positions.size(), 0.01f);
  model.pinned.assign(model.positions.size(), 0);
  model.gridWidth = n;
  model.gridHeight = n;
  return model;
}

std::vector<glm::vec4> withInverseMass(const std::vector<glm::vec3>& positions, glm::vec3 offset = glm::vec3(0.f)) {
  std::vector<glm::vec4> out;
  for (glm::vec3 p : positions) out.emplace_back(p + offset, 1.f);
  return out;
}

// Looking down at the cloth from above and slightly in front.
CameraDesc topCamera() {
  CameraDesc camera;
  camera.eye = {0.f, 2.2f, 0.9f};
  camera.target = {0.f, kClothHeight, 0.f};
  camera.fovYDegrees = 45.f;
  return camera;
}

glm::ivec3 pixelAt(const ClothRenderer& renderer, glm::vec2 at) {
  int x = std::clamp(int(at.x), 0, int(renderer.width()) - 1);
  int y = std::clamp(int(at.y), 0, int(renderer.height()) - 1);
  const uint8_t* p = &renderer.pixels()[(size_t(y) * renderer.width() + size_t(x)) * 4];
  return {p[0], p[1], p[2]};
}

glm::ivec3 toBytes(glm::vec3 color) { return glm::ivec3(glm::round(color * 255.f)); }

int maxDifference(glm::ivec3 a, glm::ivec3 b) {
  glm::ivec3 d = glm::abs(a - b);
  return std::max({d.x, d.y, d.z});
}

class RenderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    context_ = std::make_unique<engine::Context>(engine::ContextOptions{.validation = true});
  }
  void TearDown() override {
    EXPECT_EQ(context_->validationMessageCount(), 0u);
    for (const std::string& message : context_->validationMessages()) ADD_FAILURE() << message;
  }
  std::unique_ptr<engine::Context> context_;
  engine::ShaderLibrary shaders_;  // embedded SPIR-V
  ClothModel model_ = horizontalGrid(8);
};

TEST_F(RenderTest, ClothCoversItsCentreAndTheCornerIsSky) {
  ClothRenderer renderer(*context_, shaders_, model_, kWidth, kHeight);
  renderer.render(withInverseMass(model_.positions), {}, topCamera());
  ASSERT_EQ(renderer.pixels().size(), size_t(kWidth) * kHeight * 4);

  glm::vec2 centre = renderer.project({0.f, kClothHeight, 0.f});
  EXPECT_NEAR(centre.x, kWidth / 2.f, 1.f);  // the camera looks at the cloth's centre
  EXPECT_NEAR(centre.y, kHeight / 2.f, 1.f);
  glm::ivec3 cloth = pixelAt(renderer, centre);
  EXPECT_GT(maxDifference(cloth, toBytes(ClothRenderer::kSkyColor)), 40) << cloth.x << " " << cloth.y << " " << cloth.z;
  EXPECT_GT(cloth.r, cloth.b);  // the cloth's own reddish colour, lit from above

  EXPECT_LE(maxDifference(pixelAt(renderer, {0.f, 0.f}), toBytes(ClothRenderer::kSkyColor)), 2);
  EXPECT_LE(maxDifference(pixelAt(renderer, {kWidth - 1.f, kHeight - 1.f}), toBytes(ClothRenderer::kSkyColor)), 2);
}

TEST_F(RenderTest, SingleSampleDrawsTheSameScene) {
  // lavapipe supports 4x MSAA, so the one-sample render pass (no resolve) is only reached by asking.
  ClothRenderer msaa(*context_, shaders_, model_, kWidth, kHeight);
  ClothRenderer single(*context_, shaders_, model_, kWidth, kHeight, VK_SAMPLE_COUNT_1_BIT);
  EXPECT_EQ(single.samples(), VK_SAMPLE_COUNT_1_BIT);
  for (ClothRenderer* renderer : {&msaa, &single}) renderer->render(withInverseMass(model_.positions), {}, topCamera());
  glm::vec2 centre = single.project({0.f, kClothHeight, 0.f});
  EXPECT_LE(maxDifference(pixelAt(single, centre), pixelAt(msaa, centre)), 2);
  EXPECT_LE(maxDifference(pixelAt(single, {0.f, 0.f}), toBytes(ClothRenderer::kSkyColor)), 2);
}

TEST_F(RenderTest, ImageIsNotUpsideDown) {
  // The cloth's far edge (-z) is higher up in the image than its near edge (+z), and +x is on the right.
  ClothRenderer renderer(*context_, shaders_, model_, kWidth, kHeight);
  renderer.render(withInverseMass(model_.positions), {}, topCamera());
  glm::vec2 farEdge = renderer.project({0.f, kClothHeight, -0.45f});
  glm::vec2 nearEdge = renderer.project({0.f, kClothHeight, 0.45f});
  glm::vec2 rightEdge = renderer.project({0.45f, kClothHeight, 0.f});
  EXPECT_LT(farEdge.y, nearEdge.y);
  EXPECT_GT(rightEdge.x, kWidth / 2.f);
  for (glm::vec2 at : {farEdge, nearEdge, rightEdge})
    EXPECT_GT(maxDifference(pixelAt(renderer, at), toBytes(ClothRenderer::kSkyColor)), 40) << at.x << "," << at.y;
  // Just beyond the far edge, above it in the image: sky.
  glm::vec2 beyond = renderer.project({0.f, kClothHeight, -0.7f});
  EXPECT_LE(maxDifference(pixelAt(renderer, beyond), toBytes(ClothRenderer::kSkyColor)), 2);
}

TEST_F(RenderTest, SphereIsDrawnInItsOwnColour) {
  ClothRenderer renderer(*context_, shaders_, model_, kWidth, kHeight);
  CameraDesc camera = topCamera();
  renderer.render(withInverseMass(model_.positions), {}, camera);
  glm::ivec3 cloth = pixelAt(renderer, renderer.project({0.f, kClothHeight, 0.f}));

  ColliderDesc sphere;
  sphere.kind = ColliderDesc::Kind::Sphere;
  sphere.center = {0.f, 0.2f, 0.f};
  sphere.radius = 0.25f;
  // The cloth moved far out of view: the sphere alone is under the image centre.
  renderer.render(withInverseMass(model_.positions, {20.f, 0.f, 0.f}), {sphere}, camera);
  glm::ivec3 solid = pixelAt(renderer, renderer.project(sphere.center));
  EXPECT_GT(maxDifference(solid, toBytes(ClothRenderer::kSkyColor)), 40);
  EXPECT_GT(maxDifference(solid, cloth), 40);
  EXPECT_GT(solid.g, solid.r);

  // With the cloth back in place it hides the sphere below it.
  renderer.render(withInverseMass(model_.positions), {sphere}, camera);
  EXPECT_LE(maxDifference(pixelAt(renderer, renderer.project(sphere.center)), cloth), 2);
}

// A long thin box turned 45 degrees about the vertical: solid along its turned axis, sky where its
// unturned axis would have been.
TEST_F(RenderTest, ABoxIsDrawnTurnedAndSized) {
  ClothRenderer renderer(*context_, shaders_, model_, kWidth, kHeight);
  CameraDesc camera = topCamera();
  ColliderDesc box;
  box.kind = ColliderDesc::Kind::Box;
  box.center = {0.f, 0.2f, 0.f};
  box.halfExtents = {0.4f, 0.05f, 0.05f};
  box.rotation = glm::angleAxis(glm::radians(45.f), glm::vec3(0.f, 1.f, 0.f));
  renderer.render(withInverseMass(model_.positions, {20.f, 0.f, 0.f}), {box}, camera);
  for (float along : {-0.3f, 0.f, 0.3f}) {
    const glm::ivec3 on = pixelAt(renderer, renderer.project(box.center + box.rotation * glm::vec3(along, 0.05f, 0.f)));
    EXPECT_GT(maxDifference(on, toBytes(ClothRenderer::kSkyColor)), 40) << "along " << along;
    EXPECT_GT(on.g, on.r);
  }
  for (float along : {-0.3f, 0.3f}) {  // 21 cm off the turned axis: beside the box
    const glm::ivec3 off = pixelAt(renderer, renderer.project(box.center + glm::vec3(along, 0.05f, 0.f)));
    EXPECT_LE(maxDifference(off, toBytes(ClothRenderer::kSkyColor)), 2) << "along " << along;
  }
}

// A mesh collider, a square of two faces turned 45 degrees about the vertical: drawn face by face
// where its vertices are, with the sky beside it.
TEST_F(RenderTest, AMeshColliderIsDrawnFaceByFace) {
  ClothRenderer renderer(*context_, shaders_, model_, kWidth, kHeight);
  auto square = std::make_shared<ColliderMesh>();
  square->vertices = {{0.f, 0.2f, -0.3f}, {0.3f, 0.2f, 0.f}, {0.f, 0.2f, 0.3f}, {-0.3f, 0.2f, 0.f}};
  square->triangles = {{0, 2, 1}, {0, 3, 2}};
  ColliderDesc mesh;
  mesh.kind = ColliderDesc::Kind::Mesh;
  mesh.mesh = square;
  mesh.thickness = 0.002f;
  renderer.render(withInverseMass(model_.positions, {20.f, 0.f, 0.f}), {mesh}, topCamera());
  for (glm::vec3 at : {glm::vec3(0.f, 0.2f, 0.f), glm::vec3(0.2f, 0.2f, 0.f), glm::vec3(-0.2f, 0.2f, 0.f)}) {
    const glm::ivec3 on = pixelAt(renderer, renderer.project(at));
    EXPECT_GT(maxDifference(on, toBytes(ClothRenderer::kSkyColor)), 40) << at.x;
    EXPECT_GT(on.g, on.r);
  }
  const glm::ivec3 beside = pixelAt(renderer, renderer.project({0.25f, 0.2f, 0.25f}));  // past the turned edge
  EXPECT_LE(maxDifference(beside, toBytes(ClothRenderer::kSkyColor)), 2);
}

TEST_F(RenderTest, GroundPlaneFillsTheBackground) {
  ClothRenderer renderer(*context_, shaders_, model_, kWidth, kHeight);
  ColliderDesc ground;  // y >= 0 is free space
  renderer.render(withInverseMass(model_.positions), {ground}, topCamera());
  glm::ivec3 corner = pixelAt(renderer, {0.f, kHeight - 1.f});
  EXPECT_GT(maxDifference(corner, toBytes(ClothRenderer::kSkyColor)), 20);
  EXPECT_GT(maxDifference(corner, pixelAt(renderer, renderer.project({0.f, kClothHeight, 0.f}))), 40);
}

TEST_F(RenderTest, DeviceBufferAndHostPositionsDrawTheSamePicture) {
  std::vector<glm::vec4> positions = withInverseMass(model_.positions);
  for (size_t i = 0; i < positions.size(); ++i) positions[i].y += 0.05f * std::sin(float(i));  // not flat
  engine::Buffer buffer(*context_, positions.size() * sizeof(glm::vec4), engine::kStorageUsage,
                        engine::MemoryUsage::DeviceLocal, "test.positions");
  engine::uploadBuffer(*context_, buffer, positions.data(), positions.size() * sizeof(glm::vec4));

  ClothRenderer renderer(*context_, shaders_, model_, kWidth, kHeight);
  renderer.render(positions, {}, topCamera());
  std::vector<uint8_t> fromHost = renderer.pixels();
  renderer.render(buffer, {}, topCamera());
  EXPECT_EQ(renderer.pixels(), fromHost);
}

// The contact overlay: each particle in the colour of its strongest mark, unmarked ones in the cloth's,
// the same from host marks and from a device buffer; the shaded mode ignores the marks.
TEST_F(RenderTest, ContactMarksColourEachParticleByItsStrongestMark) {
  const std::vector<glm::vec4> positions = withInverseMass(model_.positions);
  const std::array<ContactMarkKey, 4>& keys = contactMarkKeys();
  // Particle k: no mark, one of the four alone, or every mark up to one (the strongest wins).
  auto strongest = [](size_t k) { return k % 9 == 0 ? -1 : int((k % 9 - 1) % 4); };
  std::vector<uint32_t> marks(positions.size());
  for (size_t k = 0; k < marks.size(); ++k) {
    const int s = strongest(k);
    if (s >= 0) marks[k] = k % 9 <= 4 ? keys[s].mark : (keys[s].mark << 1) - 1u;
  }
  ClothRenderer renderer(*context_, shaders_, model_, kWidth, kHeight);
  renderer.render(positions, {}, topCamera(), DrawMode::Shaded, marks);
  const std::vector<uint8_t> shaded = renderer.pixels();
  renderer.render(positions, {}, topCamera());
  EXPECT_EQ(renderer.pixels(), shaded) << "the shaded mode draws no marks";
  renderer.render(positions, {}, topCamera(), DrawMode::Contacts, marks);
  size_t wrong = 0;
  for (size_t k = 0; k < positions.size(); ++k) {
    const glm::ivec3 at = pixelAt(renderer, renderer.project(glm::vec3(positions[k])));
    const int s = strongest(k);
    if (s >= 0) {
      wrong += maxDifference(at, toBytes(keys[s].color)) > 2;
    } else {
      for (const ContactMarkKey& key : keys) wrong += maxDifference(at, toBytes(key.color)) <= 40;
    }
  }
  EXPECT_EQ(wrong, 0u) << "of " << positions.size() << " particles";
  const std::vector<uint8_t> fromHost = renderer.pixels();
  engine::Buffer buffer(*context_, marks.size() * sizeof(uint32_t), engine::kStorageUsage,
                        engine::MemoryUsage::DeviceLocal, "test.marks");
  engine::uploadBuffer(*context_, buffer, marks.data(), marks.size() * sizeof(uint32_t));
  engine::Buffer positionBuffer(*context_, positions.size() * sizeof(glm::vec4), engine::kStorageUsage,
                                engine::MemoryUsage::DeviceLocal, "test.positions");
  engine::uploadBuffer(*context_, positionBuffer, positions.data(), positions.size() * sizeof(glm::vec4));
  renderer.render(positionBuffer, {}, topCamera(), DrawMode::Contacts, &buffer);
  EXPECT_EQ(renderer.pixels(), fromHost);
}

TEST_F(RenderTest, SavePngIsWholeOrAbsent) {
  namespace fs = std::filesystem;
  fs::path folder = fs::temp_directory_path() / ("weft_render_test_" + std::to_string(std::random_device{}()));
  fs::create_directories(folder);
  ClothRenderer renderer(*context_, shaders_, model_, kWidth, kHeight);
  renderer.render(withInverseMass(model_.positions), {}, topCamera());

  fs::path png = folder / "frame.png";
  renderer.savePng(png.string());
  std::ifstream in(png, std::ios::binary);
  std::array<unsigned char, 8> head{};
  in.read(reinterpret_cast<char*>(head.data()), head.size());
  EXPECT_EQ(head, (std::array<unsigned char, 8>{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}));
  EXPECT_FALSE(fs::exists(png.string() + ".tmp"));

  fs::path missing = folder / "no_such_folder" / "frame.png";
  try {
    renderer.savePng(missing.string());
    ADD_FAILURE() << "savePng into a missing folder did not throw";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("cannot write PNG '" + missing.string() + "'"), std::string::npos)
        << error.what();
  }
  EXPECT_FALSE(fs::exists(missing));
  EXPECT_FALSE(fs::exists(missing.string() + ".tmp"));
  fs::remove_all(folder);
}

}  // namespace
}  // namespace weft

// A grid scene at another resolution: same sheet, same mass rule, pins in the same places; and what
// the same N/m springs mean for the cloth at another resolution (docs/scene-format.md).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "input_error.h"
#include "scene_helpers.h"
#include "solver/io/scene_reader.h"
#include "solver/model/grid_resize.h"

namespace weft {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using test::inputErrorOf;

Scene parse(const std::string& json) { return test::parseInline(json); }
using test::pinnedCount;

// 6 x 5, vertical, 2 m x 1 m: every part of the recipe differs from the defaults.
const char* kRecipe = R"({
  "name": "recipe",
  "cloth": {"grid": {"width": 6, "height": 5, "size": [2.0, 1.0], "origin": [1, 2, 3], "plane": "vertical"},
            "totalMass": 0.75, "velocity": [0.5, 0, 0]},
  "material": {"structuralStiffness": 900, "shearStiffness": 80, "bendStiffness": 7, "damping": 0.2},
  "pins": {"corners": 2, "indices": [7, 29]},
  "solver": {"substeps": 3, "iterations": 4}
})";

TEST(GridResize, SceneKeepsTheRecipeItWasBuiltFrom) {
  const Scene s = parse(kRecipe);
  ASSERT_TRUE(s.grid.has_value());
  EXPECT_EQ(s.grid->width, 6u);
  EXPECT_EQ(s.grid->plane, GridPlane::Vertical);
  EXPECT_FLOAT_EQ(s.grid->totalMass, 0.75f);
  EXPECT_FLOAT_EQ(s.material.shearStiffness, 80.f);
  EXPECT_EQ(s.pins.corners, CornerPreset::Two);
  EXPECT_EQ(s.pins.indices, (std::vector<uint32_t>{7, 29}));
  EXPECT_EQ(s.initialVelocity, glm::vec3(0.5f, 0.f, 0.f));
}

TEST(GridResize, SameSheetMaterialVelocityAndTotalMass) {
  const Scene s = withGridSize(parse(kRecipe), 20);
  ASSERT_EQ(s.cloth.particleCount(), 400u);
  EXPECT_EQ(s.cloth.gridWidth, 20u);
  EXPECT_EQ(s.cloth.gridHeight, 20u);
  EXPECT_EQ(s.grid->width, 20u);
  // Same corners in space: particle 0 at the origin, the last at origin + (2, -1, 0).
  EXPECT_EQ(s.cloth.positions[0], glm::vec3(1.f, 2.f, 3.f));
  EXPECT_EQ(s.cloth.positions[399], glm::vec3(3.f, 1.f, 3.f));
  EXPECT_NEAR(s.cloth.totalMass(), 0.75f, 1e-6f);
  // An interior particle carries one cell's share: 0.75 kg / 19^2 cells.
  EXPECT_NEAR(s.cloth.masses[21], 0.75f / 361.f, 1e-8f);
  EXPECT_FLOAT_EQ(s.cloth.springs[0].stiffness, 900.f);
  EXPECT_FLOAT_EQ(s.cloth.springs[0].damping, 0.2f);
  EXPECT_EQ(s.cloth.velocities[123], glm::vec3(0.5f, 0.f, 0.f));
  EXPECT_EQ(s.name, "recipe");
  EXPECT_EQ(s.solver.substeps, 3);
  EXPECT_EQ(s.solver.iterations, 4);
}

TEST(GridResize, ArealDensityStaysTheDensity) {
  const Scene base = parse(R"({"cloth": {"grid": {"width": 8, "height": 8, "size": [2.0, 2.0]},
                                         "arealDensity": 0.3}})");
  for (uint32_t n : {2u, 7u, 64u}) {
    const Scene s = withGridSize(base, n);
    EXPECT_NEAR(s.cloth.totalMass(), 0.3f * 4.f, 1e-5f) << n;  // 0.3 kg/m^2 over 4 m^2
  }
}

TEST(GridResize, PinsStayInTheSamePlaces) {
  const Scene base = parse(kRecipe);
  const Scene s = withGridSize(base, 20);
  // Corners 0 and 19; index 29 (row 4, column 5: the last corner) to 399; index 7 (row 1 of 4,
  // column 1 of 5) to row round(19/4) = 5, column round(19/5) = 4: particle 104.
  EXPECT_EQ(pinnedCount(s.cloth), 4u);
  for (uint32_t i : {0u, 19u, 399u, 104u}) EXPECT_EQ(s.cloth.pinned[i], 1) << i;
  EXPECT_EQ(s.pins.indices, (std::vector<uint32_t>{104, 399}));
  // Within half a new cell of where the old pin was.
  const glm::vec3 oldPin = base.cloth.positions[7], newPin = s.cloth.positions[104];
  EXPECT_LE(std::abs(newPin.x - oldPin.x), 0.5f * 2.f / 19.f + 1e-6f);
  EXPECT_LE(std::abs(newPin.y - oldPin.y), 0.5f * 1.f / 19.f + 1e-6f);
  // Down to 2 x 2 every pin lands on a corner.
  const Scene tiny = withGridSize(base, 2);
  EXPECT_EQ(tiny.cloth.pinned, (std::vector<uint8_t>{1, 1, 0, 1}));
}

TEST(GridResize, MeshesAndImpossibleSizesAreInputErrors) {
  const Scene grid = parse(R"({"name": "g", "cloth": {"grid": {}}})");
  EXPECT_THAT(inputErrorOf([&] { withGridSize(grid, 1); }),
              HasSubstr("a grid size must be from 2 to 4096 particles per side (got 1)"));
  EXPECT_THAT(inputErrorOf([&] { withGridSize(grid, 4097); }), HasSubstr("(got 4097)"));
  const std::filesystem::path obj = std::filesystem::path(testing::TempDir()) / "weft_resize_tri.obj";
  std::ofstream(obj) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  const Scene mesh = parseScene(R"({"name": "tri", "cloth": {"mesh": {"path": "weft_resize_tri.obj"}}})",
                                testing::TempDir(), "tri.json");
  EXPECT_FALSE(mesh.grid.has_value());
  EXPECT_THAT(inputErrorOf([&] { withGridSize(mesh, 16); }),
              AllOf(HasSubstr("scene 'tri'"), HasSubstr("mesh, not a grid")));
}

// ---- The same N/m at another resolution ----

// Sum of 1/2 k (l - restLength)^2 over the springs of one family.
double springEnergy(const ClothModel& m, const std::vector<glm::vec3>& x, SpringKind kind) {
  double energy = 0.0;
  for (const Spring& s : m.springs) {
    if (s.kind != kind) continue;
    const double stretch = double(glm::distance(x[s.a], x[s.b])) - s.restLength;
    energy += 0.5 * s.stiffness * stretch * stretch;
  }
  return energy;
}

Scene squareSheet(uint32_t n) {
  return withGridSize(parse(R"({"cloth": {"grid": {"size": [1.0, 1.0]}},
      "material": {"structuralStiffness": 2000, "shearStiffness": 500, "bendStiffness": 50}})"), n);
}

// Each spring of a finer grid is as stiff (N/m) but shorter, and more of them share the load: a
// uniform strain e along x stores 1/2 k e^2 L^2 N/(N-1) in the structural springs (N rows of N-1
// springs, each stretched by e L/(N-1)). Per square metre of cloth, the same whatever N, up to the
// boundary factor N/(N-1).
TEST(GridResolution, StretchEnergyOfASheetDoesNotDependOnTheParticleCount) {
  const double strain = 0.01, k = 2000.0;
  for (uint32_t n : {8u, 64u}) {
    const Scene s = squareSheet(n);
    std::vector<glm::vec3> x = s.cloth.positions;
    for (glm::vec3& p : x) p.x *= 1.f + static_cast<float>(strain);
    const double expected = 0.5 * k * strain * strain * n / (n - 1.0);
    EXPECT_NEAR(springEnergy(s.cloth, x, SpringKind::Structural), expected, 1e-3 * expected) << n;
  }
}

// Bend springs join particles two apart, so bending the sheet over a cylinder of radius R shortens
// each by only its chord deficit, 2h - 2R sin(h/R) ~ h^3 / (3 R^2): with N^2 such springs the bend
// energy falls as N^-4, and a finer grid of the same N/m drapes far more softly.
TEST(GridResolution, BendEnergyOfACurvedSheetFallsAsTheFourthPowerOfTheParticleCount) {
  const double radius = 0.5;
  double previous = 0.0;
  for (uint32_t n : {16u, 32u}) {
    const Scene s = squareSheet(n);
    std::vector<glm::vec3> x = s.cloth.positions;
    for (glm::vec3& p : x) {  // roll x (0 to 1 m) onto the cylinder, arc length kept
      const double angle = p.x / radius;
      p = glm::vec3(float(radius * std::sin(angle)), float(radius * (1.0 - std::cos(angle))), p.z);
    }
    const double h = 1.0 / (n - 1), deficit = 2.0 * h - 2.0 * radius * std::sin(h / radius);
    const double expected = 0.5 * 50.0 * deficit * deficit * n * (n - 2.0);  // N rows of N-2
    EXPECT_NEAR(springEnergy(s.cloth, x, SpringKind::Bend), expected, 0.02 * expected) << n;
    if (previous > 0.0) {
      EXPECT_LT(springEnergy(s.cloth, x, SpringKind::Bend), previous / 15.0);
    }
    previous = springEnergy(s.cloth, x, SpringKind::Bend);
  }
}

}  // namespace
}  // namespace weft

// A grid's spring table read from the index (solver/model/grid_stencil.h, shaders/grid_stencil.h): the
// stencil is found only where it gives every particle exactly its row of the table.
#include <algorithm>
#include <set>

#include <glm/glm.hpp>
#include <utility>

#include <gtest/gtest.h>

#include "shaders/physics.h"
#include "solver/model/cloth_model.h"
#include "solver/model/spring_table.h"

namespace weft::test {
namespace {

ClothModel grid(uint32_t width, uint32_t height, const Material& material = Material{}) {
  GridSpec spec;
  spec.width = width;
  spec.height = height;
  spec.sizeX = 0.9f;
  spec.sizeY = 0.7f;
  spec.origin = glm::vec3(-3.1f, 2.f, 0.4f);  // far enough from 0 for the positions to round
  return buildGrid(spec, material);
}

// Every grid size, down to the smallest, gets a stencil; and each particle's stencil springs are,
// as a set, the springs of the model that touch it, each family with its material's stiffness and
// each spring with the distance between its ends at rest, to the bit (found from the model, not
// from the table).
TEST(GridStencilTable, EveryGridsSpringsAreFoundFromTheIndex) {
  const Material material{700.f, 90.f, 6.f, 0.3f};
  for (auto [w, h] : {std::pair{2u, 2u}, {3u, 2u}, {2u, 5u}, {5u, 7u}, {17u, 9u}}) {
    const ClothModel model = grid(w, h, material);
    const SpringTable table = buildSpringTable(model);
    ASSERT_EQ(table.grid.stencil.width, w) << w << "x" << h;
    ASSERT_EQ(table.grid.stencil.height, h);
    std::vector<std::multiset<uint32_t>> touching(model.particleCount());
    for (const Spring& s : model.springs) {
      touching[s.a].insert(s.b);
      touching[s.b].insert(s.a);
    }
    for (uint32_t i = 0; i < model.particleCount(); ++i) {
      std::multiset<uint32_t> found;
      for (uint32_t k = 0; k < WEFT_GRID_STENCIL_SPRINGS; ++k) {
        gpu::SpringEntry e{};
        if (!table.grid.spring(i, i % w, i / w, k, e)) continue;
        found.insert(e.other);
        const int dc = int(e.other % w) - int(i % w), dr = int(e.other / w) - int(i / w);
        const bool shear = dc != 0 && dr != 0, bend = std::abs(dc) == 2 || std::abs(dr) == 2;
        EXPECT_FLOAT_EQ(e.stiffness, shear ? 90.f : bend ? 6.f : 700.f) << i << " k " << k;
        EXPECT_FLOAT_EQ(e.damping, 0.3f);
        EXPECT_EQ(e.restLength, glm::distance(model.positions[i], model.positions[e.other])) << i << " k " << k;
      }
      EXPECT_EQ(found, touching[i]) << w << "x" << h << " particle " << i;
    }
  }
}

// Where the table is not exactly the stencil's, there is none: the kernels read the table.
TEST(GridStencilTable, NoStencilWhereTheTableIsNotTheGrids) {
  EXPECT_NE(buildSpringTable(grid(6, 5)).grid.stencil.width, 0u);  // the reference: found
  {  // not known to be a grid
    ClothModel model = grid(6, 5);
    model.gridWidth = model.gridHeight = 0;
    EXPECT_EQ(buildSpringTable(model).grid.stencil.width, 0u);
  }
  {  // a spring torn out
    ClothModel model = grid(6, 5);
    model.springs.erase(model.springs.begin() + 7);
    EXPECT_EQ(buildSpringTable(model).grid.stencil.width, 0u);
  }
  {  // one spring stiffer than its family, by one ulp
    ClothModel model = grid(6, 5);
    model.springs[40].stiffness = std::nextafter(model.springs[40].stiffness, 1e9f);
    EXPECT_EQ(buildSpringTable(model).grid.stencil.width, 0u);
  }
  {  // one rest length off by one ulp: each is kept, so the stencil still reads the table's
    ClothModel model = grid(6, 5);
    Spring& s = model.springs.back();
    s.restLength = std::nextafter(s.restLength, 0.f);
    const SpringTable table = buildSpringTable(model);
    ASSERT_NE(table.grid.stencil.width, 0u);
    for (uint32_t end : {s.a, s.b}) {
      bool met = false;
      for (uint32_t k = 0; k < WEFT_GRID_STENCIL_SPRINGS; ++k) {
        gpu::SpringEntry e{};
        if (!table.grid.spring(end, end % 6, end / 6, k, e) || e.other != (end == s.a ? s.b : s.a)) continue;
        EXPECT_EQ(e.restLength, s.restLength);
        met = true;
      }
      EXPECT_TRUE(met) << end;
    }
  }
  {  // a spring the grid does not have
    ClothModel model = grid(6, 5);
    Spring extra = model.springs.front();
    extra.b = 29;
    model.springs.push_back(extra);
    EXPECT_EQ(buildSpringTable(model).grid.stencil.width, 0u);
  }
  {  // springs listed in another order: a row would sum its forces in another order
    ClothModel model = grid(6, 5);
    std::swap(model.springs[0].a, model.springs[0].b);
    EXPECT_NE(buildSpringTable(model).grid.stencil.width, 0u) << "ends swapped, the same rows: still the grid";
    std::reverse(model.springs.begin(), model.springs.end());
    EXPECT_EQ(buildSpringTable(model).grid.stencil.width, 0u);
  }
  {  // a material that bounds its springs' forces (the stencil's springs are never bounded)
    Material material;
    material.strainLimit.stretch = 0.1f;
    material.strainLimit.mode = StrainLimitMode::Force;
    EXPECT_EQ(buildSpringTable(grid(6, 5, material)).grid.stencil.width, 0u);
    material.strainLimit.mode = StrainLimitMode::Projection;  // projected after the step: forces unbounded
    EXPECT_NE(buildSpringTable(grid(6, 5, material)).grid.stencil.width, 0u);
  }
}

}  // namespace
}  // namespace weft::test

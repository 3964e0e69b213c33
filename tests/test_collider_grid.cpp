// The hash grid over mesh colliders' faces (solver/model/collider_grid.h) is only a faster way to the same
// result as testing every collider:
//  - thousands of particles near a sphere of 9,216 faces, a box and a plane, some slow and some
//    far too fast for the grid, end each step bit for bit where a test of every collider leaves them,
//    with the same velocity and the same resting contact, while the grid tests a small share of
//    the faces for nearly all of them; the same for a body turning and moving over a frame;
//  - a cloth dropped on that sphere, and one thrown at 10 m/s onto a finely meshed 1 mm board, stay
//    outside every face's shell on both backends, which agree.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>

#include "collider_meshes.h"
#include "shaders/physics.h"
#include "solver/model/collider_grid.h"
#include "solver/cpu/cpu_forces.h"
#include "solver/model/spring_table.h"
#include "test_support.h"

namespace weft::test {
namespace {

std::vector<gpu::Collider> sphereBoxAndFloor() {
  ColliderDesc floor;
  floor.kind = ColliderDesc::Kind::Plane;
  floor.normal = {0.f, 1.f, 0.f};
  floor.offset = -0.32f;
  floor.margin = 0.005f;
  ColliderDesc box;
  box.kind = ColliderDesc::Kind::Box;
  box.center = {0.25f, 0.f, 0.f};
  box.halfExtents = {0.05f, 0.2f, 0.05f};
  box.margin = 0.005f;
  return packColliders({floor, sphereMesh({0.f, 0.f, 0.f}, 0.3f, 48, 0.002f, 0.005f), box});
}

// Particles within 2 cm of the sphere's surface, in every direction; four in five move at up to
// 1.5 m/s, the rest at 3 to 40 m/s (mostly too fast for the grid in a step: they test every collider).
struct Particles {
  std::vector<glm::vec3> x, v;
};
Particles particlesNearTheSphere(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> gauss;
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  Particles p;
  auto direction = [&] {
    glm::vec3 d(gauss(rng), gauss(rng), gauss(rng));
    return glm::length(d) > 1e-6f ? glm::normalize(d) : glm::vec3(0.f, 1.f, 0.f);
  };
  for (size_t k = 0; k < count; ++k) {
    p.x.push_back(direction() * (0.3f + 0.04f * (unit(rng) - 0.5f)));
    p.v.push_back(direction() * (k % 5 == 4 ? 3.f + 37.f * unit(rng) : 1.5f * unit(rng)));
  }
  return p;
}

bool sameBits(glm::vec3 a, glm::vec3 b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits(glm::vec4 a, glm::vec4 b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// What the grid does for `p` against `colliders` at step dt, measured against every collider.
struct Comparison {
  size_t differ = 0;      // particles whose position, velocity or resting contact differ
  size_t touched = 0;     // particles a collider moved
  size_t held = 0;        // particles the grid's faces were enough for (colliderGridHeld)
  double candidates = 0;  // colliders tested per held particle, on average
};
Comparison compareWithEveryCollider(const Particles& p, const std::vector<gpu::Collider>& colliders,
                                    const ColliderGridData& grid, float dt) {
  Comparison out;
  size_t tested = 0;
  for (size_t k = 0; k < p.x.size(); ++k) {
    glm::vec3 xAll = p.x[k], vAll = p.v[k];
    const glm::vec3 start = xAll - vAll * dt;
    for (const gpu::Collider& c : colliders) gpu::collideFrom(xAll, vAll, start, c, dt);
    glm::vec3 xGrid = p.x[k], vGrid = p.v[k];
    integrators::collideAll(xGrid, vGrid, colliders, grid, dt);
    // An implicit solve's constraint, for a particle that its step's impulse presses down.
    const glm::vec3 impulse(0.f, -1e-5f, 0.f);
    glm::vec4 restAll(0.f, 0.f, 0.f, WEFT_FILTER_FREE);
    for (const gpu::Collider& c : colliders) {
      const glm::vec4 filter = gpu::restingFilter(p.x[k], p.v[k], impulse, c);
      if (filter.w > WEFT_FILTER_FREE) {
        restAll = filter;
        break;
      }
    }
    const glm::vec4 restGrid = integrators::firstRestingFilter(p.x[k], p.v[k], impulse, colliders, grid);
    out.differ += !sameBits(xAll, xGrid) || !sameBits(vAll, vGrid) || !sameBits(restAll, restGrid);
    out.touched += !sameBits(xAll, p.x[k]);
    // Replay the grid's walk to see whether its faces were enough, and how many it tested.
    glm::vec3 x = p.x[k], v = p.v[k];
    float drift = 0.f;
    size_t walked = 0;
    ColliderWalk walk(grid, p.x[k]);
    for (uint32_t c; walk.next(c); ++walked) {
      gpu::collideFrom(x, v, start, colliders[c], dt);
      drift = std::max(drift, glm::length(x - p.x[k]));
    }
    const gpu::ColliderGrid& g = grid.header;
    if (gpu::colliderGridHeld(p.x[k], p.v[k], dt, drift, g.reference, g.maxSpeed, g.maxSpin, g.allowance)) {
      ++out.held;
      tested += walked;
    }
  }
  out.candidates = out.held ? double(tested) / double(out.held) : 0.0;
  return out;
}

// A floor and a sphere above it, each with a margin: what the block tests strew particles about.
std::pair<ColliderDesc, ColliderDesc> floorAndSphere() {
  ColliderDesc floor;
  floor.margin = 0.005f;
  ColliderDesc sphere;
  sphere.kind = ColliderDesc::Kind::Sphere;
  sphere.center = {0.3f, 0.2f, 0.f};
  sphere.radius = 0.1f;
  sphere.margin = 0.004f;
  return {floor, sphere};
}

// collidersOutOfReach lets a pass skip collideAll for a block of particles (stepThenCollideBlocks,
// 64 at a time). It must rule out only blocks of which collideAll would move no particle. Blocks of 16
// particles, each in a box of up to 6 cm, are thrown all about a floor, a sphere and a capsule,
// many right at their margins, moving at up to 2 m/s: in every block it rules out, every particle
// keeps its position and velocity bit for bit. It must also be of use: most blocks in the open are
// ruled out, while blocks the colliders do move are tested. A box collider, the face grid or a NaN
// position rule nothing out.
TEST(ColliderGrid, ABlockRuledOutIsOneNoColliderWouldMove) {
  const auto [floor, sphere] = floorAndSphere();
  ColliderDesc capsule;
  capsule.kind = ColliderDesc::Kind::Capsule;
  capsule.center = {-0.4f, 0.1f, 0.f};
  capsule.end = {-0.2f, 0.3f, 0.1f};
  capsule.radius = 0.05f;
  const std::vector<gpu::Collider> colliders = packColliders({floor, sphere, capsule});
  const ColliderGridData noGrid;
  const float dt = 1.f / 480.f;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  size_t ruledOut = 0, moved = 0, wrong = 0;
  const size_t blocks = 20000;
  for (size_t b = 0; b < blocks; ++b) {
    // Block centres over the scene, a third of them on a collider's surface at its margin.
    glm::vec3 centre(-0.6f + 1.2f * unit(rng), 0.5f * unit(rng), -0.2f + 0.4f * unit(rng));
    if (b % 3 == 1) centre.y = floor.margin + 0.02f * (unit(rng) - 0.5f);
    if (b % 3 == 2) {
      glm::vec3 d(unit(rng) - 0.5f, unit(rng) - 0.5f, unit(rng) - 0.5f);
      d = glm::length(d) > 1e-3f ? glm::normalize(d) : glm::vec3(0.f, 1.f, 0.f);
      centre = sphere.center + d * (sphere.radius + sphere.margin + 0.03f * (unit(rng) - 0.5f));
    }
    const float size = 0.06f * unit(rng);
    std::vector<glm::vec4> x(16);
    std::vector<glm::vec3> v(16);
    for (size_t k = 0; k < x.size(); ++k) {
      x[k] = glm::vec4(centre + size * glm::vec3(unit(rng) - 0.5f, unit(rng) - 0.5f, unit(rng) - 0.5f), 1.f);
      v[k] = 2.f * glm::vec3(unit(rng) - 0.5f, unit(rng) - 0.5f, unit(rng) - 0.5f);
    }
    const auto [lo, hi] = integrators::positionsBox(x.data(), x.size());
    const bool out = integrators::collidersOutOfReach(lo, hi, colliders, noGrid);
    ruledOut += out;
    bool any = false;
    for (size_t k = 0; k < x.size(); ++k) {
      glm::vec3 xk = gpu::xyz(x[k]), vk = v[k];
      integrators::collideAll(xk, vk, colliders, noGrid, dt);
      const bool changed = !sameBits(xk, gpu::xyz(x[k])) || !sameBits(vk, v[k]);
      any = any || changed;
      wrong += out && changed;
    }
    moved += any;
  }
  EXPECT_EQ(wrong, 0u) << "particles a collider moves, in blocks ruled out";
  EXPECT_GT(moved, blocks / 5) << "blocks a collider touches: the test must reach the margins";
  EXPECT_GT(ruledOut, blocks / 3) << "blocks in the open must be ruled out, or the cull is of no use";
  // Right above the floor's margin: ruled out 1 mm past it, not at it.
  const glm::vec3 lo(1.f, floor.margin + 1e-3f, 1.f), hi(1.1f, 0.1f, 1.1f);
  EXPECT_TRUE(integrators::collidersOutOfReach(lo, hi, packColliders({floor}), noGrid));
  EXPECT_FALSE(integrators::collidersOutOfReach(glm::vec3(1.f, floor.margin, 1.f), hi, packColliders({floor}), noGrid));
  ColliderDesc box;
  box.kind = ColliderDesc::Kind::Box;
  box.center = {5.f, 5.f, 5.f};
  box.halfExtents = {0.1f, 0.1f, 0.1f};
  EXPECT_FALSE(integrators::collidersOutOfReach(lo, hi, packColliders({floor, box}), noGrid))
      << "a box is met by the step's sweep, which the block's end box does not bound";
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<glm::vec4> withNan = {glm::vec4(1.f, 0.5f, 1.f, 1.f), glm::vec4(nan, 0.5f, 1.f, 1.f)};
  const auto [nanLo, nanHi] = integrators::positionsBox(withNan.data(), withNan.size());
  EXPECT_FALSE(integrators::collidersOutOfReach(nanLo, nanHi, packColliders({floor}), noGrid));
  const std::vector<gpu::Collider> meshed = sphereBoxAndFloor();
  const ColliderGridData grid = buildColliderGrid({&meshed}, dt);
  ASSERT_TRUE(grid.on());
  EXPECT_FALSE(integrators::collidersOutOfReach(lo, hi, meshed, grid));
}

// The box the cull tests: each coordinate's least and greatest, the inverse mass (w) left out even
// when it is larger or NaN; a NaN coordinate anywhere, first or last, makes both corners NaN.
TEST(ColliderGrid, PositionsBoxIsTheCoordinatesRangeAndNaNWhereOneIsNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<glm::vec4> x = {{0.5f, -2.f, 3.f, 100.f}, {-1.5f, 4.f, 0.25f, nan}, {2.f, 1.f, -7.f, -100.f}};
  const auto [lo, hi] = integrators::positionsBox(x.data(), x.size());
  EXPECT_EQ(lo, glm::vec3(-1.5f, -2.f, -7.f));
  EXPECT_EQ(hi, glm::vec3(2.f, 4.f, 3.f));
  const auto [oneLo, oneHi] = integrators::positionsBox(x.data() + 1, 1);
  EXPECT_EQ(oneLo, glm::vec3(-1.5f, 4.f, 0.25f));
  EXPECT_EQ(oneHi, oneLo);
  for (size_t at : {size_t(0), size_t(2)}) {
    for (int axis = 0; axis < 3; ++axis) {
      std::vector<glm::vec4> withNan = x;
      withNan[at][axis] = nan;
      const auto [nanLo, nanHi] = integrators::positionsBox(withNan.data(), withNan.size());
      EXPECT_TRUE(std::isnan(nanLo.x) && std::isnan(nanLo.y) && std::isnan(nanLo.z)) << at << " " << axis;
      EXPECT_TRUE(std::isnan(nanHi.x) && std::isnan(nanHi.y) && std::isnan(nanHi.z)) << at << " " << axis;
    }
  }
}

// stepThenCollideBlocks, which the CPU integrators' last pass runs: each particle's step, then its
// collision where a collider can reach its block, must give the bits of stepping and colliding each
// particle alone. 1,000 particles strewn about a floor and a sphere, a tenth of them pinned (never
// collided, even inside a collider), are stepped over [3, 997) in one call (a short first and last
// block) by a step that moves each along its velocity; each particle must be stepped once, in order.
TEST(ColliderGrid, StepThenCollideBlocksGivesTheBitsOfCollidingEachParticle) {
  const auto [floor, sphere] = floorAndSphere();
  const std::vector<gpu::Collider> colliders = packColliders({floor, sphere});
  const ColliderGridData noGrid;
  const float dt = 1.f / 240.f;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  const size_t n = 1000, begin = 3, end = 997;
  std::vector<glm::vec4> start(n), velocity(n);
  for (size_t i = 0; i < n; ++i) {
    // Runs of 64 in one region: some runs far from both colliders, some in the floor (the first and
    // the last, which the range cuts short) or the sphere.
    const size_t run = (i / 64 + 2) % 3;
    const glm::vec3 centre = run == 0 ? glm::vec3(-0.5f, 0.6f, 0.f) : run == 1 ? glm::vec3(-0.3f, 0.f, 0.f) : sphere.center;
    start[i] = glm::vec4(centre + 0.15f * glm::vec3(unit(rng) - 0.5f, unit(rng) - 0.5f, unit(rng) - 0.5f),
                         i % 10 == 7 ? 0.f : 1.f);
    velocity[i] = glm::vec4(2.f * glm::vec3(unit(rng) - 0.5f, unit(rng) - 0.5f, unit(rng) - 0.5f), 0.f);
  }
  auto stepped = [&](size_t i) { return glm::vec4(gpu::xyz(start[i]) + dt * gpu::xyz(velocity[i]), start[i].w); };
  std::vector<glm::vec4> x(n, glm::vec4(-1.f)), v(n, glm::vec4(-1.f));
  std::vector<uint32_t> order;
  integrators::stepThenCollideBlocks(begin, end, x, v, colliders, noGrid, dt, [&](uint32_t i) {
    order.push_back(i);
    x[i] = stepped(i);
    v[i] = velocity[i];
  });
  ASSERT_EQ(order.size(), end - begin);
  for (size_t k = 0; k < order.size(); ++k) ASSERT_EQ(order[k], begin + k);
  size_t wrong = 0, collided = 0, pinnedInside = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i < begin || i >= end) {
      wrong += x[i] != glm::vec4(-1.f) || v[i] != glm::vec4(-1.f);
      continue;
    }
    const glm::vec4 free = stepped(i);
    glm::vec3 xi = gpu::xyz(free), vi = gpu::xyz(velocity[i]);
    integrators::collideAll(xi, vi, colliders, noGrid, dt);
    const bool moves = !sameBits(xi, gpu::xyz(free)) || !sameBits(vi, gpu::xyz(velocity[i]));
    if (start[i].w == 0.f) {
      pinnedInside += moves;
      xi = gpu::xyz(free);
      vi = gpu::xyz(velocity[i]);
    } else {
      collided += moves;
    }
    wrong += !sameBits(gpu::xyz(x[i]), xi) || !sameBits(gpu::xyz(v[i]), vi) || x[i].w != start[i].w;
  }
  EXPECT_EQ(wrong, 0u) << "particles whose bits differ from stepping and colliding each alone";
  EXPECT_GT(collided, 100u) << "the test must put free particles inside the colliders";
  EXPECT_GT(pinnedInside, 5u) << "and pinned ones, which stay where their step put them";
}

TEST(ColliderGrid, EveryParticleEndsAsIfItTestedEveryCollider) {
  const std::vector<gpu::Collider> colliders = sphereBoxAndFloor();
  ASSERT_EQ(colliders.size(), 2u + 4u * 48u * 48u);
  const float dt = 1.f / 240.f;
  const ColliderGridData grid = buildColliderGrid({&colliders}, dt);
  ASSERT_TRUE(grid.on());
  const Particles p = particlesNearTheSphere(20000, 7);
  const Comparison c = compareWithEveryCollider(p, colliders, grid, dt);
  EXPECT_EQ(c.differ, 0u);
  // The comparison means something: many particles met a collider, most through the grid alone,
  // and those tested a small share of the colliders.
  EXPECT_GT(c.touched, p.x.size() / 4);
  EXPECT_GT(c.held, p.x.size() * 6 / 10);
  EXPECT_LT(c.held, p.x.size());  // the fastest needed every collider
  EXPECT_LT(c.candidates, 0.025 * double(colliders.size())) << c.candidates << " colliders tested per particle";
}

// The sphere turning about a tilted axis through a point off its centre and moving, over the four
// steps of a frame: one grid for the frame holds every step's faces.
TEST(ColliderGrid, AMovingBodysFrameGridGivesEveryStepTheResultOfEveryCollider) {
  const std::vector<gpu::Collider> rest = sphereBoxAndFloor();
  const float dt = 1.f / 240.f;
  const glm::vec3 axis = glm::normalize(glm::vec3(0.3f, 1.f, 0.2f)), pivot(0.1f, 0.05f, 0.f), velocity(0.8f, -0.3f, 0.5f);
  const float spin = 6.f;  // rad/s
  std::vector<std::vector<gpu::Collider>> steps(4, rest);
  for (size_t s = 0; s < steps.size(); ++s) {
    const float t = float(s + 1) * dt;
    const glm::quat turn = glm::angleAxis(spin * t, axis);
    const glm::vec3 shift = velocity * t;
    auto move = [&](glm::vec4 p) { return glm::vec4(pivot + shift + turn * (glm::vec3(p) - pivot), p.w); };
    for (gpu::Collider& c : steps[s]) {
      if (c.kind != WEFT_COLLIDER_TRIANGLE) continue;
      c.shape = move(c.shape);
      c.shape2 = move(c.shape2);
      c.shape3 = move(c.shape3);
      c.velocity = glm::vec4(velocity, 0.f);
      c.spin = glm::vec4(spin * axis, 0.f);
      c.pivot = glm::vec4(pivot + shift, 0.f);
    }
  }
  std::vector<const std::vector<gpu::Collider>*> poses;
  for (const auto& s : steps) poses.push_back(&s);
  const ColliderGridData grid = buildColliderGrid(poses, dt);
  ASSERT_TRUE(grid.on());
  EXPECT_GT(grid.header.maxSpin, 5.9f);
  const Particles p = particlesNearTheSphere(6000, 11);
  for (size_t s = 0; s < steps.size(); ++s) {
    const Comparison c = compareWithEveryCollider(p, steps[s], grid, dt);
    EXPECT_EQ(c.differ, 0u) << "step " << s;
    EXPECT_GT(c.touched, p.x.size() / 4) << "step " << s;
    EXPECT_GT(c.held, p.x.size() / 2) << "step " << s;
  }
}

// Below kColliderGridMinFaces faces, or with no mesh, every particle tests every collider.
TEST(ColliderGrid, FewFacesAreTestedOneByOne) {
  const std::vector<gpu::Collider> small = packColliders({sphereMesh({0.f, 0.f, 0.f}, 0.3f, 3, 0.002f, 0.005f)});
  ASSERT_LT(small.size(), kColliderGridMinFaces);
  EXPECT_FALSE(buildColliderGrid({&small}, 0.01f).on());
  const std::vector<gpu::Collider> big = packColliders({sphereMesh({0.f, 0.f, 0.f}, 0.3f, 4, 0.002f, 0.005f)});
  ASSERT_GE(big.size(), kColliderGridMinFaces);
  EXPECT_TRUE(buildColliderGrid({&big}, 0.01f).on());
}

// Whether x lies inside the shell (half thickness plus margin, less `slack`) of any face.
size_t particlesInsideAFace(const std::vector<glm::vec4>& x, const std::vector<gpu::Collider>& colliders, float slack) {
  size_t inside = 0;
  for (const glm::vec4& p : x) {
    bool in = false;
    for (const gpu::Collider& c : colliders) {
      if (c.kind != WEFT_COLLIDER_TRIANGLE) continue;
      glm::vec3 n(0.f);
      in = in || gpu::colliderDepth(glm::vec3(p), c, n) > slack;
    }
    inside += in;
  }
  return inside;
}

class MeshGridTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

// A 0.6 m sheet dropped on a sphere of 9,216 faces (more than 4,096, the limit when every particle
// tested every face): after a second and a half it rests on top, outside every face's shell, its
// middle at the top of the shell.
TEST_P(MeshGridTest, AClothDrapesOnASphereOfNineThousandFaces) {
  ClothModel model = testSheet(17, 0.6f, {-0.3f, 0.36f, -0.3f}, 200.f);
  SolverParams params;
  params.integrator = Integrator::Xpbd;
  params.iterations = 4;
  params.colliders = {sphereMesh({0.f, 0.f, 0.f}, 0.3f, 48, 0.002f, 0.005f)};
  const std::vector<gpu::Collider> faces = packColliders(params.colliders);
  ASSERT_TRUE(buildColliderGrid({&faces}, kColliderGridStaticStep).on());
  auto solver = makeTestSolver(model, params, GetParam());
  std::vector<glm::vec4> x, v;
  for (int frame = 0; frame < 90; ++frame) solver->advance(1.f / 60.f, 8);
  solver->readState(x, v);
  EXPECT_EQ(particlesInsideAFace(x, faces, 2e-4f), 0u);
  // The middle particle sits on the pole: the faceted sphere's top ring is 0.3 m cos(pi / 48) out,
  // plus half the thickness and the margin.
  const glm::vec4 middle = x[8 * 17 + 8];
  EXPECT_NEAR(middle.y, 0.3f * std::cos(glm::pi<float>() / 48.f) + 0.001f + 0.005f, 0.002f);
}

// The whole motion is the same with the grid as without it: a sheet dropped on a sphere of 4,096
// faces that turns a quarter turn and glides 30 cm in half a second (its grid made again every frame,
// over the frame's 8 poses of every face), on each backend, bit for bit.
TEST_P(MeshGridTest, TheGridLeavesTheMotionBitForBitAsItWas) {
  const ClothModel model = testSheet(12, 0.5f, {-0.25f, 0.32f, -0.25f}, 200.f);
  SolverParams params;
  params.integrator = Integrator::Xpbd;
  params.iterations = 2;
  ColliderDesc body = sphereMesh({0.f, 0.f, 0.f}, 0.3f, 32, 0.002f, 0.005f);
  body.path.keys = {PathKey{0.0, 0.f, glm::vec3(0.f)}, PathKey{0.5, 0.5f * glm::pi<float>(), glm::vec3(0.3f, 0.f, 0.f)}};
  params.colliders = {body};
  std::vector<glm::vec4> x[2], v;
  for (bool grid : {true, false}) {
    params.colliderGrid = grid;
    auto solver = makeTestSolver(model, params, GetParam());
    for (int frame = 0; frame < 30; ++frame) solver->advance(1.f / 60.f, 8);
    solver->readState(x[grid], v);
  }
  size_t onTheSphere = 0;
  for (size_t p = 0; p < x[0].size(); ++p) {
    ASSERT_TRUE(sameBits(glm::vec3(x[1][p]), glm::vec3(x[0][p]))) << "particle " << p;
    onTheSphere += glm::length(glm::vec3(x[1][p])) < 0.3f + 0.001f + 0.005f + 0.002f;
  }
  EXPECT_GT(onTheSphere, x[0].size() / 4);  // the sheet lies on the sphere: the faces had work to do
}

INSTANTIATE_TEST_SUITE_P(Backends, MeshGridTest, ::testing::ValuesIn(allBackends()), backendParamName);

// The backends agree: the same drop on both, frame by frame.
TEST_F(ValidatedTest, BothBackendsDrapeTheSameOnAGriddedMesh) {
  ClothModel model = testSheet(12, 0.5f, {-0.25f, 0.34f, -0.25f}, 200.f);
  SolverParams params;
  params.integrator = Integrator::Xpbd;
  params.iterations = 4;
  params.colliders = {sphereMesh({0.f, 0.f, 0.f}, 0.3f, 32, 0.002f, 0.005f)};
  auto cpu = makeTestSolver(model, params, Backend::Cpu);
  auto gpu = makeTestSolver(model, params, Backend::Gpu);
  std::vector<glm::vec4> xc, vc, xg, vg;
  for (int frame = 0; frame < 30; ++frame) {
    cpu->advance(1.f / 60.f, 8);
    gpu->advance(1.f / 60.f, 8);
  }
  cpu->readState(xc, vc);
  gpu->readState(xg, vg);
  EXPECT_LT(maxPositionDifference(xc, xg), 1e-4f);
}

// A sheet thrown at 10 m/s onto a board 1 mm thick meshed in 2,048 faces: every step moves it past
// the grid's allowance as it meets the board, so those particles test every face; none goes through.
TEST_P(MeshGridTest, AClothThrownAt10MetresASecondStaysAboveAFinelyMeshedBoard) {
  ClothModel model = testSheet(8, 0.25f, {-0.125f, 0.08f, -0.125f});
  model.velocities.assign(model.particleCount(), glm::vec3(0.f, -10.f, 0.f));
  SolverParams params;
  params.integrator = Integrator::Xpbd;
  params.colliders = {plateMesh({0.f, 0.f, 0.f}, glm::quat(1.f, 0.f, 0.f, 0.f), {0.3f, 0.3f}, 32, 0.001f, 0.001f, 0.5f)};
  const std::vector<gpu::Collider> faces = packColliders(params.colliders);
  ASSERT_TRUE(buildColliderGrid({&faces}, kColliderGridStaticStep).on());
  auto solver = makeTestSolver(model, params, GetParam());
  std::vector<glm::vec4> x, v;
  for (int frame = 1; frame <= 30; ++frame) {
    solver->advance(1.f / 60.f, 16);
    solver->readState(x, v);
    for (size_t p = 0; p < x.size(); ++p) ASSERT_GT(x[p].y, 0.0005f + 0.001f - 1e-4f) << "particle " << p << " frame " << frame;
  }
  for (size_t p = 0; p < x.size(); ++p) EXPECT_LT(x[p].y, 0.0015f + 0.01f) << "particle " << p << " is not on the board";
}

}  // namespace
}  // namespace weft::test

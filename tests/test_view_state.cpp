// The viewer's state, no window needed: the replay clock (play, pause, scrub, speed, loop), the
// timing history behind the panel's graphs, and the live simulation's edits — settings in place,
// integrator, springs and pins by rebuilding with the state carried over — on both backends.
#include <gtest/gtest.h>

#include <cmath>

#include <set>

#include "demos/view/live_simulation.h"
#include "demos/view/perf_history.h"
#include "demos/view/replay_clock.h"
#include "solver/model/elements.h"
#include "test_support.h"

namespace weft {
namespace {

// ---- replay clock ----
TEST(ReplayClock, ShowsTheFrameOfTheRecordedTimeAtTheChosenSpeedAndLoops) {
  ReplayClock clock(10, 0.1);  // 1 s of recording
  EXPECT_EQ(clock.tick(0.0), 0u);
  EXPECT_EQ(clock.tick(0.25), 2u);
  clock.setSpeed(2.0);
  EXPECT_EQ(clock.tick(0.1), 4u);  // 0.25 + 0.2 s
  EXPECT_NEAR(clock.time(), 0.45, 1e-12);
  EXPECT_EQ(clock.tick(0.3), 0u);  // 1.05 s wraps to 0.05 s
  EXPECT_NEAR(clock.time(), 0.05, 1e-9);
  clock.setSpeed(100.0);
  EXPECT_EQ(clock.speed(), 16.0);
  clock.setSpeed(0.0);
  EXPECT_EQ(clock.speed(), 1.0 / 16.0);
}

TEST(ReplayClock, PauseHoldsScrubJumpsAndPausesStepClamps) {
  ReplayClock clock(10, 0.1);
  clock.tick(0.35);
  clock.pause();
  EXPECT_EQ(clock.tick(5.0), 3u);
  clock.play();
  clock.scrub(7);
  EXPECT_FALSE(clock.playing());
  EXPECT_EQ(clock.tick(1.0), 7u);
  clock.scrub(25);  // past the end: the last frame
  EXPECT_EQ(clock.frame(), 9u);
  clock.step(-3);
  EXPECT_EQ(clock.frame(), 6u);
  clock.step(-100);
  EXPECT_EQ(clock.frame(), 0u);
  clock.step(100);
  EXPECT_EQ(clock.frame(), 9u);
}

// ---- timing history ----
TEST(PerfHistory, KeepsTheLastFramesInOrderWithMediansPerPass) {
  PerfHistory history(4);
  for (int i = 1; i <= 5; ++i) {
    PassTimes passes = {{"solve", double(i)}, {"draw", 0.5}};
    if (i == 5) passes = {{"draw", 0.5}, {"late", 9.0}};  // a frame without "solve"
    history.push(10.0 * i, passes);
  }
  EXPECT_EQ(history.frameTimes(), (std::vector<float>{20.f, 30.f, 40.f, 50.f}));
  EXPECT_EQ(history.gpuTimes(), (std::vector<float>{2.5f, 3.5f, 4.5f, 9.5f}));
  EXPECT_DOUBLE_EQ(history.medianFrameMs(), 35.0);
  auto passes = history.medianPasses();
  ASSERT_EQ(passes.size(), 3u);
  EXPECT_EQ(passes[0].first, "solve");
  EXPECT_DOUBLE_EQ(passes[0].second, 3.0);  // frames 2, 3, 4 had it
  EXPECT_EQ(passes[2].first, "late");
  EXPECT_DOUBLE_EQ(passes[2].second, 9.0);
  history.clear();
  EXPECT_EQ(history.size(), 0u);
  EXPECT_DOUBLE_EQ(history.medianFrameMs(), 0.0);
}

// ---- live simulation ----
// A 8 x 8, 0.5 m horizontal grid held at two corners, 0.1 kg.
Scene smallScene(Integrator integrator) {
  Scene scene;
  GridSpec grid;
  grid.width = grid.height = 8;
  grid.sizeX = grid.sizeY = 0.5f;
  grid.origin = {-0.25f, 1.f, 0.f};
  grid.totalMass = 0.1f;
  scene.cloth = buildGrid(grid, Material{});
  pinParticles(scene.cloth, gridCorners(scene.cloth, CornerPreset::Two));
  scene.solver.integrator = integrator;
  scene.solver.substeps = 4;
  scene.solver.relaxationRho = 0.9f;
  return scene;
}

class LiveSimulationTest : public test::ValidatedTest, public ::testing::WithParamInterface<Backend> {
 protected:
  LiveSimulation make(Scene scene) {
    return LiveSimulation(std::move(scene), GetParam(), &test::gpuContext(), &test::embeddedShaders());
  }
  static void advance(LiveSimulation& sim, int frames) {
    for (int f = 0; f < frames; ++f) sim.solver().advance(sim.scene().solver.dt, sim.scene().solver.substeps);
  }
  static std::pair<std::vector<glm::vec4>, std::vector<glm::vec4>> state(const LiveSimulation& sim) {
    std::pair<std::vector<glm::vec4>, std::vector<glm::vec4>> s;
    sim.solver().readState(s.first, s.second);
    return s;
  }
};

TEST_P(LiveSimulationTest, ChangingTheIntegratorCarriesTheStateOverBitForBit) {
  LiveSimulation sim = make(smallScene(Integrator::Verlet));
  advance(sim, 10);
  auto before = state(sim);
  sim.setIntegrator(Integrator::ImplicitCg);
  EXPECT_EQ(sim.scene().solver.integrator, Integrator::ImplicitCg);
  EXPECT_EQ(sim.solver().params().integrator, Integrator::ImplicitCg);
  auto after = state(sim);
  EXPECT_EQ(test::maxPositionDifference(before.first, after.first), 0.f);
  EXPECT_EQ(test::maxPositionDifference(before.second, after.second), 0.f);
  advance(sim, 2);
  EXPECT_FALSE(sim.solver().lastSolveStats().empty());  // implicit-cg logs its solves: it is the one running
}

// The panel's stable-step line follows the edits: an explicit integrator past its limit on the
// springs gets the substeps that hold, which it then takes; stiffer springs and more drag move the
// limit as the bounds on the rebuilt cloth say; an implicit integrator has none.
TEST_P(LiveSimulationTest, TheStableStepLineFollowsTheIntegratorTheSubstepsTheSpringsAndTheDrag) {
  LiveSimulation sim = make(smallScene(Integrator::Verlet));
  EXPECT_TRUE(std::isinf(sim.stepLimit().stableStep));
  EXPECT_EQ(stepLimitNote(sim.stepLimit()), "");
  sim.setIntegrator(Integrator::SymplecticEuler);
  const StepLimit& limit = sim.stepLimit();
  auto fresh = [&] {
    return stepLimitFor(sim.scene().cloth, sim.scene().solver.integrator, sim.scene().environment.airDrag,
                        sim.scene().solver.dt, sim.scene().solver.substeps);
  };
  EXPECT_EQ(limit.stableStep, fresh().stableStep);
  const int needed = substepsWithin(sim.scene().solver.dt, limit.stableStep);
  ASSERT_GT(needed, 4) << "the small cloth's 4 substeps are past symplectic Euler's limit";
  const std::string note = stepLimitNote(limit);
  EXPECT_EQ(note.rfind("symplectic-euler is stable on these springs only at steps up to ", 0), 0u) << note;
  const std::string tail = ": " + std::to_string(needed) + " substeps or more (now 4)";
  EXPECT_EQ(note.substr(note.size() - std::min(note.size(), tail.size())), tail) << note;
  SolverSettings settings = sim.scene().solver;
  settings.substeps = needed;
  sim.setSettings(settings, sim.scene().environment);
  EXPECT_EQ(stepLimitNote(sim.stepLimit()), "") << "within the limit";
  advance(sim, 20);
  auto [x, v] = state(sim);
  for (const glm::vec4& p : x) ASSERT_TRUE(std::isfinite(p.y) && std::abs(p.y) < 10.f) << "it holds at those substeps";
  const double soft = sim.stepLimit().stableStep;
  SpringMaterial stiffer = sim.material();
  stiffer.structural *= 4.f;
  stiffer.shear *= 4.f;
  stiffer.bend *= 4.f;
  sim.setMaterial(stiffer);
  EXPECT_LT(sim.stepLimit().stableStep, soft);
  EXPECT_EQ(sim.stepLimit().stableStep, fresh().stableStep);
  Environment env = sim.scene().environment;
  env.airDrag = 0.05f;
  sim.setSettings(sim.scene().solver, env);
  EXPECT_EQ(sim.stepLimit().stableStep, fresh().stableStep) << "the drag damps every mode: new bounds";
  // The air adds c_air / m_i to particle i's damping rate: the fastest is at least c_air / mean mass.
  EXPECT_GT(sim.stepLimit().modes.gamma, 0.05 * 64 / 0.1 * 0.99);
  sim.setIntegrator(Integrator::ImplicitCg);
  EXPECT_TRUE(std::isinf(sim.stepLimit().stableStep));
}

// The panel's self-collision box: turning contact on rebuilds the solver with its tables and carries
// the state (and the scene's clock) over bit for bit; the contact pass then runs (its stats measure a nearest distance, which
// a solver without contact leaves at zero); turning it off drops it again.
TEST_P(LiveSimulationTest, ContactTurnedOnAndOffCarriesTheStateAndRunsTheContactPass) {
  LiveSimulation sim = make(smallScene(Integrator::Xpbd));
  advance(sim, 5);
  auto before = state(sim);
  const double time = sim.solver().time();
  ASSERT_GT(time, 0.0);
  ASSERT_FALSE(sim.contact());
  sim.setContact(true);
  EXPECT_TRUE(sim.contact());
  EXPECT_EQ(sim.solver().time(), time);  // the scene's paths go on from where they were
  EXPECT_TRUE(sim.solver().params().contact.enabled);
  auto after = state(sim);
  EXPECT_EQ(test::maxPositionDifference(before.first, after.first), 0.f);
  advance(sim, 1);
  // The pass reports the radius when no pair came nearer, as in a sheet barely moved from flat: half
  // the mean edge of the rest shape (each edge once), at least twice the thickness.
  std::set<std::pair<uint32_t, uint32_t>> edges;
  for (const glm::uvec3& t : sim.scene().cloth.triangles)
    for (int k = 0; k < 3; ++k) edges.insert(std::minmax(t[k], t[(k + 1) % 3]));
  double total = 0.0;
  for (const auto& [a, b] : edges) total += glm::length(sim.scene().cloth.positions[a] - sim.scene().cloth.positions[b]);
  const double radius = std::max(0.5 * total / double(edges.size()), 2.0 * sim.scene().contact.thickness);
  EXPECT_NEAR(sim.solver().lastContactStats().minDistance, radius, 1e-6);
  sim.setContact(false);
  advance(sim, 1);
  EXPECT_EQ(sim.solver().lastContactStats().minDistance, 0.f);
}

TEST_P(LiveSimulationTest, GravityEditedInPlaceDrivesTheNextSteps) {
  Scene scene = smallScene(Integrator::SymplecticEuler);
  LiveSimulation sim = make(std::move(scene));
  sim.setPins(PinChoice::None);
  Environment env;
  env.gravity = {0.f, -3.f, 0.f};
  SolverSettings settings = sim.scene().solver;
  settings.dt = 0.01f;
  sim.setSettings(settings, env);
  auto start = state(sim);
  advance(sim, 1);
  auto end = state(sim);
  // Springs at rest and every particle falling alike: symplectic Euler's x_n = x_0 + g h^2 n (n + 1) / 2.
  const double h = 0.01 / 4, drop = -3.0 * h * h * 4 * 5 / 2;
  for (size_t i = 0; i < end.first.size(); ++i) {
    EXPECT_NEAR(end.first[i].y - start.first[i].y, drop, 1e-6) << i;
    EXPECT_NEAR(end.second[i].y, -3.0 * 4 * h, 1e-5) << i;
  }
}

TEST_P(LiveSimulationTest, PinPresetsHoldTheirCornersWhereTheyAreAndNoneLetsEverythingFall) {
  LiveSimulation sim = make(smallScene(Integrator::Verlet));
  ASSERT_TRUE(sim.canChoosePins());
  advance(sim, 20);  // the free corners have swung down
  auto swung = state(sim);
  sim.setPins(PinChoice::Four);
  EXPECT_EQ(sim.pins(), PinChoice::Four);
  const std::vector<uint32_t> corners = gridCorners(sim.scene().cloth, CornerPreset::Four);
  advance(sim, 10);
  auto held = state(sim);
  for (uint32_t c : corners) {
    EXPECT_EQ(glm::vec3(held.first[c]), glm::vec3(swung.first[c])) << "corner " << c << " moved";
    EXPECT_EQ(held.first[c].w, 0.f);
  }
  sim.setPins(PinChoice::None);
  auto released = state(sim);
  for (const glm::vec4& p : released.first) EXPECT_GT(p.w, 0.f);
  advance(sim, 5);
  auto fallen = state(sim);
  // Nothing holds the cloth: its centre of mass moves as one particle under gravity alone,
  // y(T) = y0 + vy T - g T^2 / 2 (to the integrator's half-step lag in velocity, a few per cent).
  const ClothModel& cloth = sim.scene().cloth;
  double mass = 0.0, y0 = 0.0, vy = 0.0, y1 = 0.0;
  for (size_t i = 0; i < cloth.particleCount(); ++i) {
    mass += cloth.masses[i];
    y0 += cloth.masses[i] * released.first[i].y;
    vy += cloth.masses[i] * released.second[i].y;
    y1 += cloth.masses[i] * fallen.first[i].y;
  }
  const double T = 5.0 / 60.0, gravityDrop = 0.5 * 9.81 * T * T;
  EXPECT_NEAR((y1 - y0) / mass - vy / mass * T, -gravityDrop, 0.1 * gravityDrop);
  sim.setPins(PinChoice::Scene);
  EXPECT_EQ(sim.scene().cloth.pinned, smallScene(Integrator::Verlet).cloth.pinned);
}

// Tethers hang from the pins (solver/model/elements.h): the pins the viewer chooses get tethers of their
// own, each free particle tied to its nearest pins, and a cloth let go keeps none (writeState
// refuses a tether's pin given a mass, so the old ones would have stopped the viewer).
TEST_P(LiveSimulationTest, TethersFollowThePinsTheViewerChooses) {
  Scene scene = smallScene(Integrator::Xpbd);
  scene.forces.tethers = TetherSpec{1e4f, 0.01f, 2};
  addTethers(scene.cloth, *scene.forces.tethers);
  LiveSimulation sim = make(std::move(scene));
  auto tethers = [&] {
    std::vector<gpu::Element> kept;
    for (const gpu::Element& e : sim.scene().cloth.elements)
      if (e.kind == WEFT_ELEMENT_TETHER) kept.push_back(e);
    return kept;
  };
  const size_t free = 64 - 2;
  EXPECT_EQ(tethers().size(), 2 * free);
  advance(sim, 5);
  sim.setPins(PinChoice::One);
  const uint32_t corner = gridCorners(sim.scene().cloth, CornerPreset::One)[0];
  ASSERT_EQ(tethers().size(), free + 1);
  for (const gpu::Element& e : tethers()) EXPECT_EQ(e.nodes.y, corner);
  advance(sim, 5);
  sim.setPins(PinChoice::None);
  EXPECT_TRUE(tethers().empty());
  auto released = state(sim);
  for (const glm::vec4& p : released.first) EXPECT_GT(p.w, 0.f);
  advance(sim, 5);
  sim.setPins(PinChoice::Scene);
  EXPECT_EQ(tethers().size(), 2 * free);
}

// Hooke: a sheet hanging from its whole top row carries its weight in the vertical structural
// springs, so at rest they stretch in inverse proportion to their stiffness.
TEST_P(LiveSimulationTest, StifferSpringsStretchLessInProportion) {
  auto meanStretch = [&](float structural) {
    Scene scene;
    GridSpec grid;
    grid.width = grid.height = 8;
    grid.sizeX = grid.sizeY = 0.5f;
    grid.origin = {-0.25f, 1.f, 0.f};
    grid.plane = GridPlane::Vertical;
    grid.totalMass = 0.1f;
    scene.cloth = buildGrid(grid, Material{});
    pinParticles(scene.cloth, {0, 1, 2, 3, 4, 5, 6, 7});  // the top row
    scene.solver.integrator = Integrator::ImplicitCg;
    scene.solver.substeps = 1;
    LiveSimulation sim = make(std::move(scene));
    SpringMaterial m = sim.material();
    EXPECT_EQ(m.structural, Material{}.structuralStiffness);
    m.structural = structural;
    m.shear = m.bend = 0.f;  // only the structural springs carry the load
    m.damping = 1.f;
    sim.setMaterial(m);
    EXPECT_EQ(sim.material(), m);
    advance(sim, 120);
    auto s = state(sim);
    double stretch = 0.0;
    int n = 0;
    for (const Spring& spring : sim.scene().cloth.springs)
      if (spring.kind == SpringKind::Structural) {
        stretch += glm::distance(glm::vec3(s.first[spring.a]), glm::vec3(s.first[spring.b])) / spring.restLength - 1.0;
        ++n;
      }
    return stretch / n;
  };
  const double soft = meanStretch(500.f), stiff = meanStretch(2000.f);
  EXPECT_GT(stiff, 0.0);
  EXPECT_NEAR(soft / stiff, 4.0, 0.2) << "soft " << soft << ", stiff " << stiff;
}

TEST_P(LiveSimulationTest, ResetReturnsToTheSceneStartWithTheChosenPins) {
  LiveSimulation sim = make(smallScene(Integrator::Verlet));
  advance(sim, 15);
  sim.setPins(PinChoice::One);
  advance(sim, 5);
  sim.reset();
  auto s = state(sim);
  const ClothModel& cloth = sim.scene().cloth;
  for (size_t i = 0; i < cloth.particleCount(); ++i) {
    EXPECT_EQ(glm::vec3(s.first[i]), cloth.positions[i]);
    EXPECT_EQ(s.first[i].w, cloth.inverseMass(i));
    EXPECT_EQ(glm::vec3(s.second[i]), glm::vec3(0.f));
  }
  EXPECT_EQ(std::count(cloth.pinned.begin(), cloth.pinned.end(), 1), 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, LiveSimulationTest, ::testing::ValuesIn(test::allBackends()),
                         test::backendParamName);

}  // namespace
}  // namespace weft

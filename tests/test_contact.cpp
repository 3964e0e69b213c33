// Contact within a cloth and between cloths (solver/contact/contact.h, docs/contact.md), measured by the
// independent crossing counter and distances of crossing_counter.h, which share no code with it:
//  - the shared geometry's distances equal the counter's double-precision ones;
//  - no vertex moves farther in a step than its bound over every pair a brute-force search finds;
//  - a strip dropped onto the floor piles up without an edge ever crossing a triangle (and crosses
//    itself without contact), two cloths dropped crosswise never cross, and a cloth thrown at 10 m/s
//    onto a pinned one stays on its side;
//  - both backends find the same contacts and agree on the motion.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>

#include "crossing_counter.h"
#include "demos/common/demo_scene.h"
#include "engine/error.h"
#include "shaders/physics.h"
#include "solver/contact/contact.h"
#include "test_support.h"

namespace weft::test {
namespace {

glm::dvec3 d3(glm::vec4 v) { return glm::dvec3(v.x, v.y, v.z); }

// ---- The shared geometry against the independent measure ----

TEST(ContactGeometry, DistancesMatchTheIndependentDoublePrecisionMeasure) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coord(-0.05f, 0.05f);
  auto point = [&] { return glm::vec4(coord(rng), coord(rng), coord(rng), 1.f); };
  double worstVt = 0.0, worstEe = 0.0;
  for (int k = 0; k < 20000; ++k) {
    const glm::vec4 p = point(), a = point(), b = point(), c = point();
    const float vt = gpu::vertexTriangleState(p, a, b, c, gpu::xyz(p), gpu::xyz(a), gpu::xyz(b), gpu::xyz(c)).d;
    worstVt = std::max(worstVt, std::abs(vt - pointTriangleDistance(d3(p), d3(a), d3(b), d3(c))));
    const float ee = gpu::edgeEdgeState(p, a, b, c, gpu::xyz(p), gpu::xyz(a), gpu::xyz(b), gpu::xyz(c)).d;
    worstEe = std::max(worstEe, std::abs(ee - segmentSegmentDistance(d3(p), d3(a), d3(b), d3(c))));
  }
  // Float geometry on a 10 cm box: a few ulps of its coordinates.
  EXPECT_LT(worstVt, 1e-7);
  EXPECT_LT(worstEe, 1e-7);
}

// The unit direction from a pair's first side's nearest point to its second's: the vertex to the
// triangle's nearest point, or edge to edge.
glm::vec3 nearestDirection(const std::array<glm::vec3, 4>& x, bool edges) {
  glm::vec3 from, to;
  if (edges) {
    const glm::vec2 st = gpu::closestSegmentParameters(x[0], x[1], x[2], x[3]);
    from = x[0] + st.x * (x[1] - x[0]);
    to = x[2] + st.y * (x[3] - x[2]);
  } else {
    const glm::vec3 l = gpu::closestTriangleWeights(x[0], x[1], x[2], x[3]);
    from = x[0];
    to = l.x * x[1] + l.y * x[2] + l.z * x[3];
  }
  return glm::normalize(to - from);
}

// The resolve's cull by distance (vertexTrianglePairBeyond, edgeEdgePairBeyond), on both backends:
// its distances are the pair states' own, bit for bit; it passes over a flat grid's parallel
// diagonals, whose boxes overlap; and the CPU's cull on a pair's listed distance
// (contactListedBeyond) passes over no pair that the distance cull would keep after every corner
// has moved within the drift's box, in metre coordinates where rounding is largest.
TEST(ContactGeometry, TheDistanceCullPassesOverOnlyPairsBeyondTheRadius) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> where(-1.5f, 1.5f), near(-0.004f, 0.004f), unit(-1.f, 1.f);
  // A pair of primitives a few millimetres across, about 1 m from the origin.
  auto cluster = [&](std::array<glm::vec3, 4>& x) {
    const glm::vec3 o(where(rng), where(rng), where(rng));
    for (glm::vec3& c : x) c = o + glm::vec3(near(rng), near(rng), near(rng));
  };
  for (int k = 0; k < 20000; ++k) {
    std::array<glm::vec3, 4> x;
    cluster(x);
    const glm::vec4 p(x[0], 1.f), a(x[1], 1.f), b(x[2], 1.f), c(x[3], 1.f);
    ASSERT_EQ(gpu::vertexTriangleDistance(x[0], x[1], x[2], x[3]), gpu::vertexTriangleState(p, a, b, c, x[0], x[1], x[2], x[3]).d);
    ASSERT_EQ(gpu::edgeEdgeDistance(x[0], x[1], x[2], x[3]), gpu::edgeEdgeState(p, a, b, c, x[0], x[1], x[2], x[3]).d);
  }
  // A grid of spacing h split along one diagonal a cell: the diagonals of two neighbouring cells lie
  // h / sqrt 2 apart, and their boxes overlap.
  const float h = 0.0039f;
  const glm::vec3 o(0.3f, 1.0f, -0.2f), ex(h, 0.f, 0.f), ez(0.f, 0.f, h);
  EXPECT_FALSE(gpu::edgeEdgeBeyond(o, o + ex + ez, o + ex, o + 2.f * ex + ez, 0.5f * h));
  EXPECT_TRUE(gpu::edgeEdgePairBeyond(o, o + ex + ez, o + ex, o + 2.f * ex + ez, 0.5f * h));
  EXPECT_FALSE(gpu::edgeEdgePairBeyond(o, o + ex + ez, o + ex, o + 2.f * ex + ez, 0.75f * h));
  // Listed, moved within the drift, culled again: every pass-over by the listed distance is one the
  // distance cull makes too. The radius is set so that the listed cull is near its edge.
  int passedOver = 0, edgeCases = 0;
  for (int k = 0; k < 200000; ++k) {
    std::array<glm::vec3, 4> x;
    cluster(x);
    const bool edges = k % 2 == 1;
    const float listed = edges ? gpu::edgeEdgeDistance(x[0], x[1], x[2], x[3]) : gpu::vertexTriangleDistance(x[0], x[1], x[2], x[3]);
    const float drift = 0.0005f * std::abs(unit(rng));
    // Each corner's move lies in one box of half-diagonal `drift` about a common move: at random,
    // or (every other pair of pairs) the two sides moved straight at each other by the drift each,
    // which brings them the whole twice the drift nearer.
    const glm::vec3 common(unit(rng), unit(rng), unit(rng));
    std::array<glm::vec3, 4> moved;
    if (k % 4 < 2) {
      const glm::vec3 n = nearestDirection(x, edges);
      for (int m = 0; m < 4; ++m) {
        const bool first = edges ? m < 2 : m == 0;
        moved[m] = x[m] + 0.01f * common + (first ? drift : -drift) * n;
      }
    } else {
      for (int m = 0; m < 4; ++m) {
        const glm::vec3 u(unit(rng), unit(rng), unit(rng));
        moved[m] = x[m] + 0.01f * common + u * (drift / std::sqrt(3.f));
      }
    }
    // The radius lies within a few slacks of the listed distance less twice the drift (for pairs
    // whose first sample is even) or anywhere within twice the drift of it (odd), so that both the
    // drift's and the slack's share of the cull are at their edge.
    const float below = (k / 4) % 2 == 0 ? 3.f * WEFT_CONTACT_DISTANCE_SLACK * unit(rng) : 2.f * drift * unit(rng);
    const float radius = listed - 2.f * drift - below;
    if (!(radius > 0.f) || !gpu::contactListedBeyond(listed, drift, radius)) continue;
    ++passedOver;
    const float now = edges ? gpu::edgeEdgeDistance(moved[0], moved[1], moved[2], moved[3])
                            : gpu::vertexTriangleDistance(moved[0], moved[1], moved[2], moved[3]);
    if (now < radius + 3.5f * WEFT_CONTACT_DISTANCE_SLACK) ++edgeCases;  // within a few slacks of the radius
    ASSERT_TRUE(gpu::contactDistanceBeyond(now, radius)) << "listed " << listed << " drift " << drift << " radius " << radius << " now " << now;
  }
  EXPECT_GT(passedOver, 20000);
  EXPECT_GT(edgeCases, 100) << "pairs that came within the slack of the radius: the test's edge";
}

// The CPU's listed-gap cull by each corner's own move since the list was made, less the common move
// (contactPairClosing): it passes over no pair the distance cull would keep, when each corner has
// moved within its own distance of the common move, in metre coordinates. Half the pairs' sides
// move straight at each other by their own moves (each side's corners alike, which brings the sides
// the whole closing nearer), the rest at random within them; some corners rest (no move).
TEST(ContactGeometry, TheOwnMovesCullPassesOverOnlyPairsBeyondTheRadius) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> where(-1.5f, 1.5f), near(-0.004f, 0.004f), unit(-1.f, 1.f);
  int passedOver = 0, edgeCases = 0, nearerThanTheDrift = 0;
  for (int k = 0; k < 200000; ++k) {
    std::array<glm::vec3, 4> x;
    const glm::vec3 o(where(rng), where(rng), where(rng));
    for (glm::vec3& c : x) c = o + glm::vec3(near(rng), near(rng), near(rng));
    const bool edges = k % 2 == 1;
    const float listed = edges ? gpu::edgeEdgeDistance(x[0], x[1], x[2], x[3]) : gpu::vertexTriangleDistance(x[0], x[1], x[2], x[3]);
    // The corners' own moves: a side's alike where it moves straight at the other, else each its own;
    // every third corner rests.
    const bool straight = k % 4 < 2;
    glm::vec4 own(0.f);
    for (int m = 0; m < 4; ++m) own[m] = (k / 4 + m) % 3 == 0 ? 0.f : 0.0005f * std::abs(unit(rng));
    if (straight) {
      if (edges) own.y = own.x, own.w = own.z;
      else own.z = own.w = own.y;
    }
    const glm::vec3 common(unit(rng), unit(rng), unit(rng));
    std::array<glm::vec3, 4> moved;
    const glm::vec3 n = straight ? nearestDirection(x, edges) : glm::vec3(0.f);
    for (int m = 0; m < 4; ++m) {
      const bool first = edges ? m < 2 : m == 0;
      glm::vec3 u = n * (first ? 1.f : -1.f);
      if (!straight) u = glm::vec3(unit(rng), unit(rng), unit(rng)) / std::sqrt(3.f);
      moved[m] = x[m] + 0.01f * common + own[m] * u;
    }
    const float closing = gpu::contactPairClosing(own, edges);
    const float largest = std::max(std::max(own.x, own.y), std::max(own.z, own.w));
    const float below = (k / 4) % 2 == 0 ? 3.f * WEFT_CONTACT_DISTANCE_SLACK * unit(rng) : closing * unit(rng);
    const float radius = listed - closing - below;
    if (!(radius > 0.f) || !gpu::contactListedBeyondBy(listed, closing, radius)) continue;
    ++passedOver;
    if (closing < 2.f * largest) ++nearerThanTheDrift;  // a pass-over the drift's cull could not make
    const float now = edges ? gpu::edgeEdgeDistance(moved[0], moved[1], moved[2], moved[3])
                            : gpu::vertexTriangleDistance(moved[0], moved[1], moved[2], moved[3]);
    if (now < radius + 3.5f * WEFT_CONTACT_DISTANCE_SLACK) ++edgeCases;
    ASSERT_TRUE(gpu::contactDistanceBeyond(now, radius))
        << (edges ? "edges" : "vertex-triangle") << " listed " << listed << " closing " << closing << " radius " << radius
        << " now " << now;
  }
  EXPECT_GT(passedOver, 20000);
  EXPECT_GT(edgeCases, 100) << "pairs that came within the slack of the radius: the test's edge";
  EXPECT_GT(nearerThanTheDrift, 10000) << "pairs whose own moves bound them tighter than twice the largest";
}

// A vertex sums its pairs' shares in fixed point (ContactSums), so that the device, which meets the
// pairs in whatever order its atomics took, repeats itself: the sum of 10,000 floats from 1e-12 to
// 1 m of either sign comes out the same bits in three orders, within 2^-40 m a term of the
// double-precision sum.
TEST(ContactGeometry, FixedPointSumsAreTheSameInAnyOrderAndWithinTheirUnit) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> exponent(-12.f, 0.f), sign(-1.f, 1.f);
  std::vector<float> terms(10000);
  double exact = 0.0;
  for (float& t : terms) {
    t = std::copysign(std::pow(10.f, exponent(rng)), sign(rng));
    exact += t;
  }
  auto sumOf = [](const std::vector<float>& xs) {
    glm::uvec2 s(0u);
    for (float x : xs) s = gpu::fixedAdd(s, gpu::fixedOf(x));
    return s;
  };
  const glm::uvec2 forward = sumOf(terms);
  std::vector<float> reversed(terms.rbegin(), terms.rend()), shuffled = terms;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  EXPECT_EQ(sumOf(reversed), forward);
  EXPECT_EQ(sumOf(shuffled), forward);
  const double unit = std::ldexp(1.0, -40);
  EXPECT_NEAR(gpu::fixedValue(forward), exact, terms.size() * unit + 1e-7 * std::abs(exact));
  for (float x : {2e-12f, -2e-12f, -1e-3f, 0.25f, -7.5f}) EXPECT_NEAR(gpu::fixedValue(gpu::fixedOf(x)), x, unit) << x;
}

// A vertex 1 mm above a triangle at the step's start whose target went 2 mm through it: the pushes
// of the pair's corners bring the targets back to the thickness on the side it started on, and keep
// momentum (the masses times the pushes sum to zero).
TEST(ContactGeometry, APairsPushesBringItsTargetsBackToTheThicknessAndKeepMomentum) {
  const float thickness = 0.004f;
  const glm::vec4 p(0.1f, 0.001f, 0.1f, 2.f);  // inverse mass 2
  const glm::vec4 a(0.f, 0.f, 0.f, 1.f), b(0.4f, 0.f, 0.f, 1.f), c(0.f, 0.f, 0.4f, 0.5f);
  const glm::vec3 target(0.1f, -0.002f, 0.1f);
  glm::vec4 moved[4] = {glm::vec4(target, p.w), a, b, c};
  glm::vec3 momentum(0.f);
  float weight = 0.f;
  gpu::ContactGrip grip = gpu::noGrip();
  const gpu::ContactPairState state = gpu::vertexTriangleState(p, a, b, c, target, gpu::xyz(a), gpu::xyz(b), gpu::xyz(c));
  for (uint32_t corner = 0; corner < 4; ++corner) {
    const glm::vec4 r = gpu::contactCornerShare(state, corner, glm::vec2(thickness, 0.f), glm::vec2(0.f), weight, grip);
    EXPECT_NEAR(r.x, 0.001f, 1e-7f);
    moved[corner] += glm::vec4(r.y, r.z, r.w, 0.f);
    momentum += glm::vec3(r.y, r.z, r.w) / moved[corner].w;
  }
  EXPECT_NEAR(pointTriangleDistance(d3(moved[0]), d3(moved[1]), d3(moved[2]), d3(moved[3])), thickness, 2e-5);
  EXPECT_GT(moved[0].y, moved[1].y) << "back on the side it started on";
  EXPECT_LT(glm::length(momentum), 1e-7f);
}

// Each vertex's candidate slots on a device: as many as WEFT_CONTACT_CANDIDATE_SLOTS while the
// largest table of them (the incidence runs, 16 bytes a slot) fits the device's largest storage
// buffer, halved until it does (lavapipe's 128 MiB holds 128 a vertex for a 256² cloth), never below
// WEFT_CONTACT_MIN_CANDIDATE_SLOTS (the memory check then refuses the cloth in one sentence).
TEST(ContactSettings, EachVertexsCandidateSlotsFitTheDevicesLargestBuffer) {
  const uint64_t lavapipe = 128ull << 20;
  EXPECT_EQ(contactCandidateSlots(1000, lavapipe), WEFT_CONTACT_CANDIDATE_SLOTS);
  EXPECT_EQ(contactCandidateSlots(128 * 128, lavapipe), 512u);
  EXPECT_EQ(contactCandidateSlots(128 * 128 + 1, lavapipe), 256u);
  EXPECT_EQ(contactCandidateSlots(256 * 256, lavapipe), 128u);
  EXPECT_EQ(contactCandidateSlots(size_t(1) << 24, lavapipe), WEFT_CONTACT_MIN_CANDIDATE_SLOTS);
  for (size_t n : {size_t(1000), size_t(256 * 256), size_t(1) << 20}) {
    const uint32_t slots = contactCandidateSlots(n, lavapipe);
    if (slots > WEFT_CONTACT_MIN_CANDIDATE_SLOTS) {
      EXPECT_LE(contactMemoryNeed(n, 2 * n, slots, contactPairStateCapacity(n, lavapipe)).largest, lavapipe) << n;
    }
  }
}

// The device's room for the live pairs' states (contact_pairs.comp): WEFT_CONTACT_PAIR_STATES_PER_VERTEX
// a vertex, or what one buffer holds (lavapipe's 128 MiB: 1,677,721 states of 80 bytes, 16 a vertex
// up to 320² vertices); a step with more live pairs evaluates them at their corners instead.
TEST(ContactSettings, TheRoomForLivePairStatesFitsTheDevicesLargestBuffer) {
  const uint64_t lavapipe = 128ull << 20;
  EXPECT_EQ(contactPairStateCapacity(1000, lavapipe), 1000u * WEFT_CONTACT_PAIR_STATES_PER_VERTEX);
  EXPECT_EQ(contactPairStateCapacity(320 * 320, lavapipe), 320u * 320u * WEFT_CONTACT_PAIR_STATES_PER_VERTEX);
  EXPECT_EQ(contactPairStateCapacity(size_t(1) << 20, lavapipe), lavapipe / (WEFT_CONTACT_PAIR_STATE_VEC4S * 16));
  EXPECT_EQ(contactPairStateCapacity(size_t(1) << 30, uint64_t(1) << 40), 1u << (32u - WEFT_CONTACT_LIVE_CORNER_BITS))
      << "a place fits beside the corner in a live run's entry";
  for (size_t n : {size_t(1000), size_t(400 * 400), size_t(1) << 24})
    EXPECT_LE(uint64_t(contactPairStateCapacity(n, lavapipe)) * WEFT_CONTACT_PAIR_STATE_VEC4S * 16, lavapipe) << n;
}

// A thickness in metres where millimetres were meant would put the whole cloth in every vertex's
// search: refused in one sentence when the solver is made, on both backends.
TEST(ContactSettings, ARadiusHundredsOfEdgesWideIsRefusedInOneSentence) {
  GridSpec g;
  g.width = g.height = 8;
  const ClothModel model = buildGrid(g, Material{});  // edges of 14 cm and 20 cm
  SolverParams params;
  params.contact.enabled = true;
  params.contact.thickness = 20.f;
  for (Backend backend : allBackends()) {
    try {
      makeTestSolver(model, params, backend);
      ADD_FAILURE() << "a 40 m contact radius on a 1 m cloth was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("mean edge"), std::string::npos) << e.what();
    }
  }
  params.contact.thickness = 0.01f;  // of the order of the edges: accepted
  EXPECT_NO_THROW(makeTestSolver(model, params, Backend::Cpu));
}

// A thickness past 0.7 of the median edge would have a flat cloth push itself apart (its parallel
// diagonals lie 1/sqrt 2 of the spacing apart): refused in one sentence on both backends. A 64²
// grid of 0.25 m has 3.97 mm edges: 3 mm is refused, 2.5 mm accepted, and a change to 3 mm through
// setParams is refused with nothing changed.
TEST(ContactSettings, AThicknessNearTheEdgeLengthIsRefusedInOneSentence) {
  GridSpec g;
  g.width = g.height = 64;
  g.sizeX = g.sizeY = 0.25f;
  const ClothModel model = buildGrid(g, Material{});
  SolverParams params;
  params.contact.enabled = true;
  params.contact.thickness = 0.003f;
  for (Backend backend : allBackends()) {
    try {
      makeTestSolver(model, params, backend);
      ADD_FAILURE() << "a 3 mm thickness on 3.97 mm edges was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("median edge (0.003968 m)"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("push the cloth apart from itself"), std::string::npos) << e.what();
    }
  }
  params.contact.thickness = 0.0025f;
  for (Backend backend : allBackends()) {
    auto solver = makeTestSolver(model, params, backend);
    SolverParams thicker = params;
    thicker.contact.thickness = 0.003f;
    thicker.environment.gravity = glm::vec3(0.f, -1.f, 0.f);
    EXPECT_THROW(solver->setParams(thicker), InputError);
    EXPECT_FLOAT_EQ(solver->params().contact.thickness, 0.0025f) << "nothing changed";
    EXPECT_FLOAT_EQ(solver->params().environment.gravity.y, params.environment.gravity.y);
  }
}

// Each cloth's own friction lies in the tables contact builds from the cloth: a solver keeps the
// coefficients it was made with and refuses others, on both backends, leaving its settings as they were;
// a range past the particles is refused when the solver is made.
TEST(ContactSettings, EachClothsFrictionIsChosenWhenTheSolverIsMade) {
  GridSpec g;
  g.width = g.height = 8;
  const ClothModel model = buildGrid(g, Material{});
  SolverParams params;
  params.contact.enabled = true;
  params.contact.thickness = 0.01f;
  params.contact.clothFriction = {{0, 64, 0.2f, 0.3f}};
  for (Backend backend : allBackends()) {
    auto solver = makeTestSolver(model, params, backend);
    SolverParams changed = params;
    changed.contact.clothFriction[0].friction = 0.25f;
    EXPECT_THROW(solver->setParams(changed), InputError);
    EXPECT_EQ(solver->params().contact.clothFriction, params.contact.clothFriction);
    changed = params;
    changed.contact.thickness = 0.012f;  // the rest may change
    EXPECT_NO_THROW(solver->setParams(changed));
    SolverParams past = params;
    past.contact.clothFriction = {{32, 64, 0.2f, 0.3f}};
    EXPECT_THROW(makeTestSolver(model, past, backend), InputError);
  }
}

// Turned off in a running solver, contact takes its kernels with it: the GPU builds the solver's
// kernels again without contact's variant and element kind, the ones a solver made without contact
// runs. So a cloth made without contact, stepped after it, builds no pipeline of its own, and from
// one state both step to the same bits. Kept, contact's kernels gathered no pair but still carried
// the contact pairs' buffer and code through every step.
TEST_F(ValidatedTest, ContactTurnedOffRunsTheKernelsOfAClothMadeWithoutIt) {
  GridSpec g;
  g.width = g.height = 12;
  g.sizeX = g.sizeY = 0.2f;
  g.origin = glm::vec3(-0.1f, 0.5f, -0.1f);
  ClothModel model = buildGrid(g, Material{});
  pinParticles(model, {0, 11});
  SolverParams params;
  params.integrator = Integrator::Xpbd;
  params.iterations = 1;
  params.contact.enabled = true;
  params.contact.thickness = 0.004f;
  auto turnedOff = makeTestSolver(model, params, Backend::Gpu);
  turnedOff->advance(1.f / 60.f, 4);
  params.contact.enabled = false;
  turnedOff->setParams(params);
  turnedOff->advance(1.f / 60.f, 4);
  const size_t pipelines = gpuContext().pipelineCount();
  std::vector<glm::vec4> x, v;
  turnedOff->readState(x, v);
  auto without = makeTestSolver(model, params, Backend::Gpu);
  without->writeState(x, v);
  for (int frame = 0; frame < 3; ++frame) {
    turnedOff->advance(1.f / 60.f, 4);
    without->advance(1.f / 60.f, 4);
  }
  EXPECT_EQ(gpuContext().pipelineCount(), pipelines) << "the cloth made without contact ran kernels the other did not";
  std::vector<glm::vec4> x1, v1, x2, v2;
  turnedOff->readState(x1, v1);
  without->readState(x2, v2);
  ASSERT_EQ(x1.size(), x2.size());
  EXPECT_EQ(std::memcmp(x1.data(), x2.data(), x1.size() * sizeof(glm::vec4)), 0);
  EXPECT_EQ(std::memcmp(v1.data(), v2.data(), v1.size() * sizeof(glm::vec4)), 0);
}

// ---- Scenes ----

Material softMaterial() {
  Material m;
  m.structuralStiffness = 2000.f;
  m.shearStiffness = 500.f;
  m.bendStiffness = 5.f;
  m.damping = 0.f;
  return m;
}

ClothModel grid(uint32_t w, uint32_t h, glm::vec2 size, glm::vec3 origin, GridPlane plane) {
  GridSpec g;
  g.width = w;
  g.height = h;
  g.sizeX = size.x;
  g.sizeY = size.y;
  g.origin = origin;
  g.plane = plane;
  g.arealDensity = 0.2f;
  return buildGrid(g, softMaterial());
}

SolverParams contactParams(Integrator integrator, float thickness) {
  SolverParams params;
  params.integrator = integrator;
  params.iterations = 1;
  params.environment.airDrag = 2e-5f;
  params.colliders.push_back(ColliderDesc{});  // the floor: a plane through the origin, normal +y
  params.contact.enabled = true;
  params.contact.thickness = thickness;
  return params;
}

// Contact alone in empty space: no floor, gravity or drag, a thickness of 1 mm and the given
// radius, for the tests that throw sheets at each other and check each step against a brute-force
// search.
SolverParams contactAloneParams(Integrator integrator, float radius) {
  SolverParams params = contactParams(integrator, 0.001f);
  params.colliders.clear();
  params.environment.gravity = glm::vec3(0.f);
  params.environment.airDrag = 0.f;
  params.contact.radius = radius;
  return params;
}

// The vertices whose near mark (WEFT_CONTACT_MARK_NEAR) disagrees with the brute-force search's
// nearest distances: near exactly when a foreign primitive lies within the radius (up to rounding).
size_t wrongNearMarks(const std::vector<uint32_t>& marks, const std::vector<double>& nearest, double radius) {
  const double rounding = 1e-6;
  size_t wrong = 0;
  for (size_t i = 0; i < marks.size(); ++i) {
    const bool markedNear = marks[i] & WEFT_CONTACT_MARK_NEAR;
    if (nearest[i] < radius - rounding) wrong += !markedNear;
    if (nearest[i] > radius + rounding) wrong += markedNear;
  }
  return wrong;
}

struct Watch {
  size_t worstCrossings = 0;  // the most edge-triangle crossings in any frame
  int framesCrossed = 0;
  double nearest = 1e9;       // the smallest distance between primitives sharing no corner, any frame (m)
  double lastNearest = 1e9;   // the same in the last frame
};

// Steps `frames` frames and measures each with the independent counter (and, unless told not to,
// the independent distance).
Watch watch(Solver& solver, const ClothModel& model, int frames, int substeps, float frameDt = 1.f / 60.f,
            bool distances = true) {
  Watch w;
  std::vector<glm::vec4> x, v;
  for (int f = 0; f < frames; ++f) {
    solver.advance(frameDt, substeps);
    solver.readState(x, v);
    const size_t crossings = countCrossings(x, model.triangles);
    w.worstCrossings = std::max(w.worstCrossings, crossings);
    w.framesCrossed += crossings > 0;
    if (!distances) continue;
    w.lastNearest = minimumSeparation(x, model.triangles, 0.05);
    w.nearest = std::min(w.nearest, w.lastNearest);
  }
  return w;
}

// A 6 x 6 sheet of 0.1 m, `lift` above a pinned 12 x 12 sheet of 0.4 m (particles 0-143).
ClothModel sheetOverPinnedSheet(float lift) {
  ClothModel model = grid(12, 12, {0.4f, 0.4f}, {-0.2f, 0.f, -0.2f}, GridPlane::Horizontal);
  std::vector<uint32_t> all(model.particleCount());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  pinParticles(model, all);
  appendCloth(model, grid(6, 6, {0.1f, 0.1f}, {-0.05f, lift, -0.05f}, GridPlane::Horizontal));
  return model;
}

// The 6 x 6 sheet laid `lift` above the pinned one, both tilted by theta about the x axis (the slope
// falls towards +z), with Coulomb coefficient mu and no air: how far its centre moves down the
// slope in 1 s (60 frames of 8 steps). No edge may cross a triangle meanwhile.
float slideDownSlope(Backend backend, SolverParams params, float theta, float mu, float lift) {
  ClothModel model = sheetOverPinnedSheet(lift);
  const float c = std::cos(theta), sn = std::sin(theta);
  for (glm::vec3& x : model.positions) x = glm::vec3(x.x, x.y * c - x.z * sn, x.y * sn + x.z * c);
  params.colliders.clear();
  params.environment.airDrag = 0.f;
  params.contact.friction = params.contact.staticFriction = mu;
  auto solver = makeTestSolver(model, params, backend);
  std::vector<glm::vec4> x0, v0, x, v;
  solver->readState(x0, v0);
  for (int f = 0; f < 60; ++f) solver->advance(1.f / 60.f, 8);
  solver->readState(x, v);
  glm::vec3 moved(0.f);
  for (size_t i = 144; i < x.size(); ++i) moved += glm::vec3(x[i] - x0[i]) / 36.f;
  EXPECT_EQ(countCrossings(x, model.triangles), 0u);
  return glm::dot(moved, glm::vec3(0.f, -sn, c));
}

// Each vertex's distance, in `x`, from any primitive it is a corner of to any primitive sharing no
// corner with that one, capped at `radius`: a brute-force search over every vertex-triangle and
// edge-edge pair, in double precision.
std::vector<double> bruteForceNearest(const std::vector<glm::vec4>& x, const std::vector<glm::uvec3>& triangles, double radius) {
  const size_t n = x.size();
  std::vector<double> nearest(n, radius);
  for (const glm::uvec3& t : triangles)
    for (uint32_t p = 0; p < n; ++p) {
      if (p == t.x || p == t.y || p == t.z) continue;
      const double d = pointTriangleDistance(d3(x[p]), d3(x[t.x]), d3(x[t.y]), d3(x[t.z]));
      for (uint32_t corner : {p, t.x, t.y, t.z}) nearest[corner] = std::min(nearest[corner], d);
    }
  const std::vector<glm::uvec2> edges = uniqueEdges(triangles);
  for (const glm::uvec2& e : edges)
    for (const glm::uvec2& f : edges) {
      if (e.x == f.x || e.x == f.y || e.y == f.x || e.y == f.y) continue;
      const double d = segmentSegmentDistance(d3(x[e.x]), d3(x[e.y]), d3(x[f.x]), d3(x[f.y]));
      for (uint32_t corner : {e.x, e.y, f.x, f.y}) nearest[corner] = std::min(nearest[corner], d);
    }
  return nearest;
}

class ContactTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

// Every vertex of two sheets 5 mm apart is thrown at up to 3 m/s in random directions for one
// 1/60 s step: without contact they pass through each other. With it, each vertex moves at most
// 0.45 times the nearest distance, at the step's start, from any primitive it is a corner of to any
// primitive sharing no corner with that one (or the radius): a brute-force search over every pair,
// in double precision, finds that distance here. A search in the solver that missed a pair would let
// some vertex move farther.
void throwSheetsAndCheckEveryBound(glm::vec3 offset, Backend backend) {
  ClothModel model = grid(8, 8, {0.1f, 0.1f}, offset, GridPlane::Horizontal);
  appendCloth(model, grid(8, 8, {0.1f, 0.1f}, offset + glm::vec3(0.005f, 0.005f, 0.004f), GridPlane::Horizontal));
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> speed(-1.7f, 1.7f), bump(-0.0015f, 0.0015f);
  for (glm::vec3& v : model.velocities) v = {speed(rng), speed(rng), speed(rng)};
  // Crumpled by up to 1.5 mm, so that some vertex's nearest foreign primitive is an edge's edge
  // rather than a face (flat sheets' nearest pairs are all vertex-face).
  for (glm::vec3& x : model.positions) x.y += bump(rng);
  SolverParams params = contactAloneParams(Integrator::SymplecticEuler, 0.008f);
  const float dt = 1.f / 60.f;

  std::vector<glm::vec4> x0, v0, x, v;
  {
    SolverParams free = params;
    free.contact.enabled = false;
    auto solver = makeTestSolver(model, free, backend);
    solver->readState(x0, v0);
    ASSERT_EQ(countCrossings(x0, model.triangles), 0u);
    solver->advance(dt, 1);
    solver->readState(x, v);
    EXPECT_GT(countCrossings(x, model.triangles), 0u) << "the throw must cross without contact";
  }
  auto solver = makeTestSolver(model, params, backend);
  solver->advance(dt, 1);
  solver->readState(x, v);
  EXPECT_EQ(countCrossings(x, model.triangles), 0u);

  const std::vector<double> nearest = bruteForceNearest(x0, model.triangles, params.contact.radius);
  const size_t n = x0.size();
  double worstRatio = 0.0;
  size_t limited = 0;
  for (size_t i = 0; i < n; ++i) {
    const double moved = glm::length(d3(x[i]) - d3(x0[i]));
    const double ratio = moved / nearest[i];
    worstRatio = std::max(worstRatio, ratio);
    limited += ratio > 0.449;
  }
  EXPECT_LE(worstRatio, 0.45 * (1.0 + 1e-4));
  EXPECT_GT(limited, n / 4) << "most vertices should have been cut short by the bound";

  // The marks say the same of each vertex: near when the brute-force search finds a foreign primitive
  // within the radius, cut short where and only where it moved its whole bound, and they count what
  // the stats do.
  const std::vector<uint32_t> marks = solver->lastContactMarks();
  ASSERT_EQ(marks.size(), n);
  const ContactStats stats = solver->lastContactStats();
  const size_t wrongNear = wrongNearMarks(marks, nearest, params.contact.radius);
  size_t wrongLimited = 0, near = 0, pushed = 0, cut = 0;
  for (size_t i = 0; i < n; ++i) {
    near += (marks[i] & WEFT_CONTACT_MARK_NEAR) != 0;
    pushed += (marks[i] & WEFT_CONTACT_MARK_PUSHED) != 0;
    const double ratio = glm::length(d3(x[i]) - d3(x0[i])) / nearest[i];
    const bool markedLimited = marks[i] & WEFT_CONTACT_MARK_LIMITED;
    wrongLimited += markedLimited ? ratio < 0.449 : ratio > 0.4499;  // a target exactly at its bound is unlikely
    cut += markedLimited;
  }
  EXPECT_EQ(wrongNear, 0u) << "vertices marked near (or not) against the brute-force search";
  EXPECT_EQ(wrongLimited, 0u) << "vertices marked cut short (or not) against whether they moved their whole bound";
  EXPECT_GT(near, n / 2);
  EXPECT_EQ(pushed, stats.contactVertices);
  EXPECT_EQ(cut, stats.limitedVertices);
  EXPECT_EQ(near, stats.nearVertices);
}

TEST_P(ContactTest, NoVertexMovesFartherThanItsBoundOverEveryPairABruteForceSearchFinds) {
  throwSheetsAndCheckEveryBound(glm::vec3(0.f), GetParam());
}

// The same throw 1.7 m from the origin, where the hash's cells and the search's neighbourhoods
// number from far from zero: a search that sized its cells unlike the hash that filled them (the
// GPU's hash once sized them by the radius, its search by the list's reach) visits the wrong cells
// there and misses pairs, which lets vertices past their bounds and marks them wrongly.
TEST_P(ContactTest, EveryPairIsFoundFarFromTheOrigin) {
  throwSheetsAndCheckEveryBound(glm::vec3(1.7f, 1.3f, -1.9f), GetParam());
}

// The steps between searches evaluate the list an earlier search made, with its reach past the
// radius by the skin (contactListHolds): two crumpled 12 x 12 sheets 3 cm apart thrown at each other
// at 1 m/s, 30 steps of 1/600 s (xpbd), one a frame. In every step, kept list or new, each vertex
// moves at most 0.45 times its nearest distance at the step's start by a brute-force search over
// every pair, it is marked near exactly when that search finds a pair within the radius, and no edge
// crosses: the kept list held every pair the step's own search would have. The sheets meet (their
// mean gap ends below the radius), and most steps keep a list. A list kept for good is still safe
// (the bound of the pairs past it shrinks by twice the drift, contactDroppedNow) but stops the
// sheets 18 mm apart: the gap check fails, as does the count of searches.
TEST_P(ContactTest, StepsThatKeepAnEarlierSearchsListMissNoPair) {
  ClothModel model = grid(12, 12, {0.1f, 0.1f}, {0.f, 0.f, 0.f}, GridPlane::Horizontal);
  appendCloth(model, grid(12, 12, {0.1f, 0.1f}, {0.004f, 0.03f, 0.004f}, GridPlane::Horizontal));
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> speed(-0.03f, 0.03f), bump(-0.0015f, 0.0015f);
  for (size_t i = 0; i < model.velocities.size(); ++i)
    model.velocities[i] = glm::vec3(speed(rng), (i < 144 ? 0.5f : -0.5f) + speed(rng), speed(rng));
  for (glm::vec3& x : model.positions) x.y += bump(rng);
  SolverParams params = contactAloneParams(Integrator::Xpbd, 0.01f);
  auto solver = makeTestSolver(model, params, GetParam());
  const double radius = params.contact.radius;
  std::vector<glm::vec4> x0, x, v;
  solver->readState(x0, v);
  uint64_t searches = 0;
  size_t wrongNear = 0, nearMarks = 0;
  double worstRatio = 0.0;
  const int steps = 30;
  for (int step = 0; step < steps; ++step) {
    solver->advance(1.f / 600.f, 1);
    solver->readState(x, v);
    searches += solver->lastContactStats().searchSteps;
    const std::vector<double> nearest = bruteForceNearest(x0, model.triangles, radius);
    const std::vector<uint32_t> marks = solver->lastContactMarks();
    ASSERT_EQ(marks.size(), x.size());
    wrongNear += wrongNearMarks(marks, nearest, radius);
    for (size_t i = 0; i < x.size(); ++i) {
      worstRatio = std::max(worstRatio, glm::length(d3(x[i]) - d3(x0[i])) / nearest[i]);
      nearMarks += (marks[i] & WEFT_CONTACT_MARK_NEAR) != 0;
    }
    ASSERT_EQ(countCrossings(x, model.triangles), 0u) << "step " << step;
    x0 = x;
  }
  double gap = 0.0;  // the upper sheet's mean height over the lower one's
  for (size_t i = 0; i < x.size(); ++i) gap += (i < 144 ? -1.0 : 1.0) * x[i].y / 144.0;
  RecordProperty("search_steps", std::to_string(searches));
  RecordProperty("gap_mm", std::to_string(gap * 1e3));
  EXPECT_LT(gap, radius) << "the sheets meet: a list kept past the skin would hold them apart, its vertices' bounds spent";
  EXPECT_GE(searches, 2u) << "the sheets must drift past the skin";
  EXPECT_LE(searches, uint64_t(steps / 2)) << "most steps keep an earlier list";
  EXPECT_EQ(wrongNear, 0u) << "vertices marked near (or not) against the brute-force search, over " << steps << " steps";
  EXPECT_GT(nearMarks, x.size() * steps / 4);
  EXPECT_LE(worstRatio, 0.45 * (1.0 + 1e-4));
}

// A radius of a dozen edges puts more candidate pairs in each vertex's search than it has slots
// (ContactParams::candidateSlots). The pairs past them are not evaluated, but a lower bound on their
// distance still limits the vertex's move: against every pair a brute-force search finds, no vertex
// moves more than 0.45 of its nearest distance, and no edge crosses. Two crumpled sheets 3 mm apart
// thrown at each other, one step. Without the lower bound, a vertex whose nearest pair fell past its
// slots would move the radius's bound, many times its distance.
TEST_P(ContactTest, PairsPastAVertexsSlotsStillLimitItsMove) {
  ClothModel model = grid(20, 20, {0.1f, 0.1f}, {0.f, 0.f, 0.f}, GridPlane::Horizontal);
  appendCloth(model, grid(20, 20, {0.1f, 0.1f}, {0.002f, 0.003f, 0.002f}, GridPlane::Horizontal));
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> bump(-0.0008f, 0.0008f);
  for (glm::vec3& x : model.positions) x.y += bump(rng);
  for (size_t i = 0; i < model.velocities.size(); ++i) model.velocities[i] = glm::vec3(0.f, i < 400 ? 1.f : -1.f, 0.f);
  SolverParams params = contactAloneParams(Integrator::SymplecticEuler, 0.06f);  // 11 edges
  auto solver = makeTestSolver(model, params, GetParam());
  std::vector<glm::vec4> x0, v0, x, v;
  solver->readState(x0, v0);
  ASSERT_EQ(countCrossings(x0, model.triangles), 0u);
  solver->advance(1.f / 60.f, 1);
  solver->readState(x, v);
  EXPECT_EQ(countCrossings(x, model.triangles), 0u);
  const ContactStats stats = solver->lastContactStats();
  EXPECT_GT(stats.crowdedVertices, x0.size() / 2) << "the radius must crowd most vertices' searches";
  const std::vector<double> nearest = bruteForceNearest(x0, model.triangles, params.contact.radius);
  double worstRatio = 0.0;
  for (size_t i = 0; i < x0.size(); ++i) worstRatio = std::max(worstRatio, glm::length(d3(x[i]) - d3(x0[i])) / nearest[i]);
  EXPECT_LE(worstRatio, 0.45 * (1.0 + 1e-4));
}

// Two triangles, one flat and one upright above it, whose long edges cross 3 mm apart, far from
// each other's middles and from every corner: the only pairs within the radius are edge-edge pairs
// met in their interiors. Thrown together at 2 m/s, each corner of those edges moves at most 0.45
// times that distance, and the edges stay apart. A search that culled edge pairs by their middles
// alone (rather than by every point within half an edge of them) would find no pair, and let the
// corners move the radius's bound instead.
TEST_P(ContactTest, EdgesThatCrossFarFromTheirMiddlesAreFoundAndBound) {
  const float gap = 0.003f;
  const std::vector<glm::vec3> vertices{{-0.05f, 0.f, 0.f}, {0.15f, 0.f, 0.f},   {0.1f, 0.f, -0.1f},  // flat, edge along x
                                        {0.f, gap, -0.15f}, {0.f, gap, 0.05f}, {0.f, 0.1f, -0.05f}};  // upright, edge along z
  const std::vector<glm::uvec3> triangles{{0, 1, 2}, {3, 4, 5}};
  ClothModel model = buildMesh(vertices, triangles, softMaterial(), 0.01f, 0.f);
  for (size_t i = 0; i < model.velocities.size(); ++i) model.velocities[i] = glm::vec3(0.f, i < 3 ? 1.f : -1.f, 0.f);
  SolverParams params = contactAloneParams(Integrator::SymplecticEuler, 0.008f);
  auto solver = makeTestSolver(model, params, GetParam());
  std::vector<glm::vec4> x0, v0, x, v;
  solver->readState(x0, v0);
  const std::vector<double> nearest = bruteForceNearest(x0, model.triangles, params.contact.radius);
  EXPECT_NEAR(nearest[0], gap, 1e-6) << "the crossing edges are the nearest pair";
  solver->advance(1.f / 60.f, 1);  // 17 mm each way without contact
  solver->readState(x, v);
  for (uint32_t corner : {0u, 1u, 3u, 4u}) {
    const double moved = glm::length(d3(x[corner]) - d3(x0[corner]));
    EXPECT_LE(moved, 0.45 * gap * (1.0 + 1e-4)) << "corner " << corner;
    EXPECT_GT(moved, 0.44 * gap) << "corner " << corner << " should have moved up to its bound";
  }
  EXPECT_GT(segmentSegmentDistance(d3(x[0]), d3(x[1]), d3(x[3]), d3(x[4])), 0.09 * gap);
  EXPECT_EQ(countCrossings(x, model.triangles), 0u);
}

// A strip 6 x 40 particles (0.1 x 0.8 m) dropped upright onto the floor beside a small sphere,
// which tips it over: it buckles and piles up. Without contact it folds through itself; with it, no
// edge crosses a triangle in any frame, and the pile is down (below 20 cm) after 1.5 s.
TEST_P(ContactTest, ADroppedStripPilesUpWithoutAnEdgeEverCrossingATriangle) {
  const ClothModel model = grid(6, 40, {0.1f, 0.8f}, {-0.05f, 0.85f, 0.f}, GridPlane::Vertical);
  SolverParams params = contactParams(Integrator::Xpbd, 0.003f);
  ColliderDesc sphere;
  sphere.kind = ColliderDesc::Kind::Sphere;
  sphere.center = glm::vec3(0.f, 0.02f, 0.02f);
  sphere.radius = 0.03f;
  params.colliders.push_back(sphere);
  const int frames = 90, substeps = 16;
  if (GetParam() == Backend::Cpu) {
    SolverParams free = params;
    free.contact.enabled = false;
    auto solver = makeTestSolver(model, free, GetParam());
    const Watch crossed = watch(*solver, model, frames, substeps);
    EXPECT_GT(crossed.framesCrossed, 10) << "without contact the pile should fold through itself";
  }
  auto solver = makeTestSolver(model, params, GetParam());
  const Watch w = watch(*solver, model, frames, substeps);
  EXPECT_EQ(w.worstCrossings, 0u);
  EXPECT_GT(w.nearest, 0.0);
  std::vector<glm::vec4> x, v;
  solver->readState(x, v);
  float top = -1e9f;
  for (const glm::vec4& p : x) top = std::max(top, p.y);
  EXPECT_LT(top, 0.2f) << "the strip should have piled onto the floor";
  const ContactStats stats = solver->lastContactStats();
  EXPECT_GT(stats.contactVertices, 0u) << "a pile is held apart by its contacts";
  RecordProperty("nearest_mm", std::to_string(w.nearest * 1e3));
}

// Two strips dropped crosswise, one 3 cm above the other, fall onto the floor: no edge crosses a
// triangle in any frame. The pushes are one Jacobi projection per step, so at the impact (the lower
// strip stopped by the floor, the upper still falling at 1.3 m/s) a pair dips below the thickness:
// measured, to 0.59 mm of 4 mm; the stated tolerance is 90 % of the thickness while things move, 5 %
// at rest (measured 3.81 mm).
TEST_P(ContactTest, TwoStripsDroppedCrosswiseNeverCrossAndStayApart) {
  const float thickness = 0.004f;
  ClothModel model = grid(24, 6, {0.48f, 0.1f}, {-0.24f, 0.1f, -0.05f}, GridPlane::Horizontal);
  appendCloth(model, grid(6, 24, {0.1f, 0.48f}, {-0.05f, 0.13f, -0.24f}, GridPlane::Horizontal));
  const SolverParams params = contactParams(Integrator::Xpbd, thickness);
  auto solver = makeTestSolver(model, params, GetParam());
  const Watch w = watch(*solver, model, 60, 8);
  EXPECT_EQ(w.worstCrossings, 0u);
  EXPECT_GT(w.nearest, 0.1 * thickness);
  EXPECT_GT(w.lastNearest, 0.95 * thickness);
  std::vector<glm::vec4> x, v;
  solver->readState(x, v);
  // The upper strip lies on the lower one where they cross: its middle rests about a thickness
  // (and the floor's margin) up, not on the floor.
  const uint32_t middle = 24 * 6 + 12 * 6 + 3;
  EXPECT_GT(x[middle].y, x[12].y + 0.5f * thickness);
}

// A sheet laid 0.04 mm over a pinned one, nearer than the hold distance (2 % of the 3 mm thickness),
// with nothing pressing it (no gravity, no floor). Every vertex of it is held by those pairs alone,
// and its moves (the pass's pushes, up) take it away from each of them, so it leaves: within 30
// frames the sheets lie past 0.9 of the thickness apart, and no frame finds them nearer than they
// began. Before, a held vertex never moved again, and the sheets stayed 0.04 mm apart for good.
TEST_P(ContactTest, APairWithinTheHoldDistanceMovesApartAndNeverNearer) {
  const float thickness = 0.003f, lift = 0.00004f;
  const ClothModel model = sheetOverPinnedSheet(lift);
  SolverParams params = contactParams(Integrator::Xpbd, thickness);
  params.colliders.clear();
  params.environment.gravity = glm::vec3(0.f);
  auto solver = makeTestSolver(model, params, GetParam());
  const Watch w = watch(*solver, model, 30, 8);
  EXPECT_EQ(w.worstCrossings, 0u);
  EXPECT_GT(w.nearest, 0.99 * lift);
  EXPECT_GT(w.lastNearest, 0.9 * thickness);
}

// A sheet thrown at 10 m/s onto a pinned one 2 cm below it, in 4 steps a frame (each step moves it
// 4 cm at that speed): without contact it passes straight through; with it, it stops on its side.
TEST_P(ContactTest, ASheetThrownAtTenMetresPerSecondStaysOnItsSideOfAPinnedSheet) {
  ClothModel model = grid(10, 10, {0.2f, 0.2f}, {-0.1f, 0.5f, -0.1f}, GridPlane::Horizontal);
  std::vector<uint32_t> all(model.particleCount());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  pinParticles(model, all);
  ClothModel thrown = grid(10, 10, {0.16f, 0.16f}, {-0.08f, 0.52f, -0.08f}, GridPlane::Horizontal);
  for (glm::vec3& v : thrown.velocities) v = glm::vec3(0.f, -10.f, 0.f);
  appendCloth(model, thrown);
  SolverParams params = contactParams(Integrator::Xpbd, 0.003f);
  params.colliders.clear();
  const uint32_t first = 100;
  for (bool on : {false, true}) {
    params.contact.enabled = on;
    auto solver = makeTestSolver(model, params, GetParam());
    const Watch w = watch(*solver, model, 20, 4);
    std::vector<glm::vec4> x, v;
    solver->readState(x, v);
    float lowest = 1e9f;
    for (size_t i = first; i < x.size(); ++i) lowest = std::min(lowest, x[i].y);
    if (!on) {
      EXPECT_LT(lowest, 0.45f) << "without contact the sheet goes through";
      continue;
    }
    EXPECT_EQ(w.worstCrossings, 0u);
    EXPECT_GT(lowest, 0.5f) << "every vertex of the thrown sheet stays above the pinned one";
  }
}

// Coulomb friction between cloths: a small sheet laid on a pinned sheet tilted by theta sticks
// below the friction angle atan(mu) and slides above it as Coulomb's law says. With mu = 0.4 (21.8
// degrees), over 1 s: at 0.95 of that angle the sheet's centre creeps less than 1 cm (measured 4 mm:
// contact comes and goes at a few vertices, and they slip in the steps they are free); at 1.1 of it
// it slides 1/2 g (sin theta - mu cos theta) t^2 = 20.1 cm within 10 % (measured 19.6 cm).
TEST_P(ContactTest, ASheetOnATiltedSheetSticksBelowTheFrictionAngleAndSlidesAsCoulombSaysAbove) {
  const float mu = 0.4f, thickness = 0.003f, g = 9.81f;
  const float critical = std::atan(mu);
  for (float fraction : {0.95f, 1.1f}) {
    const float theta = fraction * critical;
    const float downSlope = slideDownSlope(GetParam(), contactParams(Integrator::Xpbd, thickness), theta, mu, thickness);
    const float c = std::cos(theta), sn = std::sin(theta);
    if (fraction < 1.f) {
      EXPECT_LT(std::abs(downSlope), 0.01f) << "at " << glm::degrees(theta) << " degrees the sheet should stick";
    } else {
      const float coulomb = 0.5f * g * (sn - mu * c);  // 1 s
      EXPECT_NEAR(downSlope, coulomb, 0.1f * coulomb) << "at " << glm::degrees(theta) << " degrees";
    }
  }
}

// Each cloth's own friction: two small sheets side by side on a pinned sheet (mu 0.4) tilted by 15
// degrees, one of mu 0.9 and one of mu 0.1. Each pair slides with the geometric mean of its cloths'
// coefficients: 0.6 (31 degrees) holds, 0.2 (11.3 degrees) slides 1/2 g (sin - mu cos) t^2 = 11.59 cm
// in 0.6 s, within 10 % (measured 11.55 cm on both backends; with the slippery cloth's own 0.1 alone,
// 24.6 cm). With the scene's 0.4 for all (21.8 degrees) both hold.
TEST_P(ContactTest, EachClothSlidesWithItsOwnFrictionAgainstAnother) {
  const float base = 0.4f, thickness = 0.003f, g = 9.81f, theta = glm::radians(15.f), seconds = 0.6f;
  ClothModel model = grid(16, 16, {0.5f, 0.5f}, {-0.25f, 0.f, -0.25f}, GridPlane::Horizontal);
  std::vector<uint32_t> all(model.particleCount());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  pinParticles(model, all);
  const uint32_t sticky = uint32_t(model.particleCount());
  appendCloth(model, grid(6, 6, {0.1f, 0.1f}, {-0.2f, thickness, -0.15f}, GridPlane::Horizontal));
  const uint32_t slippery = uint32_t(model.particleCount());
  appendCloth(model, grid(6, 6, {0.1f, 0.1f}, {0.05f, thickness, -0.15f}, GridPlane::Horizontal));
  const float c = std::cos(theta), sn = std::sin(theta);
  for (glm::vec3& x : model.positions) x = glm::vec3(x.x, x.y * c - x.z * sn, x.y * sn + x.z * c);
  SolverParams params = contactParams(Integrator::Xpbd, thickness);
  params.colliders.clear();
  params.environment.airDrag = 0.f;
  params.contact.friction = params.contact.staticFriction = base;
  auto downSlope = [&](const SolverParams& p, uint32_t first) {
    auto solver = makeTestSolver(model, p, GetParam());
    std::vector<glm::vec4> x0, v0, x, v;
    solver->readState(x0, v0);
    for (int f = 0; f < int(seconds * 60.f + 0.5f); ++f) solver->advance(1.f / 60.f, 8);
    solver->readState(x, v);
    EXPECT_EQ(countCrossings(x, model.triangles), 0u);
    glm::vec3 moved(0.f);
    for (uint32_t i = first; i < first + 36; ++i) moved += glm::vec3(x[i] - x0[i]) / 36.f;
    return glm::dot(moved, glm::vec3(0.f, -sn, c));
  };
  EXPECT_LT(std::abs(downSlope(params, slippery)), 0.01f) << "with the scene's mu for every cloth, both hold";
  params.contact.clothFriction = {{sticky, 36, 0.9f, 0.9f}, {slippery, 36, 0.1f, 0.1f}};
  EXPECT_LT(std::abs(downSlope(params, sticky)), 0.01f) << "mu sqrt(0.9 x 0.4) = 0.6 holds at 15 degrees";
  const float mu = std::sqrt(0.1f * base);
  const float coulomb = 0.5f * g * (sn - mu * c) * seconds * seconds;
  const float slid = downSlope(params, slippery);
  EXPECT_NEAR(slid, coulomb, 0.1f * coulomb) << "mu sqrt(0.1 x 0.4) = 0.2 slides";
}

INSTANTIATE_TEST_SUITE_P(Backends, ContactTest, ::testing::ValuesIn(allBackends()), backendParamName);

// Contact works after any integrator's step: a soft 8 x 8 sheet thrown at 3 m/s onto a pinned one
// 2 cm below it, 20 frames of 16 steps (64 for the explicit ones), with each of the nine integrators
// on both backends. No edge crosses a triangle in any frame, the thrown sheet ends above the pinned
// one, and the two lie apart by the thickness within 10 % (measured 2.99-3.00 mm of 3 mm, by the
// independent counter's distance). Without contact, all nine let it through.
class ContactIntegratorTest : public ValidatedTest, public ::testing::WithParamInterface<std::tuple<Backend, Integrator>> {};

TEST_P(ContactIntegratorTest, ASheetThrownOntoAnotherNeverCrossesIt) {
  const auto [backend, integrator] = GetParam();
  const float thickness = 0.003f;
  // Soft and lightly damped, within explicit Euler's limits at 64 steps a frame (below).
  Material soft;
  soft.structuralStiffness = 10.f;
  soft.shearStiffness = 2.5f;
  soft.bendStiffness = 0.1f;
  soft.damping = 0.01f;
  auto sheet = [&](uint32_t n, float size, glm::vec3 origin) {
    GridSpec g;
    g.width = g.height = n;
    g.sizeX = g.sizeY = size;
    g.origin = origin;
    g.arealDensity = 0.2f;
    return buildGrid(g, soft);
  };
  ClothModel model = sheet(10, 0.2f, {-0.1f, 0.5f, -0.1f});
  std::vector<uint32_t> all(model.particleCount());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  pinParticles(model, all);
  ClothModel thrown = sheet(8, 0.16f, {-0.08f, 0.52f, -0.08f});
  for (glm::vec3& v : thrown.velocities) v = glm::vec3(0.f, -3.f, 0.f);
  appendCloth(model, thrown);
  SolverParams params = contactParams(integrator, thickness);
  params.iterations = SolverParams{}.iterations;  // each integrator's own default
  params.colliders.clear();
  // Explicit Euler's and RK4's stability limits, with particles of 0.08 g: four times the steps.
  const bool explicitStep = integrator == Integrator::ExplicitEuler || integrator == Integrator::Rk4;
  auto solver = makeTestSolver(model, params, backend);
  const Watch w = watch(*solver, model, 20, explicitStep ? 64 : 16);
  EXPECT_EQ(w.worstCrossings, 0u);
  EXPECT_GT(w.lastNearest, 0.9 * thickness);
  std::vector<glm::vec4> x, v;
  solver->readState(x, v);
  float lowest = 1e9f;
  for (size_t i = 100; i < x.size(); ++i) {
    ASSERT_TRUE(std::isfinite(x[i].x) && std::isfinite(x[i].y) && std::isfinite(x[i].z)) << "particle " << i;
    lowest = std::min(lowest, x[i].y);
  }
  EXPECT_GT(lowest, 0.5f) << "every vertex of the thrown sheet stays above the pinned one";
  RecordProperty("last_nearest_mm", std::to_string(w.lastNearest * 1e3));
}

INSTANTIATE_TEST_SUITE_P(Integrators, ContactIntegratorTest,
                         ::testing::Combine(::testing::ValuesIn(allBackends()), ::testing::ValuesIn(allIntegrators())),
                         [](const ::testing::TestParamInfo<std::tuple<Backend, Integrator>>& info) {
                           return integratorCaseName(std::get<1>(info.param), std::get<0>(info.param));
                         });

// Both backends run the same kernels' twins: after 30 frames of the crosswise drop they agree on
// the motion, and on the contacts found, within float rounding (a device may contract a product
// and a sum into one rounding where the CPU rounds twice).
class ContactBackends : public ValidatedTest {};

// The GPU's hash scatters vertices into their buckets by atomics, in whatever order the device runs
// them; each bucket's run is then sorted, so the search meets its candidates in one order and sums
// the pushes in one order. Two runs of a pile of three sheets dropped onto each other, 24 frames,
// end bit for bit the same.
TEST_F(ContactBackends, TheGpuRepeatsItselfBitForBit) {
  ClothModel model = grid(12, 12, {0.2f, 0.2f}, {-0.1f, 0.02f, -0.1f}, GridPlane::Horizontal);
  appendCloth(model, grid(12, 12, {0.2f, 0.2f}, {-0.08f, 0.04f, -0.12f}, GridPlane::Horizontal));
  appendCloth(model, grid(12, 12, {0.2f, 0.2f}, {-0.12f, 0.06f, -0.08f}, GridPlane::Horizontal));
  const SolverParams params = contactParams(Integrator::Xpbd, 0.004f);
  std::vector<glm::vec4> x[2], v[2];
  for (int run = 0; run < 2; ++run) {
    auto gpu = makeTestSolver(model, params, Backend::Gpu);
    for (int f = 0; f < 24; ++f) gpu->advance(1.f / 60.f, 8);
    gpu->readState(x[run], v[run]);
  }
  ASSERT_EQ(x[0].size(), x[1].size());
  size_t differ = 0;
  for (size_t i = 0; i < x[0].size(); ++i) differ += std::memcmp(&x[0][i], &x[1][i], sizeof(glm::vec4)) != 0;
  EXPECT_EQ(differ, 0u) << "particles whose positions differ between two runs";
}

TEST_F(ContactBackends, FindTheSameContactsAndAgreeOnTheMotion) {
  ClothModel model = grid(16, 6, {0.32f, 0.1f}, {-0.16f, 0.1f, -0.05f}, GridPlane::Horizontal);
  appendCloth(model, grid(6, 16, {0.1f, 0.32f}, {-0.05f, 0.12f, -0.16f}, GridPlane::Horizontal));
  const SolverParams params = contactParams(Integrator::Xpbd, 0.004f);
  auto cpu = makeTestSolver(model, params, Backend::Cpu);
  auto gpu = makeTestSolver(model, params, Backend::Gpu);
  uint64_t cpuContacts = 0, gpuContacts = 0;
  for (int f = 0; f < 30; ++f) {
    cpu->advance(1.f / 60.f, 8);
    gpu->advance(1.f / 60.f, 8);
    const ContactStats a = cpu->lastContactStats(), b = gpu->lastContactStats();
    cpuContacts += a.contactVertices;
    gpuContacts += b.contactVertices;
    EXPECT_NEAR(a.minDistance, b.minDistance, 1e-5f) << "frame " << f;
    EXPECT_EQ(b.unstoredSteps, 0u) << "frame " << f << ": the device stores every pair within the radius";
  }
  std::vector<glm::vec4> xc, vc, xg, vg;
  cpu->readState(xc, vc);
  gpu->readState(xg, vg);
  EXPECT_LT(maxPositionDifference(xc, xg), 1e-4f);
  // The last frame's marks: the same vertices near, pushed and cut short, within a few that float
  // rounding puts on the other side of a threshold.
  const std::vector<uint32_t> cpuMarks = cpu->lastContactMarks(), gpuMarks = gpu->lastContactMarks();
  ASSERT_EQ(cpuMarks.size(), xc.size());
  ASSERT_EQ(gpuMarks.size(), xc.size());
  size_t marked = 0, differ = 0;
  for (size_t i = 0; i < cpuMarks.size(); ++i) {
    marked += cpuMarks[i] != 0;
    differ += cpuMarks[i] != gpuMarks[i];
  }
  EXPECT_GT(marked, cpuMarks.size() / 4);
  EXPECT_LE(differ, cpuMarks.size() / 100) << "of " << marked << " marked";
  EXPECT_GT(cpuContacts, 100u);
  EXPECT_NEAR(double(gpuContacts), double(cpuContacts), 0.02 * double(cpuContacts));
}

// A step whose pairs within the radius outnumber the room the device keeps for their states
// (ContactParams::pairStateCapacity: WEFT_CONTACT_PAIR_STATES_PER_VERTEX a vertex) evaluates each of
// them at its corners from the whole incidence table instead (contact_resolve.comp). Two sheets 3 mm
// apart, thrown at each other, with a radius of four edges: about a hundred live pairs a vertex. The
// GPU says it took that way in each step and moves the vertices as the CPU does, contact cutting
// half the moves short; the test above asserts that an ordinary cloth's steps keep every pair stored.
TEST_F(ContactBackends, AStepWithMorePairsThanTheDeviceStoresEvaluatesThemAtTheirCorners) {
  ClothModel model = grid(20, 20, {0.1f, 0.1f}, {0.f, 0.f, 0.f}, GridPlane::Horizontal);
  appendCloth(model, grid(20, 20, {0.1f, 0.1f}, {0.002f, 0.003f, 0.002f}, GridPlane::Horizontal));
  for (size_t i = 0; i < model.velocities.size(); ++i) model.velocities[i] = glm::vec3(0.f, i < 400 ? 1.f : -1.f, 0.f);
  const SolverParams params = contactAloneParams(Integrator::SymplecticEuler, 0.02f);
  auto cpu = makeTestSolver(model, params, Backend::Cpu);
  auto gpu = makeTestSolver(model, params, Backend::Gpu);
  cpu->advance(1.f / 60.f, 4);
  gpu->advance(1.f / 60.f, 4);
  const ContactStats a = cpu->lastContactStats(), b = gpu->lastContactStats();
  EXPECT_EQ(b.unstoredSteps, 4u);
  EXPECT_EQ(a.unstoredSteps, 0u) << "the CPU stores what it evaluates";
  EXPECT_GT(b.limitedVertices, 4u * 800u / 4u) << "contact cut a quarter of the moves short or more (1,580 of 3,200)";
  EXPECT_EQ(b.limitedVertices, a.limitedVertices);
  std::vector<glm::vec4> xc, vc, xg, vg;
  cpu->readState(xc, vc);
  gpu->readState(xg, vg);
  EXPECT_LT(maxPositionDifference(xc, xg), 1e-5f);
  EXPECT_EQ(countCrossings(xg, model.triangles), 0u);
}

// The shipped contact scenes, whole, on each backend: no edge crosses a triangle in any frame. On
// lavapipe with the validation layer they are the suite's longest (the pile 62 s, the layers 97 s,
// the twist 106 s, two tests at a time on 2 cores; 5 to 9 minutes each before the resolve walked
// only live pairs), so their GPU instances run first and under a longer timeout (tests/CMakeLists.txt).
class ContactScenes : public ValidatedTest, public ::testing::WithParamInterface<std::tuple<const char*, Backend>> {};

TEST_P(ContactScenes, NeverCrossInAnyFrame) {
  const auto [file, backend] = GetParam();
  const Scene scene = loadDemoScene(std::string(WEFT_SOURCE_DIR) + "/demos/scenes/" + file).scene;
  ASSERT_TRUE(scene.contact.enabled);
  auto solver = makeTestSolver(scene.cloth, solverParams(scene), backend);
  const Watch w = watch(*solver, scene.cloth, 150, scene.solver.substeps, scene.solver.dt, false);
  EXPECT_EQ(w.worstCrossings, 0u);
}

INSTANTIATE_TEST_SUITE_P(Shipped, ContactScenes,
                         ::testing::Combine(::testing::Values("drop_pile.json", "layers.json", "twist.json", "moving_body.json"),
                                            ::testing::ValuesIn(allBackends())),
                         [](const ::testing::TestParamInfo<std::tuple<const char*, Backend>>& info) {
                           const std::string file = std::get<0>(info.param);
                           return file.substr(0, file.find('.')) + "_" + backendName(std::get<1>(info.param));
                         });

// The long rest tests settle on the CPU backend and measure the rest on each backend: a GPU instance
// continues from the CPU's settled state (writeState), so lavapipe runs only the frames the
// assertions measure, which is what they are about (the device holding a rest, not reaching it).
// The settling is the same motion on both backends (to the bit on lavapipe); a drop on the device
// is checked whole by TwoSheetsOnASphereStayOnIt, the thrown sheets and the shipped scenes.
std::unique_ptr<Solver> continuedOn(Backend backend, std::unique_ptr<Solver> settled, const ClothModel& model,
                                    const SolverParams& params) {
  if (backend == settled->backend()) return settled;
  std::vector<glm::vec4> x, v;
  settled->readState(x, v);
  auto solver = makeTestSolver(model, params, backend);
  solver->writeState(x, v);
  solver->setTime(settled->time());
  return solver;
}

// The implicit solves hold contact pairs as elements (forces and Jacobian blocks,
// shaders/elements/contact_pair.h): a 6 x 6 sheet dropped 1 cm onto a pinned 12 x 12 one comes to
// rest held up by the solve's own contact forces, between the thickness (3 mm, where the contact
// pass alone leaves it: 3.02 mm with xpbd) and their reach (3.75 mm); measured 3.74 mm on both
// backends, with no vertex moving more than 0.6 um in the 31st frame (xpbd's, pushed by the pass
// every step: 20 um). Without the forces the sheet rests at 3.01 mm, moving 17-30 um a frame.
class ContactForcesTest : public ValidatedTest, public ::testing::WithParamInterface<std::tuple<Backend, Integrator>> {};

TEST_P(ContactForcesTest, ASheetRestsOnAnotherHeldByTheSolvesContactForces) {
  const auto [backend, integrator] = GetParam();
  const float thickness = 0.003f;
  const ClothModel model = sheetOverPinnedSheet(0.01f);
  SolverParams params = contactParams(integrator, thickness);
  params.iterations = SolverParams{}.iterations;  // each integrator's own default
  params.colliders.clear();
  auto settling = makeTestSolver(model, params, Backend::Cpu);
  for (int f = 0; f < 30; ++f) settling->advance(1.f / 60.f, 8);
  auto solver = continuedOn(backend, std::move(settling), model, params);
  std::vector<glm::vec4> x, v, before;
  solver->readState(before, v);
  solver->advance(1.f / 60.f, 8);
  solver->readState(x, v);
  double gap = 0.0, moved = 0.0;
  for (size_t i = 144; i < x.size(); ++i) {
    gap += x[i].y / 36.0;
    moved = std::max<double>(moved, glm::length(glm::vec3(x[i] - before[i])));
  }
  const float reach = gpu::contactForceReach(thickness, 1.f);
  EXPECT_GT(gap, 1.1 * thickness) << "the solve's forces hold the sheet above the thickness";
  EXPECT_LE(gap, reach) << "and within their reach";
  EXPECT_LT(moved, 1e-5) << "m in the last frame: at rest";
  EXPECT_EQ(countCrossings(x, model.triangles), 0u);
  RecordProperty("gap_mm", std::to_string(gap * 1e3));
  RecordProperty("moved_um", std::to_string(moved * 1e6));
}

// Friction still holds when the solve's forces, not the contact pass's pushes, carry the weight:
// the tilted-sheet test of ContactTest with implicit-cg (one implicit solve; its pass pushes nothing once the sheet
// rests, so friction grips on the forces' press: contactGripMove). At 0.9 of the friction angle the
// sheet creeps less than 1 cm in 1 s (measured 0.6 mm; without the grip it slides 92 cm); at 1.1 it
// slides as Coulomb's law says with a coefficient within 10 % of mu (measured 15.9 cm, mu' = 0.409 for
// 0.4, CPU: the press is measured at the step's end, a little above the force's mean over the step).
class ContactForcesFriction : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

TEST_P(ContactForcesFriction, GripsOnTheForcesPress) {
  const Backend backend = GetParam();
  const float mu = 0.4f, thickness = 0.003f, g = 9.81f;
  for (float fraction : {0.9f, 1.1f}) {
    const float theta = fraction * std::atan(mu);
    SolverParams params = contactParams(Integrator::ImplicitCg, thickness);
    params.iterations = SolverParams{}.iterations;
    const float downSlope = slideDownSlope(backend, params, theta, mu, 1.2f * thickness);
    const float c = std::cos(theta), sn = std::sin(theta);
    RecordProperty(fraction < 1.f ? "below_mm" : "above_mm", std::to_string(downSlope * 1e3));
    if (fraction < 1.f) {
      EXPECT_LT(std::abs(downSlope), 0.01f) << "at " << glm::degrees(theta) << " degrees the sheet should stick";
    } else {  // the coefficient the slide shows: 1/2 g (sin theta - mu' cos theta) t^2 = downSlope, t = 1 s
      const float shown = (sn - 2.f * downSlope / g) / c;
      RecordProperty("mu_shown", std::to_string(shown));
      EXPECT_GT(downSlope, 0.02f) << "at " << glm::degrees(theta) << " degrees the sheet should slide";
      EXPECT_NEAR(shown, mu, 0.1f * mu) << "at " << glm::degrees(theta) << " degrees";
    }
  }
}

// Both backends keep the same pairs (each backend's twin of the pass) and gather them alike: the
// sheet dropped onto the pinned one with implicit-cg ends its 31 frames with every particle within
// 2e-6 m on the two (measured 4.2e-7 m; without the pairs in the GPU's gather, 1.3 mm). An impact
// between free layers is too sensitive for such a bound with a CG solve (its reductions sum in
// another order on the device): the crosswise strips of FindTheSameContactsAndAgreeOnTheMotion end
// 0.25 mm apart with implicit-cg without the forces, 2.6 mm with them.
TEST_F(ContactBackends, TheImplicitSolvesContactPairsAgree) {
  const ClothModel model = sheetOverPinnedSheet(0.01f);
  SolverParams params = contactParams(Integrator::ImplicitCg, 0.003f);
  params.iterations = SolverParams{}.iterations;
  params.colliders.clear();
  auto cpu = makeTestSolver(model, params, Backend::Cpu);
  auto gpu = makeTestSolver(model, params, Backend::Gpu);
  for (int f = 0; f < 31; ++f) {
    cpu->advance(1.f / 60.f, 8);
    gpu->advance(1.f / 60.f, 8);
  }
  std::vector<glm::vec4> xc, vc, xg, vg;
  cpu->readState(xc, vc);
  gpu->readState(xg, vg);
  const float difference = maxPositionDifference(xc, xg);
  RecordProperty("max_difference_m", std::to_string(difference * 1e9) + " nm");
  EXPECT_LT(difference, 2e-6f);
  EXPECT_NEAR(cpu->lastContactStats().minDistance, gpu->lastContactStats().minDistance, 1e-6f);
  EXPECT_GT(cpu->lastContactStats().minDistance, 0.0033f) << "held by the forces above the thickness";
}

INSTANTIATE_TEST_SUITE_P(Backends, ContactForcesFriction, ::testing::ValuesIn(allBackends()), backendParamName);

// Two equal 0.2 m sheets (12 x 12) dropped 2 cm apart onto the floor, corner over corner, under
// implicit-cg: after 4 s the upper one, held by the solve's contact forces, must be at rest (no vertex
// moving 1e-5 m in a frame) with no crossing. A vertex of the upper sheet has about 24
// vertex-triangle and 62 edge-edge pairs within the radius, at nearly one distance; it keeps 8
// (contactKeepRank). Kept by their exact distances, the 8 changed from step to step, and the upper
// sheet bounced by about 1 mm a frame forever (1.2 mm in the last frames, CPU). Measured now: under
// 6e-6 m.
class ContactLayersTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

TEST_P(ContactLayersTest, ASheetOnAnEqualSheetOnTheFloorComesToRest) {
  ClothModel model = grid(12, 12, {0.2f, 0.2f}, {-0.1f, 0.02f, -0.1f}, GridPlane::Horizontal);
  appendCloth(model, grid(12, 12, {0.2f, 0.2f}, {-0.1f, 0.04f, -0.1f}, GridPlane::Horizontal));
  SolverParams params = contactParams(Integrator::ImplicitCg, 0.004f);
  params.iterations = SolverParams{}.iterations;
  params.contact.radius = 0.01f;
  auto settling = makeTestSolver(model, params, Backend::Cpu);
  for (int f = 0; f < 240; ++f) settling->advance(1.f / 60.f, 8);
  auto solver = continuedOn(GetParam(), std::move(settling), model, params);
  std::vector<glm::vec4> before, x, v;
  solver->readState(before, v);
  double moved = 0.0;
  for (int f = 0; f < 20; ++f) {
    solver->advance(1.f / 60.f, 8);
    solver->readState(x, v);
    for (size_t i = 0; i < x.size(); ++i) moved = std::max<double>(moved, glm::length(glm::vec3(x[i] - before[i])));
    before = x;
  }
  EXPECT_LT(moved, 1e-5) << "m in a frame: the upper sheet still moves";
  EXPECT_EQ(countCrossings(x, model.triangles), 0u);
  RecordProperty("moved_um", std::to_string(moved * 1e6));
}

// Two equal 0.2 m sheets (12 x 12) 2 cm apart over a sphere of 0.1 m (mu 0.5) on the floor, thickness
// 3 mm, under xpbd.
ClothModel twoSheetsOverASphere() {
  ClothModel model = grid(12, 12, {0.2f, 0.2f}, {-0.1f, 0.11f, -0.1f}, GridPlane::Horizontal);
  appendCloth(model, grid(12, 12, {0.2f, 0.2f}, {-0.1f, 0.13f, -0.1f}, GridPlane::Horizontal));
  return model;
}
SolverParams twoSheetsOverASphereParams() {
  SolverParams params = contactParams(Integrator::Xpbd, 0.003f);
  ColliderDesc sphere;
  sphere.kind = ColliderDesc::Kind::Sphere;
  sphere.radius = 0.1f;
  sphere.friction = 0.5f;
  params.colliders.push_back(sphere);
  return params;
}

// Two equal 0.2 m sheets (12 x 12) dropped 2 cm apart onto a sphere of 0.1 m (mu 0.5), cloth on
// cloth mu 0.3, under xpbd: the lower sheet carries the upper one's weight and friction, which reach
// it as moves of the contact pass after the step's collision, pressing it into the sphere and
// shoving it along. Its grip on the sphere (colliderGripMove) holds those shoves: from 1 s to 3 s
// the lower sheet's centre must move less than 0.5 mm, with no edge crossing a triangle in any
// frame. Measured: 0.076 mm (CPU), 0.047 mm (lavapipe). Without the grip the collision pushed the
// lower sheet back out along the normal only, the shoves stayed, and the two slid off the sphere
// together: the lower sheet's centre 2.0 mm (CPU) and 1.8 mm (lavapipe) in those 2 s, 4 cm by 8 s.
// The upper sheet still creeps on the lower while it settles (1.9 and 1.7 mm in those 2 s, about
// as much without the grip): it must stay within 3 mm (docs/contact.md).
TEST_P(ContactLayersTest, TwoSheetsOnASphereStayOnIt) {
  const ClothModel model = twoSheetsOverASphere();
  auto solver = makeTestSolver(model, twoSheetsOverASphereParams(), GetParam());
  auto centres = [&] {
    std::vector<glm::vec4> x, v;
    solver->readState(x, v);
    std::array<glm::dvec3, 2> centre{};
    for (size_t i = 0; i < x.size(); ++i) centre[i / 144] += glm::dvec3(glm::vec3(x[i])) / 144.0;
    return centre;
  };
  const Watch settling = watch(*solver, model, 60, 8);
  const std::array<glm::dvec3, 2> before = centres();
  const Watch resting = watch(*solver, model, 120, 8);
  const std::array<glm::dvec3, 2> after = centres();
  const double lower = glm::length(after[0] - before[0]), upper = glm::length(after[1] - before[1]);
  EXPECT_EQ(settling.worstCrossings, 0u);
  EXPECT_EQ(resting.worstCrossings, 0u);
  EXPECT_LT(lower, 0.5e-3) << "m: the lower sheet slides on the sphere";
  EXPECT_LT(upper, 3e-3) << "m: the upper sheet slides";
  RecordProperty("lower_mm", std::to_string(lower * 1e3));
  RecordProperty("upper_mm", std::to_string(upper * 1e3));
}

// A 12 x 12 sheet lying on the floor (at its margin, 5 mm) with an equal sheet 2 mm above it, inside
// the 3 mm thickness, under xpbd, one step: the pass holds the lower sheet where the floor holds it
// (restsOnCollider, contactPassCorner) and pushes the upper one by the whole of the missing
// millimetre, as far as its bound lets it (0.45 of the 2 mm gap a step). Every vertex of the lower
// sheet must end the step on the floor's margin, pushed by no pair, and the upper sheet must stand
// more than 0.9 of the thickness above it (2.9 mm measured), with no crossing. Before the hold the
// pass shared each push between the sheets by their masses: it pushed the lower sheet 0.5 mm into
// the floor (the next step's collision took it out again) and the upper one only 0.5 mm up.
TEST_P(ContactLayersTest, AClothRestingOnAColliderIsHeldAndTheLayerAboveTakesThePush) {
  const float margin = ColliderDesc{}.margin;
  ClothModel model = grid(12, 12, {0.2f, 0.2f}, {-0.1f, margin, -0.1f}, GridPlane::Horizontal);
  appendCloth(model, grid(12, 12, {0.2f, 0.2f}, {-0.1f, margin + 0.002f, -0.1f}, GridPlane::Horizontal));
  const float thickness = 0.003f;
  auto solver = makeTestSolver(model, contactParams(Integrator::Xpbd, thickness), GetParam());
  solver->advance(1.f / 480.f, 1);
  std::vector<glm::vec4> x, v;
  solver->readState(x, v);
  const std::vector<uint32_t> marks = solver->lastContactMarks();
  ASSERT_EQ(marks.size(), x.size());
  double lowest = 1.0, highest = 0.0, upperLowest = 1.0;
  size_t lowerPushed = 0, upperPushed = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const bool lower = i < 144;
    if (lower) {
      lowest = std::min<double>(lowest, x[i].y);
      highest = std::max<double>(highest, x[i].y);
    } else {
      upperLowest = std::min<double>(upperLowest, x[i].y);
    }
    if (marks[i] & WEFT_CONTACT_MARK_PUSHED) ++(lower ? lowerPushed : upperPushed);
  }
  EXPECT_NEAR(lowest, margin, 1e-6) << "m: the pass pushed the resting sheet into the floor";
  EXPECT_NEAR(highest, margin, 1e-6) << "m: the resting sheet left the floor";
  EXPECT_EQ(lowerPushed, 0u) << "vertices of the resting sheet pushed by a pair";
  EXPECT_GT(upperPushed, 100u) << "the upper sheet starts inside the thickness: the pass pushes it";
  EXPECT_GT(upperLowest - margin, 0.9 * thickness) << "m from the floor's margin to the upper sheet";
  EXPECT_EQ(countCrossings(x, model.triangles), 0u);
  RecordProperty("lowest_um_below_margin", std::to_string((margin - lowest) * 1e6));
}

// The two sheets of TwoSheetsOnASphereStayOnIt at 16 steps a frame: once they have settled (8 s),
// the largest move of any vertex in a frame over the next second, its median, must be under the
// resting-layers target of 1e-5 m, with no crossing. Measured 2.59 um on both backends. Before the
// pass held the sheet that rests on the sphere (above), the pass and the collision undid each other
// every step, and the corners shook by 0.16-0.27 mm a frame (the median) after 6 and 12 s of the
// same scene; while it held only what lay within a hundredth of the margin (restsOnCollider), the
// lower sheet lay over the sphere's curve just past that reach, the two sheets rocked at 140 Hz, and
// this read 39.9 um.
TEST_P(ContactLayersTest, TwoSheetsOnASphereComeToRest) {
  const ClothModel model = twoSheetsOverASphere();
  auto settled = makeTestSolver(model, twoSheetsOverASphereParams(), Backend::Cpu);
  const Watch settling = watch(*settled, model, 480, 16, 1.f / 60.f, false);
  auto solver = continuedOn(GetParam(), std::move(settled), model, twoSheetsOverASphereParams());
  std::vector<glm::vec4> before, x, v;
  solver->readState(before, v);
  std::vector<double> moves;
  for (int f = 0; f < 60; ++f) {
    solver->advance(1.f / 60.f, 16);
    solver->readState(x, v);
    double moved = 0.0;
    for (size_t i = 0; i < x.size(); ++i) moved = std::max<double>(moved, glm::length(glm::vec3(x[i] - before[i])));
    moves.push_back(moved);
    before = x;
  }
  std::nth_element(moves.begin(), moves.begin() + 30, moves.end());
  EXPECT_EQ(settling.worstCrossings, 0u);
  EXPECT_EQ(countCrossings(x, model.triangles), 0u);
  EXPECT_LT(moves[30], 1e-5) << "m a frame (median of the largest move): the sheets still shake";
  RecordProperty("median_move_um", std::to_string(moves[30] * 1e6));
}

INSTANTIATE_TEST_SUITE_P(Backends, ContactLayersTest, ::testing::ValuesIn(allBackends()), backendParamName);

INSTANTIATE_TEST_SUITE_P(ImplicitSolves, ContactForcesTest,
                         ::testing::Combine(::testing::ValuesIn(allBackends()),
                                            ::testing::Values(Integrator::ImplicitCg, Integrator::NonlinearCg)),
                         [](const ::testing::TestParamInfo<std::tuple<Backend, Integrator>>& info) {
                           return integratorCaseName(std::get<1>(info.param), std::get<0>(info.param));
                         });

}  // namespace
}  // namespace weft::test

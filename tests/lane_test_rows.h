#pragma once
// What the tests that hold a lane kernel to its scalar rows share: the bitwise comparison, spring
// tables (test_cg_product_lanes, test_newton_sweep_lanes) of the counts that make a kernel's groups
// uniform, mixed and partly empty, and a tally of which kinds of group a test met.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "shaders/shared.h"

namespace weft::integrators {

// Whether two arrays, or two values, hold the same bits (a -0 is not a +0, a NaN equals itself).
template <class T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}
template <class T>
bool sameBits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// n rows: most with 12 spring ends (a grid's inside), every 19th with 7 and every 23rd with none,
// to far ends anywhere in [0, n); each end's vec4 from block(rng).
struct LaneTestRows {
  std::vector<uint32_t> rows{0};
  std::vector<gpu::SpringEntry> entries;
  std::vector<glm::vec4> blocks;
};

inline bool laneTestRowIsEmpty(uint32_t i) { return i % 23 == 5; }

template <class Block>
LaneTestRows laneTestRows(uint32_t n, std::mt19937& rng, Block block) {
  std::uniform_int_distribution<uint32_t> other(0, n - 1);
  LaneTestRows t;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t ends = laneTestRowIsEmpty(i) ? 0 : i % 19 == 3 ? 7 : 12;
    for (uint32_t k = 0; k < ends; ++k) {
      t.entries.push_back({other(rng), 0.f, 0.f, 0.f});
      t.blocks.push_back(block(rng));
    }
    t.rows.push_back(static_cast<uint32_t>(t.entries.size()));
  }
  return t;
}

// How many groups of each kind a test ran: all rows with as many ends, mixed, and with an empty row.
struct GroupKinds {
  int uniform = 0, mixed = 0, withEmptyRow = 0;
  void add(const std::vector<uint32_t>& rows, uint32_t first, int width) {
    bool same = true, empty = false;
    for (int l = 0; l < width; ++l) {
      same = same && rows[first + l + 1] - rows[first + l] == rows[first + 1] - rows[first];
      empty = empty || rows[first + l + 1] == rows[first + l];
    }
    (same ? uniform : mixed) += 1;
    withEmptyRow += empty ? 1 : 0;
  }
};

inline bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// n particles within `spread` of (0, 1, 0) with random velocities, for kernels that gather both:
// from the second in every seven pinned, from the fourth an x of -0 and a velocity along z of
// `velocityZ`, from the sixth a NaN inverse mass.
struct LaneTestParticles {
  std::vector<glm::vec4> positions, velocities;
};

inline LaneTestParticles laneTestParticles(size_t n, float spread, float velocityZ, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  LaneTestParticles p;
  for (size_t i = 0; i < n; ++i) {
    glm::vec4 x(spread * u(rng), 1.f + spread * u(rng), spread * u(rng), 1.f + u(rng));
    glm::vec4 v(u(rng), u(rng), u(rng), u(rng));
    switch (i % 7) {
      case 1: x.w = 0.f; break;                   // pinned
      case 3: x.x = -0.f, v.z = velocityZ; break;  // a negative zero
      case 5: x.w = std::nanf(""); break;         // no inverse mass to speak of
      default: break;
    }
    p.positions.push_back(x);
    p.velocities.push_back(v);
  }
  return p;
}

}  // namespace weft::integrators

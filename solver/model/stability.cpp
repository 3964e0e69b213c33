#include "solver/model/stability.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <glm/glm.hpp>

#include "solver/model/cloth_model.h"

namespace weft {

namespace {

// The largest eigenvalue of M^-1/2 A M^-1/2, A the springs' axial blocks weight (s) n n^T at the
// rest positions (plus `diagonal` / m on each free particle), estimated by the Rayleigh quotient
// after `iterations` power steps from a fixed rough start, which holds every high mode.
double largestMode(const ClothModel& model, const std::vector<double>& weight, double diagonal, int iterations) {
  const size_t n = model.particleCount();
  std::vector<double> w(n), x(3 * n), y(3 * n);
  for (size_t i = 0; i < n; ++i) w[i] = model.inverseMass(i);
  uint32_t state = 12345u;
  for (size_t k = 0; k < 3 * n; ++k) {
    state = state * 1664525u + 1013904223u;  // a fixed pseudo-random start, every component its own sign
    x[k] = w[k / 3] > 0.0 ? double(state >> 8) / double(1u << 24) - 0.5 : 0.0;
  }
  auto apply = [&](const std::vector<double>& in, std::vector<double>& out) {
    for (size_t k = 0; k < 3 * n; ++k) out[k] = diagonal * w[k / 3] * in[k];
    for (size_t e = 0; e < model.springs.size(); ++e) {
      const Spring& s = model.springs[e];
      const glm::dvec3 d = glm::dvec3(model.positions[s.a]) - glm::dvec3(model.positions[s.b]);
      const double len = glm::length(d);
      if (!(len > 0.0) || weight[e] == 0.0) continue;
      const glm::dvec3 u = d / len;
      const double ra = std::sqrt(w[s.a]), rb = std::sqrt(w[s.b]);  // M^-1/2 on each end
      const double along = weight[e] * (ra * glm::dot(u, glm::dvec3(in[3 * s.a], in[3 * s.a + 1], in[3 * s.a + 2])) -
                                        rb * glm::dot(u, glm::dvec3(in[3 * s.b], in[3 * s.b + 1], in[3 * s.b + 2])));
      for (int c = 0; c < 3; ++c) {
        out[3 * s.a + c] += ra * along * u[c];
        out[3 * s.b + c] -= rb * along * u[c];
      }
    }
  };
  double rayleigh = 0.0;
  for (int it = 0; it < iterations; ++it) {
    double norm = 0.0;
    for (double v : x) norm += v * v;
    if (!(norm > 0.0)) return 0.0;
    for (double& v : x) v /= std::sqrt(norm);
    apply(x, y);
    rayleigh = 0.0;
    for (size_t k = 0; k < 3 * n; ++k) rayleigh += x[k] * y[k];
    x.swap(y);
  }
  return rayleigh;
}

}  // namespace

ModeBounds springModeBounds(const ClothModel& model, float airDrag) {
  const size_t n = model.particleCount();
  // Each free particle's Gershgorin row of the mass-scaled matrices: its own block's norm
  // (sum of k / m_i) plus its neighbours' (sum of k / sqrt(m_i m_j), free neighbours only).
  std::vector<double> stiffRow(n, 0.0), dampRow(n, 0.0);
  double perStiffness = std::numeric_limits<double>::infinity();
  for (const Spring& s : model.springs) {
    const double wa = model.inverseMass(s.a), wb = model.inverseMass(s.b);
    const double across = std::sqrt(wa * wb);
    stiffRow[s.a] += s.stiffness * (wa + across);
    stiffRow[s.b] += s.stiffness * (wb + across);
    dampRow[s.a] += s.damping * (wa + across);
    dampRow[s.b] += s.damping * (wb + across);
    if (s.stiffness > 0.f && (wa > 0.0 || wb > 0.0)) perStiffness = std::min(perStiffness, double(s.damping) / s.stiffness);
  }
  ModeBounds bounds;
  double omega2 = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const double w = model.inverseMass(i);
    if (w == 0.0) continue;
    omega2 = std::max(omega2, stiffRow[i]);
    bounds.gamma = std::max(bounds.gamma, dampRow[i] + double(airDrag) * w);
  }
  // Gershgorin's bound holds every mode but overstates a grid's fastest by up to about 1.4 in omega
  // (its lighter edges' rows); the power estimate, taken a tenth above (it converges from below),
  // is what the step limits use when it is the smaller.
  std::vector<double> stiffness(model.springs.size()), damping(model.springs.size());
  for (size_t e = 0; e < model.springs.size(); ++e)
    stiffness[e] = model.springs[e].stiffness, damping[e] = model.springs[e].damping;
  constexpr int kPowerSteps = 60;
  constexpr double kMargin = 1.1;
  omega2 = std::min(omega2, kMargin * largestMode(model, stiffness, 0.0, kPowerSteps));
  bounds.gamma = std::min(bounds.gamma, kMargin * largestMode(model, damping, airDrag, kPowerSteps));
  bounds.omega = std::sqrt(omega2);
  bounds.dampingPerStiffness = perStiffness;
  bounds.elements = model.elements.size();
  return bounds;
}

int substepsWithin(double frameDt, double stableStep) {
  if (!(stableStep > 0.0)) return 0;
  if (std::isinf(stableStep)) return 1;
  const double steps = std::ceil(frameDt / stableStep);
  return steps >= double(std::numeric_limits<int>::max()) ? std::numeric_limits<int>::max()
                                                          : std::max(1, static_cast<int>(steps));
}

}  // namespace weft

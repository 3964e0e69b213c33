#include "demos/weft/run_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/error.h"

namespace weft {

StateSummary summarizeState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities,
                            const std::vector<float>& masses, size_t first, size_t count) {
  StateSummary s;
  const size_t end = count == 0 ? positions.size() : first + count;
  if (first >= end) return s;
  s.min = s.max = glm::vec3(positions[first]);
  for (size_t i = first; i < end; ++i) {
    glm::vec3 x(positions[i]), v(velocities[i]);
    for (int k = 0; k < 3; ++k)
      if (!std::isfinite(x[k]) || !std::isfinite(v[k])) s.finite = false;
    s.min = glm::min(s.min, x);
    s.max = glm::max(s.max, x);
    if (positions[i].w > 0.f) s.kineticEnergy += 0.5 * masses[i] * glm::dot(v, v);
  }
  return s;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

void RestReport::add(const std::vector<glm::vec4>& before, const std::vector<glm::vec4>& after) {
  if (before.size() != after.size()) return;  // torn: the particles were renumbered
  double most = 0.0;
  uint32_t mover = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    if (!(after[i].w > 0.f)) continue;
    const glm::dvec3 step = glm::dvec3(glm::vec3(after[i])) - glm::dvec3(glm::vec3(before[i]));
    const double moved = std::sqrt(glm::dot(step, step));
    if (moved > most) {
      most = moved;
      mover = static_cast<uint32_t>(i);
    }
  }
  moves.push_back(most);
  movers.push_back(mover);
  while (moves.size() > window) {
    moves.pop_front();
    movers.pop_front();
  }
}

double RestReport::median() const { return weft::median(std::vector<double>(moves.begin(), moves.end())); }

double RestReport::percentile90() const {
  if (moves.empty()) return 0.0;
  std::vector<double> sorted(moves.begin(), moves.end());
  std::sort(sorted.begin(), sorted.end());
  const size_t rank = static_cast<size_t>(std::ceil(0.9 * double(sorted.size())));
  return sorted[std::max<size_t>(rank, 1) - 1];
}

size_t RestReport::largest() const {
  size_t at = 0;
  for (size_t k = 1; k < moves.size(); ++k)
    if (moves[k] >= moves[at]) at = k;
  return at;
}

void ContactReport::add(const ContactStats& stats, double findMs, double resolveMs, int substeps) {
  contactVertices += stats.contactVertices;
  limitedVertices += stats.limitedVertices;
  nearVertices += stats.nearVertices;
  crowdedVertices += stats.crowdedVertices;
  searchSteps += stats.searchSteps;
  unstoredSteps += stats.unstoredSteps;
  minDistance = framesAdded == 0 ? stats.minDistance : std::min<double>(minDistance, stats.minDistance);
  ++framesAdded;
  msPerStep.push_back((findMs + resolveMs) / substeps);
  findMsPerStep.push_back(findMs / substeps);
  resolveMsPerStep.push_back(resolveMs / substeps);
}

std::string summaryLine(const RunReport& r) {
  char buffer[512];
  std::string gpu = r.gpuMsPerStep.empty() ? "" : ", GPU " + std::to_string(median(r.gpuMsPerStep)).substr(0, 6) + " ms";
  char stretchText[64] = "";
  if (r.stretch.springs > 0 && r.final.finite)
    std::snprintf(stretchText, sizeof stretchText, " | stretch %.2f %% mean, %.1f %% max", 100.0 * r.stretch.mean,
                  100.0 * r.stretch.max);
  std::string stretch = stretchText;
  if (!stretch.empty() && r.worstStretch.maxFrame > 0) {
    char worstText[96];  // the worst frames', which a cloth that swung taut and recovered hides at the end
    std::snprintf(worstText, sizeof worstText, " (worst %.2f %% at frame %d, %.1f %% at frame %d)",
                  100.0 * r.worstStretch.mean, r.worstStretch.meanFrame, 100.0 * r.worstStretch.max,
                  r.worstStretch.maxFrame);
    stretch += worstText;
  }
  if (r.contact.on && r.contact.framesAdded > 0) {
    char contactText[128];
    std::snprintf(contactText, sizeof contactText, " | contact %.2f mm nearest, %.3f ms/step (find %.3f, resolve %.3f)",
                  1e3 * r.contact.minDistance, median(r.contact.msPerStep), median(r.contact.findMsPerStep),
                  median(r.contact.resolveMsPerStep));  // the counts are in the stats file
    stretch += contactText;
    // Steps the device could not store their live pairs for: slower steps, and the reason, in the
    // line a user reads (ContactStats::unstoredSteps).
    if (r.contact.unstoredSteps > 0) {
      std::snprintf(contactText, sizeof contactText, ", %llu steps past the device's room for pairs",
                    static_cast<unsigned long long>(r.contact.unstoredSteps));
      stretch += contactText;
    }
  }
  if (!r.rest.moves.empty() && r.final.finite) {
    // The last second's median of each frame's largest move: whether the cloth came to rest.
    char restText[64];
    std::snprintf(restText, sizeof restText, " | rest %.4g mm/frame", 1e3 * r.rest.median());
    stretch += restText;
  }
  // The integrator, and the preconditioner where it is not the default.
  const std::string method = r.integrator + (r.preconditioner == "two-level" ? " (two-level)" : "");
  std::snprintf(buffer, sizeof buffer,
                "weft: %s | %s | %s %s | %zu particles, %zu springs | %d frames x %d substeps | %.4f ms/step%s | "
                "KE %.4g J%s%s%s",
                r.scene.c_str(), r.device.c_str(), r.backend.c_str(), method.c_str(), r.particles, r.springs,
                r.frames, r.substeps, median(r.wallMsPerStep), gpu.c_str(), r.final.kineticEnergy, stretch.c_str(),
                r.nonFinite ? " | NON-FINITE" : (r.explosionStep >= 0 ? " | EXPLODED" : ""),
                r.failure.empty() ? "" : " | STEP FAILED");
  return buffer;
}

namespace {

nlohmann::ordered_json stepJson(const SolveStats& s) {
  return {{"iterations", s.iterations}, {"residual", s.residual}, {"converged", s.converged}, {"dt", s.dt}};
}

nlohmann::ordered_json loggedJson(const LoggedSolve& logged) {
  nlohmann::ordered_json j = {{"step", logged.step}};
  j.update(stepJson(logged.stats));
  return j;
}

// The solve log's summary, of a size that does not grow with the run; every step only when kept.
nlohmann::ordered_json solveJson(const SolveLog& log) {
  nlohmann::ordered_json histogram = nlohmann::ordered_json::array();
  for (const auto& [iterations, solves] : log.iterationHistogram())
    histogram.push_back({{"iterations", iterations}, {"solves", solves}});
  nlohmann::ordered_json first = nlohmann::ordered_json::array(), last = nlohmann::ordered_json::array();
  for (const LoggedSolve& s : log.first()) first.push_back(loggedJson(s));
  for (const LoggedSolve& s : log.last()) last.push_back(loggedJson(s));
  nlohmann::ordered_json j = {{"solves", log.count()},
                              {"medianIterations", log.medianIterations()},
                              {"maxIterations", log.maxIterations()},
                              {"maxResidual", log.maxResidual()},
                              {"unconvergedSteps", log.unconverged()},
                              {"minDt", log.minDt()},
                              {"maxDt", log.maxDt()},
                              {"iterationHistogram", histogram},
                              {"firstSteps", first},
                              {"lastSteps", last}};
  if (log.keepsAll()) {
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const SolveStats& s : log.all()) steps.push_back(stepJson(s));
    j["steps"] = steps;
  }
  return j;
}

}  // namespace

void writeStatsJson(const RunReport& r, const std::string& path) {
  nlohmann::ordered_json j;
  j["scene"] = r.scene;
  j["device"] = r.device;
  j["backend"] = r.backend;
  j["integrator"] = r.integrator;
  j["particles"] = r.particles;
  j["gridWidth"] = r.gridWidth > 0 ? nlohmann::ordered_json(r.gridWidth) : nullptr;
  j["gridHeight"] = r.gridHeight > 0 ? nlohmann::ordered_json(r.gridHeight) : nullptr;
  j["springs"] = r.springs;
  j["triangles"] = r.triangles;
  j["frames"] = r.frames;
  j["substeps"] = r.substeps;
  j["steps"] = r.steps;
  j["iterations"] = r.iterations;
  j["preconditioner"] = r.preconditioner.empty() ? nullptr : nlohmann::ordered_json(r.preconditioner);
  j["frameDt"] = r.frameDt;
  j["dt"] = r.stepDt;
  j["stableStep"] = std::isfinite(r.stableStep) ? nlohmann::ordered_json(r.stableStep) : nullptr;
  j["medianWallMsPerStep"] = median(r.wallMsPerStep);
  if (!r.gpuMsPerStep.empty()) {
    j["medianGpuMsPerStep"] = median(r.gpuMsPerStep);
    nlohmann::ordered_json passes = nlohmann::ordered_json::object();
    for (const auto& [name, samples] : r.passMsPerStep) passes[name] = median(samples);
    j["medianGpuMsPerStepByPass"] = passes;
  } else {
    j["medianGpuMsPerStep"] = nullptr;
  }
  if (!r.solves.empty()) j["solve"] = solveJson(r.solves);
  j["finalKineticEnergy"] = r.final.finite ? nlohmann::ordered_json(r.final.kineticEnergy) : nullptr;
  j["finalStretch"] = r.final.finite && r.stretch.springs > 0
                          ? nlohmann::ordered_json{{"mean", r.stretch.mean}, {"max", r.stretch.max}, {"springs", r.stretch.springs}}
                          : nlohmann::ordered_json(nullptr);
  j["worstStretch"] = r.worstStretch.maxFrame > 0 ? nlohmann::ordered_json{{"mean", r.worstStretch.mean},
                                                                             {"meanFrame", r.worstStretch.meanFrame},
                                                                             {"max", r.worstStretch.max},
                                                                             {"maxFrame", r.worstStretch.maxFrame}}
                                                  : nlohmann::ordered_json(nullptr);
  if (r.contact.on && r.contact.framesAdded > 0)
    j["contact"] = {{"minDistance", r.contact.minDistance},
                    {"nearVertices", r.contact.nearVertices},
                    {"contactVertices", r.contact.contactVertices},
                    {"limitedVertices", r.contact.limitedVertices},
                    {"crowdedVertices", r.contact.crowdedVertices},
                    {"searchSteps", r.contact.searchSteps},
                    {"unstoredSteps", r.contact.unstoredSteps},
                    {"medianMsPerStep", median(r.contact.msPerStep)},
                    {"medianFindMsPerStep", median(r.contact.findMsPerStep)},
                    {"medianResolveMsPerStep", median(r.contact.resolveMsPerStep)}};
  else
    j["contact"] = nullptr;
  if (!r.rest.moves.empty())
    j["rest"] = {{"frames", r.rest.moves.size()},
                 {"medianMaxMove", r.rest.median()},
                 {"p90MaxMove", r.rest.percentile90()},
                 {"maxMove", r.rest.moves[r.rest.largest()]},
                 {"maxMoveParticle", r.rest.movers[r.rest.largest()]}};
  else
    j["rest"] = nullptr;
  auto vec = [](glm::vec3 v) {
    return std::isfinite(v.x + v.y + v.z) ? nlohmann::ordered_json{v.x, v.y, v.z} : nlohmann::ordered_json(nullptr);
  };
  if (r.tears >= 0)
    j["tearing"] = {{"tears", r.tears},
                    {"finalParticles", r.finalParticles},
                    {"finalSprings", r.finalSprings},
                    {"finalTriangles", r.finalTriangles}};
  else
    j["tearing"] = nullptr;
  j["positionMin"] = vec(r.final.min);
  j["positionMax"] = vec(r.final.max);
  if (!r.cloths.empty()) {
    nlohmann::ordered_json cloths = nlohmann::ordered_json::array();
    for (const auto& [name, s] : r.cloths)
      cloths.push_back({{"name", name},
                        {"finalKineticEnergy", s.finite ? nlohmann::ordered_json(s.kineticEnergy) : nullptr},
                        {"positionMin", vec(s.min)},
                        {"positionMax", vec(s.max)}});
    j["cloths"] = cloths;
  }
  j["nonFinite"] = r.nonFinite;
  j["nonFiniteStep"] = r.nonFinite ? nlohmann::ordered_json(r.nonFiniteStep) : nullptr;
  j["explosionStep"] = r.explosionStep >= 0 ? nlohmann::ordered_json(r.explosionStep) : nullptr;
  j["halvings"] = r.halvings;
  j["failure"] = r.failure.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.failure);

  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw InputError("cannot write stats file '" + path + "'");
    out << j.dump(2) << "\n";
    if (!out) throw InputError("cannot write stats file '" + path + "'");
  }
  std::error_code error;
  std::filesystem::rename(tmp, path, error);
  if (error) {
    std::filesystem::remove(tmp, error);
    throw InputError("cannot write stats file '" + path + "'");
  }
}

}  // namespace weft

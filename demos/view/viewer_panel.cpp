// The viewer's ImGui panel (simulation control, live parameters, replay controls, timings) and the
// label over each pane.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "demos/view/viewer.h"
#include "solver/gpu/gpu_solver.h"

namespace weft {
namespace {
constexpr const char* kPinLabels[] = {"scene", "none", "1", "2", "3", "4"};

// Solver time of a frame: every pass but the viewer's own (normals, draw).
double solverMs(const std::vector<std::pair<std::string, double>>& passes) {
  double ms = 0.0;
  for (const auto& [name, t] : passes)
    if (name.rfind("view.", 0) != 0) ms += t;
  return ms;
}

bool integratorCombo(const char* label, Integrator& integrator) {
  bool changed = false;
  if (ImGui::BeginCombo(label, integratorName(integrator))) {
    for (const std::string& name : integratorNames()) {
      const Integrator candidate = parseIntegrator(name);
      if (ImGui::Selectable(name.c_str(), candidate == integrator) && candidate != integrator) {
        integrator = candidate;
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}
}  // namespace

std::string Viewer::paneTitle(size_t p) const {
  const Pane& pane = panes_[p];
  char text[160];
  if (!pane.sim) {
    std::snprintf(text, sizeof text, "replay  frame %u / %u", replayFrame_ + 1, clock_->frameCount());
    return text;
  }
  const SolverSettings& s = pane.sim->scene().solver;
  const double perFrame = solverMs(pane.history.medianPasses());
  std::snprintf(text, sizeof text, "%s x%d  %.3f ms/step, %.2f ms/frame (%s)", integratorName(s.integrator),
                s.substeps, perFrame / std::max(s.substeps, 1), perFrame, backendName(pane.sim->backend()));
  return text;
}

void Viewer::drawPaneLabels() {
  if (panes_.size() < 2 && showPanel_) return;  // the panel says it all for a single pane
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoInputs;
  for (size_t p = 0; p < panes_.size(); ++p) {
    const glm::vec4 r = paneRect(p);
    ImGui::SetNextWindowPos(ImVec2(r.x + 0.5f * r.z, r.y + 10.f), ImGuiCond_Always, ImVec2(0.5f, 0.f));
    ImGui::SetNextWindowBgAlpha(0.65f);
    const std::string id = "##pane" + std::to_string(p);
    ImGui::Begin(id.c_str(), nullptr, flags);
    ImGui::TextUnformatted(paneTitle(p).c_str());
    ImGui::End();
  }
}

void Viewer::drawPanel() {
  ImGui::SetNextWindowPos(ImVec2(10.f, 10.f), ImGuiCond_FirstUseEver);
  // As tall as its contents, but never past the window's bottom edge (it scrolls instead).
  const float maxHeight = std::max(paneRect(0).w - 20.f, 100.f);
  ImGui::SetNextWindowSizeConstraints(ImVec2(kPanelWidth, 0.f), ImVec2(kPanelWidth, maxHeight));
  ImGui::Begin("weft", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::Text("%s (%s)", context_.deviceName().c_str(), context_.deviceType().c_str());
  ImGui::Text("%ux MSAA, %u x %u", static_cast<unsigned>(swapchain_.samples()), swapchain_.extent().width,
              swapchain_.extent().height);
  if (replaying()) {
    drawReplayControls();
  } else {
    const ClothModel& cloth = panes_[0].sim->scene().cloth;
    if (cloth.gridWidth)
      ImGui::Text("%zu particles, grid %u x %u", cloth.particleCount(), cloth.gridWidth, cloth.gridHeight);
    else
      ImGui::Text("%zu particles, %zu triangles", cloth.particleCount(), cloth.triangles.size());
    if (!content_.gridNote.empty()) ImGui::TextWrapped("%s", content_.gridNote.c_str());
    drawSimulationControls();
    drawParameters();
  }
  drawTimings();
  ImGui::Separator();
  if (ImGui::BeginCombo("draw (W)", drawModeName(drawMode_))) {
    for (int m = 0; m < kDrawModeCount; ++m) {
      const DrawMode mode = static_cast<DrawMode>(m);
      if (ImGui::Selectable(drawModeName(mode), mode == drawMode_)) drawMode_ = mode;
    }
    ImGui::EndCombo();
  }
  if (drawMode_ == DrawMode::Contacts) drawContactLegend();
  if (!status_.empty()) ImGui::TextWrapped("%s", status_.c_str());
  ImGui::TextDisabled("drag: orbit or grab  shift: pan  wheel: zoom\nP: screenshot  H: hide panel  Esc: quit");
  ImGui::End();
}

void Viewer::drawSimulationControls() {
  if (ImGui::Button(running_ ? "pause (space)" : "start (space)")) running_ = !running_;
  ImGui::SameLine();
  if (ImGui::Button("step (N)")) {
    running_ = false;
    stepOnce_ = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("reset (R)")) reset();
  if (panes_.size() == 1) {
    ImGui::SameLine();
    if (!recorder_ && ImGui::Button("record")) startRecording();
    if (recorder_ && ImGui::Button("stop")) stopRecording();
    if (recorder_) ImGui::Text("recording: %u frames", recorder_->frameCount());
  }
}

void Viewer::drawParameters() {
  LiveSimulation& first = *panes_[0].sim;
  auto forEachSim = [&](auto&& edit) {
    context_.vk().DeviceWaitIdle(context_.device());  // a rebuild frees buffers the frames in flight use
    drag_ = drag_ == Drag::Grab ? Drag::None : drag_;
    for (Pane& pane : panes_) {
      edit(*pane.sim);
      pane.history.clear();  // timings of the old set-up would mislead
    }
  };

  if (ImGui::CollapsingHeader("integrator", ImGuiTreeNodeFlags_DefaultOpen)) {
    for (size_t p = 0; p < panes_.size(); ++p) {
      Integrator integrator = panes_[p].sim->scene().solver.integrator;
      const char* label = panes_.size() == 1 ? "integrator" : (p == 0 ? "left" : "right");
      if (integratorCombo(label, integrator)) {
        context_.vk().DeviceWaitIdle(context_.device());
        if (drag_ == Drag::Grab) drag_ = Drag::None;
        panes_[p].sim->setIntegrator(integrator);
        panes_[p].history.clear();
      }
    }
    SolverSettings s = first.scene().solver;
    Environment env = first.scene().environment;
    bool changed = false;
    float dtMs = s.dt * 1000.f;
    if (ImGui::SliderFloat("dt (ms/frame)", &dtMs, 1.f, 50.f, "%.2f")) {
      s.dt = dtMs / 1000.f;
      changed = true;
    }
    // Substeps are each pane's own: side by side, an explicit integrator may need many more.
    std::vector<int> substeps;
    for (const Pane& pane : panes_) substeps.push_back(pane.sim->scene().solver.substeps);
    for (size_t p = 0; p < panes_.size(); ++p) {
      const char* label = panes_.size() == 1 ? "substeps" : (p == 0 ? "left substeps" : "right substeps");
      changed |= ImGui::SliderInt(label, &substeps[p], 1, 256, "%d", ImGuiSliderFlags_Logarithmic);
      // An explicit integrator past its stable step on these springs will explode: say so where
      // the substeps are chosen. The slider drags to 256; ctrl+click types any count.
      if (const std::string note = stepLimitNote(panes_[p].sim->stepLimit()); !note.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.f, 0.75f, 0.2f, 1.f));
        ImGui::TextWrapped("%s; ctrl+click the slider to type a count", note.c_str());
        ImGui::PopStyleColor();
      }
    }
    changed |= ImGui::SliderInt("iterations", &s.iterations, 1, 100);
    changed |= ImGui::SliderFloat("tolerance", &s.tolerance, 1e-6f, 1e-1f, "%.1e", ImGuiSliderFlags_Logarithmic);
    changed |= ImGui::SliderInt("max iterations", &s.maxIterations, 1, 2000, "%d", ImGuiSliderFlags_Logarithmic);
    if (ImGui::CollapsingHeader("environment")) {
      changed |= ImGui::DragFloat3("gravity", &env.gravity.x, 0.05f, -50.f, 50.f, "%.2f");
      changed |= ImGui::DragFloat3("wind", &env.wind.x, 0.05f, -50.f, 50.f, "%.2f");
      changed |= ImGui::SliderFloat("drag", &env.airDrag, 0.f, 0.1f, "%.5f", ImGuiSliderFlags_Logarithmic);
    }
    if (changed) {
      s.iterations = std::max(s.iterations, 1);
      s.maxIterations = std::max(s.maxIterations, 1);
      for (size_t p = 0; p < panes_.size(); ++p) {
        s.substeps = std::clamp(substeps[p], 1, kMaxSubsteps);  // ctrl+click may type any count
        panes_[p].sim->setSettings(s, env);
      }
    }
  }

  if (ImGui::CollapsingHeader("springs")) {
    // Edited freely, applied when the slider is let go: a change rebuilds the solver.
    SpringMaterial& editing = editingMaterial_;
    if (!editingMaterialActive_) editing = first.material();
    bool done = false, active = false;
    auto slider = [&](const char* label, float& value, float lo, float hi) {
      ImGui::SliderFloat(label, &value, lo, hi, "%.4g", ImGuiSliderFlags_Logarithmic);
      active |= ImGui::IsItemActive();
      done |= ImGui::IsItemDeactivatedAfterEdit();
    };
    slider("structural (N/m)", editing.structural, 1.f, 1e6f);
    slider("shear (N/m)", editing.shear, 0.1f, 1e6f);
    slider("bend (N/m)", editing.bend, 0.01f, 1e5f);
    slider("damping (N s/m)", editing.damping, 1e-4f, 100.f);
    editingMaterialActive_ = active;
    if (done) forEachSim([&](LiveSimulation& sim) { sim.setMaterial(editing); });
  }

  if (ImGui::CollapsingHeader("pins", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (!first.canChoosePins()) ImGui::TextDisabled("corner presets need a grid cloth");
    const int current = static_cast<int>(first.pins());
    for (int choice = 0; choice < 6; ++choice) {
      if (choice > 0) ImGui::SameLine();
      const bool enabled = choice == 0 || first.canChoosePins();
      if (!enabled) continue;
      if (ImGui::RadioButton(kPinLabels[choice], current == choice) && current != choice)
        forEachSim([&](LiveSimulation& sim) { sim.setPins(static_cast<PinChoice>(choice)); });
    }
  }
  if (ImGui::CollapsingHeader("contact", ImGuiTreeNodeFlags_DefaultOpen)) {
    // Self-collision and cloth-cloth contact (docs/contact.md): toggling rebuilds each pane's solver.
    bool on = first.contact();
    if (ImGui::Checkbox("self-collision", &on)) {
      context_.vk().DeviceWaitIdle(context_.device());
      if (drag_ == Drag::Grab) drag_ = Drag::None;
      forEachSim([&](LiveSimulation& sim) { sim.setContact(on); });
    }
    if (on) {
      const ContactStats stats = first.solver().lastContactStats();
      ImGui::Text("nearest %.2f mm; %llu near, %llu pushed, %llu limited in the last frame", 1000.0 * stats.minDistance,
                  static_cast<unsigned long long>(stats.nearVertices), static_cast<unsigned long long>(stats.contactVertices),
                  static_cast<unsigned long long>(stats.limitedVertices));
    }
  }
}

void Viewer::drawContactLegend() const {
  if (replaying()) {
    ImGui::TextDisabled("a recording holds positions only: no contacts to mark");
    return;
  }
  if (!panes_.front().sim->contact()) {
    ImGui::TextDisabled("self-collision is off: no contacts to mark");
    return;
  }
  ImGui::TextDisabled("particles in the last frame, strongest last:");
  for (const ContactMarkKey& key : contactMarkKeys()) {
    ImGui::ColorButton(key.meaning, ImVec4(key.color.r, key.color.g, key.color.b, 1.f),
                       ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoDragDrop, ImVec2(10.f, 10.f));
    ImGui::SameLine();
    ImGui::TextUnformatted(key.meaning);
  }
}

void Viewer::drawReplayControls() {
  ReplayClock& clock = *clock_;
  const RecordingHeader& h = content_.recording->header();
  ImGui::Text("%u particles, %u frames of %.4g s", h.particleCount, h.frameCount, h.frameDt);
  if (ImGui::Button(clock.playing() ? "pause (space)" : "play (space)")) clock.toggle();
  ImGui::SameLine();
  if (ImGui::Button("<")) clock.step(-1);
  ImGui::SameLine();
  if (ImGui::Button(">")) clock.step(1);
  ImGui::SameLine();
  if (ImGui::Button("restart (R)")) reset();
  int frame = static_cast<int>(clock.frame());
  if (ImGui::SliderInt("frame", &frame, 0, static_cast<int>(clock.frameCount()) - 1)) clock.scrub(uint32_t(frame));
  float speed = static_cast<float>(clock.speed());
  if (ImGui::SliderFloat("speed", &speed, 1.f / 16.f, 16.f, "%.3gx", ImGuiSliderFlags_Logarithmic))
    clock.setSpeed(speed);
  ImGui::Text("t = %.3f s of %.3f s", clock.time(), clock.duration());
}

void Viewer::drawTimings() {
  if (!ImGui::CollapsingHeader("timings", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const PerfHistory& first = panes_[0].history;
  const double frameMs = first.medianFrameMs();
  ImGui::Text("frame %.2f ms (%.0f fps), median of %zu", frameMs, frameMs > 0 ? 1000.0 / frameMs : 0.0, first.size());
  const std::vector<float> frames = first.frameTimes();
  if (!frames.empty())
    ImGui::PlotLines("##frame", frames.data(), int(frames.size()), 0, "frame ms", 0.f,
                     std::max(33.4f, *std::max_element(frames.begin(), frames.end())), ImVec2(kPanelWidth - 20.f, 50.f));
  for (size_t p = 0; p < panes_.size(); ++p) {
    const PerfHistory& history = panes_[p].history;
    if (panes_.size() > 1) ImGui::TextWrapped("%s", paneTitle(p).c_str());
    ImGui::Text("GPU %.3f ms per frame", history.medianGpuMs());
    const std::vector<float> gpu = history.gpuTimes();
    if (!gpu.empty()) {
      const std::string id = "##gpu" + std::to_string(p);
      ImGui::PlotLines(id.c_str(), gpu.data(), int(gpu.size()), 0, "GPU ms", 0.f,
                       std::max(1e-3f, *std::max_element(gpu.begin(), gpu.end())), ImVec2(kPanelWidth - 20.f, 40.f));
    }
    const std::string table = "passes" + std::to_string(p);
    if (ImGui::BeginTable(table.c_str(), 2, ImGuiTableFlags_SizingStretchProp)) {
      for (const auto& [name, ms] : history.medianPasses()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(name.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%.3f ms", ms);
      }
      ImGui::EndTable();
    }
  }
}

}  // namespace weft

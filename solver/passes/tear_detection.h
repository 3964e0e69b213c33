#pragma once
// Finding the springs past their breaking length (shaders/tearing.h) after a frame, on each backend:
// the CPU loop and the GPU pass (tear_detect.comp) side by side, as strain_limit.h does. Both give
// the model indices of the broken springs, ascending; the topology edit that follows is tearing.h's.
#include <vector>

#include "solver/backend/backend_state.h"

namespace weft {

inline bool hasTearing(const GpuState& state) { return static_cast<bool>(state.tearLimits); }

std::vector<uint32_t> detectTearsCpu(const SpringTable& springs, const std::vector<glm::vec4>& positions);

// Makes the detection kernel (not while recording). Needs state.tearLimits and state.tearList.
void prepareTearDetectionGpu(GpuState& state);
// Clears the list's count and appends every broken spring of state.positionsIn(); one dispatch,
// timed as "tear_detect".
void recordTearDetection(GpuRecorder& recorder, const gpu::StepParams& step);
// The list the last recorded detection wrote (after its submission finished), sorted.
std::vector<uint32_t> readTearList(const GpuState& state);

}  // namespace weft

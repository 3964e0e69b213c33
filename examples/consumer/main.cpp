// The smallest program against the installed package: a cloth held by two corners, stepped for a
// second on the CPU, with no Vulkan device at all.
#include <weft/weft.h>

#include <cstdio>

int main() {
  weft::Fabric sheet = weft::Fabric::grid({.width = 16, .height = 16});
  sheet.pinCorners(weft::Corners::Two);
  weft::CpuCloth cloth(sheet, weft::StepSettings{});
  for (int frame = 0; frame < 60; ++frame) cloth.step(1.f / 60.f, 8);
  std::vector<glm::vec4> positions, velocities;
  cloth.readState(positions, velocities);
  std::printf("weft %s: the far corner hangs at y = %.3f m\n", WEFT_VERSION_STRING, positions.back().y);
  return positions.back().y < -0.5f ? 0 : 1;  // a 1 m cloth held by one edge's ends hangs below -0.5 m
}

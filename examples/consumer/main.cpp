// The smallest program against the installed package: a cloth held by two corners, stepped on the
// CPU for a third of a second, with no Vulkan device at all.
#include <weft/weft.h>

#include <cstdio>

int main() {
  weft::Fabric sheet = weft::Fabric::grid({.width = 16, .height = 16});  // 1 m, horizontal, at y = 0
  sheet.pinCorners(weft::Corners::Two);  // the ends of the edge along x at z = 0
  weft::CpuCloth cloth(sheet, weft::StepSettings{});
  for (int frame = 0; frame < 20; ++frame) cloth.step(1.f / 60.f, 8);
  std::vector<glm::vec4> positions, velocities;
  cloth.readState(positions, velocities);
  // The free edge swings down like a pendulum hinged on the held edge: a third of a second in, it
  // has fallen past y = -0.3 m (a rigid plate would be at -0.6 m), and no edge has stretched much.
  const glm::vec3 far = positions.back(), held(1.f, 0.f, 0.f);
  const float reach = glm::length(far - held);
  std::printf("weft %s: the free corner is at y = %.3f m, %.3f m from its held corner\n", WEFT_VERSION_STRING, far.y,
              reach);
  return far.y < -0.3f && reach < 1.05f ? 0 : 1;
}

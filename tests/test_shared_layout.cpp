// shaders/shared.h is split by module (shaders/layout/): the binding numbers each module declares
// must stay unique across the solver's set, or two buffers of one pass would share a slot.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>

#include "shaders/shared.h"

namespace {

TEST(SharedLayout, BindingNumbersAreUnique) {
  const std::filesystem::path dir = std::filesystem::path(WEFT_SOURCE_DIR) / "shaders" / "layout";
  const std::regex binding(R"(^#define (WEFT_BIND_[A-Z0-9_]+) ([0-9]+)\b)");
  std::map<int, std::string> solver, render;
  size_t modules = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".h") continue;
    ++modules;
    std::ifstream in(entry.path());
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
      if (!std::regex_search(line, m, binding)) continue;
      const std::string name = m[1];
      const int number = std::stoi(m[2]);
      // The renderer's pipelines have a descriptor set of their own.
      auto& set = name.rfind("WEFT_BIND_RENDER_", 0) == 0 ? render : solver;
      const auto [at, added] = set.emplace(number, name);
      EXPECT_TRUE(added) << name << " and " << at->second << " both take binding " << number;
    }
  }
  EXPECT_EQ(modules, 7u) << "the modules of shaders/shared.h";
  // Spot checks that the parse read the numbers the compiler sees.
  EXPECT_EQ(solver.at(WEFT_BIND_POSITIONS), "WEFT_BIND_POSITIONS");
  EXPECT_EQ(solver.at(WEFT_BIND_CONTACT_LIVE_INCIDENCES), "WEFT_BIND_CONTACT_LIVE_INCIDENCES");
  EXPECT_EQ(solver.at(WEFT_BIND_NLCG_DIRECTION_V), "WEFT_BIND_NLCG_DIRECTION_V");
  EXPECT_EQ(render.at(WEFT_BIND_RENDER_CONTACT_MARKS), "WEFT_BIND_RENDER_CONTACT_MARKS");
  EXPECT_GE(solver.size(), 75u);
  EXPECT_EQ(render.size(), 6u);
}

}  // namespace

// libFuzzer harness for the scene reader: parseDemoScene (the cloth's keys and the demos' beside
// them, as the seeds in tests/fuzz/scene/ have) on any bytes must build a scene or refuse it with
// one readable sentence (an InputError). Another exception, a sanitizer report or a hang is a
// finding. Mesh paths resolve against tests/fuzz/obj/, whose seeds are OBJ files.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/error.h"
#include "demos/common/demo_scene.h"
#include "tests/fuzz/fuzz_message.h"

namespace {

// A grid of up to 4096 x 4096 particles is legal and takes seconds and gigabytes to build: not a
// finding, and it would stop the fuzzer at its time and memory limits. Such scenes are skipped.
bool hugeGrid(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("cloth") || !j["cloth"].is_object() || !j["cloth"].contains("grid")) return false;
  const nlohmann::json& grid = j["cloth"]["grid"];
  if (!grid.is_object()) return false;
  auto side = [&](const char* key) { return grid.contains(key) && grid[key].is_number() ? grid[key].get<double>() : 1.0; };
  return side("width") * side("height") > 65536.0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (hugeGrid(text)) return 0;
  try {
    weft::parseDemoScene(text, WEFT_FUZZ_MESH_DIR, "fuzz.json");
  } catch (const weft::InputError& e) {
    weft::fuzz::checkMessage(e.what());
  }
  return 0;
}

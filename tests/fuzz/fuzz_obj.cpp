// libFuzzer harness for the OBJ mesh reader: parseObjMesh (loadMesh after reading the file) on any
// bytes must build a cloth or refuse it with one readable sentence (an InputError).
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/error.h"
#include "solver/io/obj_mesh.h"
#include "solver/model/cloth_model.h"
#include "tests/fuzz/fuzz_message.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  weft::MeshSpec spec;
  spec.path = "fuzz.obj";
  try {
    weft::parseObjMesh(text, spec, weft::Material{});
  } catch (const weft::InputError& e) {
    weft::fuzz::checkMessage(e.what());
  }
  return 0;
}

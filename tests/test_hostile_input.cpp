// Hostile input to the readers: JSON nested 100000 deep, values a megabyte long or full of control
// bytes. Each is refused with one short sentence of printable text; nothing crashes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/error.h"
#include "input_error.h"
#include "solver/scene.h"

namespace weft {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using test::inputErrorOf;

// What every refusal must be: a sentence a person can read on a terminal, not a dump of the input.
void expectPlainSentence(const std::string& message) {
  EXPECT_LE(message.size(), 200u) << message.substr(0, 300);
  for (const char c : message) {
    ASSERT_TRUE(c >= 0x20 && c < 0x7f) << "byte " << int(static_cast<unsigned char>(c)) << " in: "
                                       << message.substr(0, 300);
  }
}

std::string sceneError(const std::string& json) {
  return inputErrorOf([&] { parseScene(json, "", "hostile.json"); });
}

std::string nested(const std::string& open, const std::string& inner, const std::string& close, int depth) {
  std::string text;
  text.reserve((open.size() + close.size()) * depth + inner.size());
  for (int i = 0; i < depth; ++i) text += open;
  text += inner;
  for (int i = 0; i < depth; ++i) text += close;
  return text;
}

TEST(HostileScene, NestingTensOfThousandsDeepIsRefusedInOneSentence) {
  const std::string arrays = nested("[", "", "]", 100000);
  const std::string objects = nested(R"({"a":)", "1", "}", 100000);
  for (const std::string& json : {
           arrays,                                                    // the whole file
           objects,                                                   // the whole file
           R"({"cloth": {"grid": {}}, "name": )" + arrays + "}",      // a known key's value
           R"({"cloth": )" + objects + "}",                           // a known section
           R"({"cloth": {"grid": {}}, "solver": {"dt": )" + arrays + "}}",
       }) {
    const std::string message = sceneError(json);
    EXPECT_THAT(message, HasSubstr("hostile.json: arrays and objects are nested more than 32 levels deep"));
    expectPlainSentence(message);
  }
  // through the file reader as well
  const fs::path path = fs::path(testing::TempDir()) / "weft_deep.json";
  std::ofstream(path) << R"({"cloth": {"grid": {}}, "name": )" + arrays + "}";
  EXPECT_THAT(inputErrorOf([&] { loadScene(path.string()); }), HasSubstr("weft_deep.json: arrays and objects"));
}

TEST(HostileScene, EchoedKeysAndValuesAreShortAndPrintable) {
  const std::string huge(100000, 'x');
  std::string manyItems = "1";
  for (int i = 0; i < 50000; ++i) manyItems += ", 1";
  struct Case {
    std::string json;
    std::string expected;
  };
  const Case cases[] = {
      {R"({")" + huge + R"(": 1})", "hostile.json: unknown key 'xxxxxxxx"},
      {R"({"cloth\u001b[31m": 1})", "unknown key 'cloth\\x1b[31m'"},
      {R"({"cloth": {"grid": {"plane": ")" + huge + R"("}}})", "cloth.grid.plane must be"},
      {R"({"cloth": {"grid": {"plane": "\u001b]0;title\u0007"}}})", "cloth.grid.plane must be"},
      {R"({"cloth": {"grid": {"width": ")" + std::string(30, 'a') + "\u00e9\u00e9\u00e9\u00e9\u00e9" + R"("}}})",
       "cloth.grid.width must be an integer >= 2"},
      {R"({"cloth": {"grid": {}}, "solver": {"integrator": ")" + huge + R"("}})", "unknown integrator 'xxxx"},
      {R"({"cloth": {"grid": {}}, "colliders": [{"type": ")" + huge + R"("}]})", "colliders[0].type must be"},
      {R"({"cloth": {"grid": {}}, "name": [)" + manyItems + "]}", "name must be a string (got [1, 1, 1"},
      // the parser's own message quotes the text it stopped at, however long and whatever its bytes
      {R"({"cloth": ")" + huge + "\x01\"}", "malformed JSON at line 1, column"},
      {"{\"cloth\": \"ab\xff\xfe\"}", "malformed JSON at line 1, column"},
      {R"({"cloth": {"grid": {}}, "solver": {"dt": 1)" + std::string(1000, '0') + "}}", "malformed JSON: number overflow"},
  };
  for (const Case& c : cases) {
    const std::string message = sceneError(c.json);
    EXPECT_THAT(message, HasSubstr(c.expected)) << c.json.substr(0, 80);
    expectPlainSentence(message);
  }
}

}  // namespace
}  // namespace weft

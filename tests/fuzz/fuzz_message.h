#pragma once
// What every reader promises when it refuses input: an InputError whose message is one sentence a
// person can read on a terminal (the rule tests/test_hostile_input.cpp holds them to). A refusal that
// breaks it (a byte outside printable ASCII, or more than kMaxMessageChars) aborts, and the fuzzer
// reports it as it reports a crash.
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace weft::fuzz {

constexpr size_t kMaxMessageChars = 200;

inline void checkMessage(std::string_view message) {
  bool readable = !message.empty() && message.size() <= kMaxMessageChars;
  for (unsigned char c : message) readable = readable && c >= 0x20 && c < 0x7f;
  if (readable) return;
  std::fprintf(stderr, "InputError that is not one readable sentence (%zu chars): %.*s\n", message.size(),
               int(message.size() > 2000 ? 2000 : message.size()), message.data());
  std::abort();
}

}  // namespace weft::fuzz

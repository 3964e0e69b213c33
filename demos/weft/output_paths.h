#pragma once
// Outputs tried before a run: a typo or a read-only place costs one sentence, not a run's time.
#include <string>

namespace weft {

// `what` names the output in the message ("PNG", "stats"). InputError when `path`'s folder does not
// exist, `path` is a folder, or its temporary file (path.tmp, which every writer renames into place)
// cannot be created there; the strerror reason is in the sentence.
void checkOutputFile(const std::string& path, const std::string& what);

// Creates `dir` if missing and tries a frame's temporary file in it (InputError as above).
void checkOutputFolder(const std::string& dir, const std::string& firstFile);

}  // namespace weft

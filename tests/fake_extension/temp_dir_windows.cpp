// TempDir on Windows: a fresh directory under %TEMP% (GetTempPathW), private
// by the user's profile ACL, removed with everything in it.
#include <filesystem>
#include <random>
#include <stdexcept>

#include "tests/fake_extension/temp_dir.h"

namespace tb::fake {

TempDir::TempDir(const std::string& prefix) {
  namespace fs = std::filesystem;
  std::random_device random;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path candidate = fs::temp_directory_path() / (prefix + std::to_string(random() % 1'000'000'000));
    std::error_code ec;
    if (fs::create_directory(candidate, ec)) {
      path_ = candidate.string();
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary directory for " + prefix);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(std::filesystem::u8path(path_), ec);
}

}  // namespace tb::fake

// A fresh private directory under $TMPDIR (or /tmp), removed with everything
// in it when the owner goes away.
#pragma once

#include <string>

namespace tb::fake {

class TempDir {
 public:
  // `prefix` names the directory so a leftover one says which test made it.
  explicit TempDir(const std::string& prefix = "tb-test-");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // A path inside the directory (not created).
  std::string Join(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace tb::fake

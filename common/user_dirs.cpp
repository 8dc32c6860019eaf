#include "common/user_dirs.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>

namespace tb {

std::string HomeDir() {
  const char* env = std::getenv("HOME");
  std::string home = env != nullptr ? env : "";
  if (home.empty()) {
    if (const passwd* pw = ::getpwuid(::getuid()); pw != nullptr && pw->pw_dir != nullptr) home = pw->pw_dir;
  }
  while (!home.empty() && home.back() == '/') home.pop_back();
  return home;
}

std::string XdgDir(const char* variable, std::string_view fallback) {
  const char* env = std::getenv(variable);
  if (env != nullptr && env[0] == '/') return env;
  return HomeDir() + "/" + std::string(fallback);
}

}  // namespace tb
